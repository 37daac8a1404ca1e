import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file and prefix reads with errors a user can act on (missing file, directory, empty
/// file, permission), and atomic whole-file writes.
package enum FileBytes {
    /// An open regular file and its size; closes itself when dropped.
    private final class OpenFile {
        let descriptor: Int32
        let size: Int

        init(path: String) throws(InputError) {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileBytes.systemError(path: path, action: "cannot open") }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let error = FileBytes.systemError(path: path, action: "cannot inspect")
                close(fd)
                throw error
            }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                close(fd)
                throw InputError(source: path, problem: "is a directory, not a file")
            }
            guard kind == S_IFREG else {
                close(fd)
                throw InputError(source: path, problem: "is not a regular file")
            }
            guard info.st_size > 0 else {
                close(fd)
                throw InputError(source: path, problem: "file is empty")
            }
            descriptor = fd
            size = Int(info.st_size)
        }

        deinit { close(descriptor) }

        /// Reads exactly `count` bytes from the start of the file.
        func read(count: Int, path: String) throws(InputError) -> [UInt8] {
            var failure: InputError?
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                var done = 0
                while done < count {
                    let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(done))
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = FileBytes.systemError(path: path, action: "cannot read")
                        break
                    }
                    if n == 0 {
                        failure = InputError(source: path, problem: "file shrank while being read")
                        break
                    }
                    done += n
                }
                // Bytes not read stay zero rather than uninitialized; the failure is thrown below.
                if done < count { (buffer.baseAddress! + done).initialize(repeating: 0, count: count - done) }
                initialized = count
            }
            if let failure { throw failure }
            return bytes
        }
    }

    /// The error for a failed system call, from `errno`.
    static func systemError(path: String, action: String) -> InputError {
        let code = errno
        switch code {
        case ENOENT: return InputError(source: path, problem: "no such file")
        case EACCES: return InputError(source: path, problem: "permission denied")
        case EISDIR: return InputError(source: path, problem: "is a directory, not a file")
        default: return InputError(source: path, problem: "\(action): \(String(cString: strerror(code)))")
        }
    }

    /// The whole file, or an error when it is missing, not a regular file, empty, unreadable or
    /// larger than ``InputLimits/maximumFileBytes``.
    package static func read(_ path: String) throws(InputError) -> [UInt8] {
        let file = try OpenFile(path: path)
        guard file.size <= InputLimits.maximumFileBytes else {
            throw InputError(source: path, problem: "file is \(file.size) bytes, more than the \(InputLimits.maximumFileBytes) allowed")
        }
        return try file.read(count: file.size, path: path)
    }

    /// The first `maximum` bytes of the file (fewer when it is shorter) and the file's size.
    package static func readPrefix(_ path: String, maximum: Int) throws(InputError) -> (bytes: [UInt8], fileSize: Int) {
        let file = try OpenFile(path: path)
        return (try file.read(count: min(maximum, file.size), path: path), file.size)
    }

    /// Writes `bytes` to `path` atomically (a temporary file renamed into place).
    /// A failure is one line naming the path and the system's reason ("cannot write: No such
    /// file or directory").
    package static func write(_ bytes: [UInt8], to path: String) throws(InputError) {
        func failure(_ code: Int32) -> InputError {
            InputError(source: path, problem: "cannot write: \(String(cString: strerror(code)))")
        }
        let temporary = "\(path).planekit-\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(errno) }
        var code: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                #else
                let n = Darwin.write(fd, buffer.baseAddress! + done, buffer.count - done)
                #endif
                if n < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    return
                }
                done += n
            }
        }
        if close(fd) != 0, code == 0 { code = errno }
        if code == 0, rename(temporary, path) != 0 { code = errno }
        if code != 0 {
            unlink(temporary)
            throw failure(code)
        }
    }
}
