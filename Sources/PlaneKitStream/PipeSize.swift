#if os(Linux)
import CLinuxIO
import Glibc

/// Pipe sizes, shared by the writing and the reading end.
public enum PipeSize {
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

    /// Grows the pipe to `size` bytes when it is smaller, silently keeping it when the kernel
    /// refuses; returns its capacity afterwards, nil when it cannot be read (not a pipe).
    @discardableResult
    static func grow(_ descriptor: Int32, to size: Int) -> Int? {
        guard let current = capacity(descriptor) else { return nil }
        guard current < size else { return current }
        let granted = clinuxio_set_pipe_size(descriptor, Int32(clamping: size))
        return granted > 0 ? Int(granted) : current
    }
}

extension PipeSize {
    /// The capacity PlaneKit asks for on both ends of a pipe: 1 MiB. Through the default
    /// 64 KiB pipe a VGA depth16 frame (614 400 bytes) takes ten fill-and-drain round trips,
    /// each a wake-up on both sides; on this project's virtual machine that cost 1.3–2.7 ms a
    /// frame, against about 0.6 ms with the whole frame in the pipe at once.
    public static let preferred = 1 << 20
}
#else
/// Pipe sizes (only Linux lets a program choose one).
public enum PipeSize {
    /// The capacity PlaneKit asks for on both ends of a pipe where it can: 1 MiB.
    public static let preferred = 1 << 20
}
#endif
