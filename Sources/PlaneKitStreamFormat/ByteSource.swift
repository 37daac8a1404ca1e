#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a ``StreamRecordReader`` gets its bytes.
public protocol ByteSource {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many were read; 0 means the
    /// end of the input. Throws a one-line message when the input cannot be read.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int
}

/// A file descriptor read with `read(2)` (standard input by default). The descriptor is not
/// closed by this value.
public struct FileDescriptorSource: ByteSource, Sendable {
    /// The descriptor read from.
    public let descriptor: Int32
    /// A name for messages ("stdin", a path).
    public let name: String
    /// The capacity asked for, before the first read, when the descriptor is a pipe; nil leaves
    /// it alone.
    public let pipeSize: Int?
    /// Asked when a signal interrupts a read: `true` ends the input there (as its end would)
    /// instead of reading on. The signal's handler must be installed without `SA_RESTART`.
    public var endsOnInterrupt: (@Sendable () -> Bool)?
    private var prepared = false

    /// A source reading `descriptor`, called `name` in messages, growing it to `pipeSize` bytes
    /// when it is a pipe (a refusal is silent).
    public init(descriptor: Int32 = 0, name: String = "stdin", pipeSize: Int? = PipeSize.preferred) {
        self.descriptor = descriptor
        self.name = name
        self.pipeSize = pipeSize
    }

    /// Reads with `read(2)`, retrying when a signal interrupts it (unless ``endsOnInterrupt``
    /// says to end there).
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        if !prepared {
            prepared = true
            // A writer that leaves the pipe at 64 KiB (cat, a shell loop) makes 10 round trips
            // a VGA frame, each a wake-up on both sides; the pipe belongs to both ends, so the
            // reader can grow it as well.
            PipeSize.grow(descriptor, to: pipeSize)
        }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, base, buffer.count)
            #else
            let n = Darwin.read(descriptor, base, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR {
                if endsOnInterrupt?() ?? false { return 0 }
                continue
            }
            throw StreamError(recordNumber: 0, message: "cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }
}

/// Bytes held in memory, handed out in pieces of at most ``maximumPiece`` bytes (so tests can
/// exercise records split across reads).
public struct MemoryByteSource: ByteSource, Sendable {
    private let bytes: [UInt8]
    private var position = 0
    /// The most bytes one `read` returns.
    public var maximumPiece: Int

    /// A source of `bytes`, read at most `maximumPiece` bytes at a time.
    public init(_ bytes: [UInt8], maximumPiece: Int = .max) {
        self.bytes = bytes
        self.maximumPiece = max(1, maximumPiece)
    }

    /// Copies the next bytes into `buffer`.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Int {
        let n = min(buffer.count, bytes.count - position, maximumPiece)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + position, byteCount: n)
        }
        position += n
        return n
    }
}
