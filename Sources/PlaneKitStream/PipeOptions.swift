/// How a ``FileDescriptorSink`` treats a descriptor that turns out to be a pipe.
public struct PipeOptions: Sendable, Equatable {
    /// The pipe capacity asked for before the first large write, in bytes; nil leaves the pipe
    /// as it is. A refusal (EPERM above `/proc/sys/fs/pipe-max-size` or the per-user limit) is
    /// silent: the pipe keeps its size and everything still works, only slower.
    public var pipeSize: Int?
    /// Whether large writes are lent to the pipe with `vmsplice(2)` instead of copied by `write(2)`.
    public var splices: Bool
    /// Writes of at least this many bytes are spliced; smaller ones (header lines) are written.
    public var minimumSpliceBytes: Int

    /// Options as given.
    public init(pipeSize: Int?, splices: Bool, minimumSpliceBytes: Int = 64 << 10) {
        self.pipeSize = pipeSize
        self.splices = splices
        self.minimumSpliceBytes = max(1, minimumSpliceBytes)
    }

    /// What the CLI uses: a 1 MiB pipe and spliced payloads.
    ///
    /// On a virtual machine a frame's 614 400 bytes through the default 64 KiB pipe cost 1.3–2.7 ms
    /// of wake-ups and copies; a 1 MiB pipe takes a whole frame at once, and vmsplice saves the
    /// writer's copy into pipe pages (600 frames: 0.8–1.6 s → 0.20–0.25 s).
    public static let automatic = PipeOptions(pipeSize: 1 << 20, splices: true)

    /// Plain `write(2)` into the pipe as it is.
    public static let plainWrites = PipeOptions(pipeSize: nil, splices: false)
}

/// What a pipe sink has done so far (for tests and diagnostics).
public struct PipeStatistics: Sendable, Equatable {
    /// The pipe's capacity in bytes when last looked at.
    public var pipeSize: Int
    /// Writes sent with vmsplice.
    public var splicedWrites: Int
    /// Bytes sent with vmsplice.
    public var splicedBytes: Int
    /// Page-aligned buffers in the ring.
    public var ringBuffers: Int
    /// Whether vmsplice was refused (EINVAL, ENOSYS) and writes went back to `write(2)`.
    public var fellBack: Bool
}
