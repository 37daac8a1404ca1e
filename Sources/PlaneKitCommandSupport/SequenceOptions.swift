import ArgumentParser

/// The options that pick a recorded walk for a benchmark (`--sequence` and how to read it),
/// shared by `bench tracking` and `bench relocalization`.
package struct SequenceOptions: ParsableArguments {
    package init() {}

    @Option(help: ArgumentHelp("A recorded walk (a TUM RGB-D folder or a 7-Scenes sequence) instead of generated ones.", valueName: "DIR"))
    var sequence: String?

    @Option(help: ArgumentHelp("Intrinsics of the recorded walk's 640×480 depth images (default: the data set's; for TUM from the folder name).",
                               valueName: "fx,fy,cx,cy"))
    var intrinsics: String?

    @Option(help: "Metres per depth unit of the recorded walk (default: 0.0002 for TUM, 0.001 for 7-Scenes).")
    var depthScale: Float?

    /// The recorded walk asked for (at most `limit` frames from its start), or `nil` without `--sequence`.
    package func recorded(limit: Int = .max) throws -> RecordedSequence? {
        guard let sequence else { return nil }
        let given = try intrinsics.map { try DepthImageOptions.intrinsics(parsing: $0, width: 640, height: 480) }
        if let depthScale, !(depthScale > 0 && depthScale.isFinite) { throw ValidationError("--depth-scale must be positive") }
        return try RecordedSequence.opened(folder: sequence, limit: limit, intrinsics: given, depthScale: depthScale)
    }
}
