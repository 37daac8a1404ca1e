#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a ``StreamRecordWriter`` or an ``OutputBuffer`` puts its bytes.
public protocol ByteSink {
    /// Writes all of `bytes`, or throws a one-line message.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StreamError)
}

/// A file descriptor written with `write(2)` (standard output by default). The descriptor is
/// not closed by this value.
///
/// When the descriptor is a pipe (on Linux) it is grown to `pipeSize` bytes first, so that a
/// frame's payload goes in with one write instead of many small round trips. Payloads are
/// copied into the pipe, never lent to it (`vmsplice`): a reader that passes pages on with
/// `splice` or `tee`, as `pv` does, would otherwise see them change under it.
public struct FileDescriptorSink: ByteSink, Sendable {
    /// The descriptor written to.
    public let descriptor: Int32
    /// A name for messages ("stdout", a path).
    public let name: String

    /// A sink writing `descriptor`, called `name` in messages. When the descriptor is a pipe it
    /// is grown to `pipeSize` bytes (nil leaves it alone; a refusal, as above
    /// `/proc/sys/fs/pipe-max-size`, is silent and only slower).
    public init(descriptor: Int32 = 1, name: String = "stdout", pipeSize: Int? = PipeSize.preferred) {
        self.descriptor = descriptor
        self.name = name
        PipeSize.grow(descriptor, to: pipeSize)
    }

    /// Writes everything with `write(2)`, retrying after short writes and interruptions.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StreamError) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            #if canImport(Glibc)
            let n = Glibc.write(descriptor, base, remaining)
            #else
            let n = Darwin.write(descriptor, base, remaining)
            #endif
            if n < 0 {
                if errno == EINTR { continue }
                throw StreamError(recordNumber: 0, message: "cannot write \(name): \(String(cString: strerror(errno)))")
            }
            base += n
            remaining -= n
        }
    }
}

/// Bytes collected in memory (for tests and for building a stream to hand on).
public struct MemoryByteSink: ByteSink, Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// Appends `bytes`.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StreamError) {
        self.bytes.append(contentsOf: bytes)
    }
}

/// Buffered output to a ``ByteSink``: small writes are gathered into one buffer of fixed
/// capacity and written when it fills; large writes go straight through.
public struct OutputBuffer<Sink: ByteSink> {
    /// The sink the bytes end up in (flush first to see everything written).
    public private(set) var sink: Sink
    private var pending: [UInt8] = []
    private let capacity: Int

    /// A buffer of `capacity` bytes in front of `sink`.
    public init(sink: Sink, capacity: Int = 64 << 10) {
        self.sink = sink
        self.capacity = max(capacity, 256)
        pending.reserveCapacity(self.capacity)
    }

    /// Writes `bytes` (buffered when small).
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StreamError) {
        if pending.count + bytes.count <= capacity {
            pending.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count < capacity {
            pending.append(contentsOf: bytes)
        } else {
            try sink.write(bytes)
        }
    }

    /// Writes `bytes` (buffered when small).
    public mutating func write(_ bytes: [UInt8]) throws(StreamError) {
        var failure: StreamError?
        bytes.withUnsafeBytes { raw in
            do throws(StreamError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes the line a ``JSONLineWriter`` holds (it ends in `\n` once its object is closed).
    public mutating func write(_ line: JSONLineWriter) throws(StreamError) {
        try write(line.bytes)
    }

    /// Writes out everything buffered.
    public mutating func flush() throws(StreamError) {
        guard !pending.isEmpty else { return }
        var failure: StreamError?
        pending.withUnsafeBytes { raw in
            do throws(StreamError) { try sink.write(raw) } catch { failure = error }
        }
        pending.removeAll(keepingCapacity: true)
        if let failure { throw failure }
    }
}

/// A sink that forgets what it is given (a run whose events only go to a `StreamObserver`).
public struct DiscardingByteSink: ByteSink, Sendable {
    /// A sink.
    public init() {}

    /// Does nothing.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(StreamError) {}
}
