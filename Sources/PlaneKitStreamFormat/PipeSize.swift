#if os(Linux)
import CLinuxIO
import Glibc
#endif

/// Pipe sizes, shared by the writing and the reading end.
public enum PipeSize {
    /// The capacity PlaneKit asks for on both ends of a pipe: 1 MiB. Through the default
    /// 64 KiB pipe a VGA depth16 frame (614 400 bytes) takes ten fill-and-drain round trips,
    /// each a wake-up on both sides; on this project's virtual machine that cost 1.3–2.7 ms a
    /// frame, against about 0.6 ms with the whole frame in the pipe at once.
    public static let preferred = 1 << 20

    /// Grows `descriptor` to `size` bytes when it is a smaller pipe (on Linux, the only system
    /// that lets a program choose); a refusal, such as EPERM above `/proc/sys/fs/pipe-max-size`,
    /// is silent and only slower. Nil, or anything but a pipe, is left alone.
    static func grow(_ descriptor: Int32, to size: Int?) {
        #if os(Linux)
        guard let size, isPipe(descriptor), let current = capacity(descriptor), current < size else { return }
        _ = clinuxio_set_pipe_size(descriptor, Int32(clamping: size))
        #endif
    }

    #if os(Linux)
    /// Whether `descriptor` is a pipe or FIFO.
    static func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// The pipe's capacity in bytes, nil when it cannot be read (not a pipe).
    static func capacity(_ descriptor: Int32) -> Int? {
        let size = clinuxio_pipe_size(descriptor)
        return size > 0 ? Int(size) : nil
    }
    #endif
}
