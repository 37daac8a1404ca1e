#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport
import PlaneKitStreamFormat
import PlaneKitCloudIO

/// `planekit encode`: point-cloud files and depth images into a frame stream.
struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Turn point-cloud files and depth images into a frame stream on stdout.",
        discussion: """
            Each file becomes one frame record of the stream format (docs/stream-format.md): \
            16-bit depth images (PGM, PNG, TIFF, with intrinsics from --intrinsics or a sidecar \
            file) become depth16 frames with their raw samples, depth scale and the sidecar's pose \
            when it has one; organized clouds \
            (PCD, PLY) become xyz32f frames, with the PCD's VIEWPOINT as the pose. Unorganized \
            clouds cannot be frames and are reported. A file that cannot be read gives one line \
            on stderr and is skipped. With no FILE, or with -, paths are read from stdin, one a line. \
            When stdout is a pipe it is grown to 1 MiB, so a frame goes in with one write.

            With --sequence DIR, the frames are a recorded walk with its poses, read as `bench \
            tracking --sequence` reads it: a 7-Scenes sequence (frame-NNNNNN.depth.png, its \
            frame-NNNNNN.pose.txt and camera-intrinsics.txt; 30 fps) or a TUM RGB-D folder \
            (depth.txt, groundtruth.txt associated by timestamp within 20 ms). --intrinsics and \
            --depth-scale replace the data set's. A gravity-direction.txt in the folder (gravity's \
            down in the reference world) gives every frame its "gravity" in camera coordinates, \
            as an accelerometer would, so the stream's up is the walk's.

            Invalid readings: 16-bit samples of 0 and 65535 mean "no reading" (65535 is how \
            7-Scenes, TUM and some RealSense modes mark it); they are written as they are and \
            become holes when the stream is read. --max-depth METRES is written into every \
            frame's header as "maxDepth": stream drops readings farther than that (for clouds, \
            points whose z in the sensor frame is larger); the payload is left as the file has it.

            Examples:
              planekit encode frame_*.pcd > frames.stream
              ls depth/*.png | planekit encode --intrinsics 525,525,319.5,239.5 --fps 15
              ls walk/*.png | planekit encode | planekit stream  # walk/: synth --depth-dir
              planekit encode --sequence redkitchen/seq-01 | planekit stream > k.ndjson
            """)

    @Argument(help: "Files to encode, in order (none or -: read paths from stdin).")
    var files: [String] = []

    @OptionGroup var depthOptions: DepthImageOptions

    @Option(help: "Frames per second for the timestamps: frame i has t = i / fps. Without it, a depth image's sidecar \"t\" when it has one, else 30 fps.")
    var fps: Double?

    @Option(help: ArgumentHelp("World-from-camera pose for every frame, 16 numbers column-major, overriding the file's.",
                               valueName: "m0,m1,…,m15"))
    var pose: String?

    @Option(name: .customLong("output"), help: ArgumentHelp("Write the stream to a file instead of stdout.", valueName: "FILE"))
    var outputPath: String?

    @Option(help: ArgumentHelp(
        "Encode a recorded walk with its poses instead of FILEs: a 7-Scenes sequence or a TUM RGB-D folder.", valueName: "DIR"),
            completion: .directory)
    var sequence: String?

    mutating func validate() throws {
        if let fps, !(fps > 0 && fps.isFinite) { throw ValidationError("--fps must be a positive number, got \(fps)") }
        _ = try parsedPose()
        _ = try depthOptions.readOptions()
        if sequence != nil, !files.isEmpty || pose != nil {
            throw ValidationError("--sequence takes its frames and poses from the folder: give no FILE and no --pose")
        }
    }

    /// The `--pose` transform, nil when not given.
    func parsedPose() throws -> Transform? {
        guard let pose else { return nil }
        let numbers = CFormat.floats(commaSeparated: pose).compactMap { $0 }
        guard numbers.count == 16, let transform = Transform(columnMajor: numbers) else {
            throw ValidationError("--pose needs 16 comma-separated numbers of a rigid transform, column-major; got '\(pose)'")
        }
        return transform
    }

    mutating func run() throws {
        BufferHeap.backWithHugePages()
        let options = try depthOptions.readOptions()
        let poseOverride = try parsedPose()
        let given = try depthOptions.intrinsics.map { try DepthImageOptions.intrinsics(parsing: $0, width: 640, height: 480) }
        let recorded = try sequence.map { try RecordedSequence.opened(folder: $0, intrinsics: given, depthScale: depthOptions.depthScale) }
        let paths = recorded?.paths ?? (files.isEmpty || files == ["-"] ? Encode.pathsFromStandardInput() : files.filter { $0 != "-" })
        let sink = try StreamOutput.open(outputPath)
        var writer = StreamRecordWriter(sink: sink)
        var progress = ProgressBar(total: paths.count, label: "encode")
        var written = 0, failed = 0
        for (index, path) in paths.enumerated() {
            progress.update(index)
            do {
                let frame = if let recorded {
                    try recorded.streamFrame(index, maxDepth: options.maxDepth, timestamp: fps.map { Double(written) / $0 })
                } else {
                    try Encode.frame(path: path, options: options, index: written, fps: fps, pose: poseOverride)
                }
                try writer.write(.frame(frame))
                written += 1
            } catch let error as InputError {
                progress.finish()
                Diagnostics.warn(error.description)
                failed += 1
            }
        }
        progress.update(paths.count)
        progress.finish()
        try writer.flush()
        // Every readable file was written; the exit status still says that some were not.
        if failed > 0 { throw ExitCode.failure }
    }

    /// Non-empty lines of stdin, trimmed.
    static func pathsFromStandardInput() -> [String] {
        var paths: [String] = []
        while let line = readLine() {
            let path = CFormat.trimmed(line)
            if !path.isEmpty { paths.append(path) }
        }
        return paths
    }

    /// Frames per second when neither `--fps` nor a sidecar gives the time.
    static let defaultFPS: Double = 30

    /// The frame for file `path`, frame number `index`: depth images keep their raw 16-bit
    /// samples, organized clouds become xyz32f, and `options.maxDepth` becomes the frame's
    /// `maxDepth` rather than changing the payload. Its time is `index / fps` with `--fps`, else a
    /// depth image's sidecar `t`, else `index / 30`.
    static func frame(path: String, options: ReadOptions, index: Int, fps: Double?, pose: Transform?) throws(InputError) -> StreamFrame {
        let counted = Double(index) / (fps ?? defaultFPS)
        switch try PointCloudReader.format(ofPath: path) {
        case .pgm, .png, .tiff:
            let raw = try DepthImageReader.readRaw(path: path)
            let sidecar = try CameraSidecar.find(besideImage: path)
            let scale = options.depthScale ?? sidecar?.depthScale ?? ReadOptions.defaultDepthScale
            guard scale > 0, scale.isFinite else {
                throw InputError(source: sidecar?.path ?? path, problem: "depth scale \(scale) is not a positive finite number")
            }
            let intrinsics: PinholeIntrinsics
            if let given = options.intrinsics,
               let k = PinholeIntrinsics(fx: given.fx, fy: given.fy, cx: given.cx, cy: given.cy, width: raw.width, height: raw.height) {
                intrinsics = k
            } else if let sidecar {
                intrinsics = try sidecar.intrinsics(width: raw.width, height: raw.height)
            } else {
                throw InputError(source: path, problem: "a depth image needs camera intrinsics: pass --intrinsics fx,fy,cx,cy or put a sidecar (.xml or .json) beside it")
            }
            return raw.samples.withUnsafeBufferPointer {
                StreamFrame.depth16(samples: $0, intrinsics: intrinsics, depthScale: scale, maxDepth: options.maxDepth,
                                    timestamp: fps == nil ? sidecar?.timestamp ?? counted : counted, pose: pose ?? sidecar?.pose)
            }
        case .pcd, .ply, .xyz:
            // The points go into the frame as the file has them; the range travels in its header.
            var raw = options
            raw.maxDepth = nil
            let cloud = try PointCloudReader.read(path: path, options: raw)
            guard let frame = StreamFrame.xyz32f(cloud: cloud, timestamp: counted, pose: pose, maxDepth: options.maxDepth) else {
                throw InputError(source: path, problem: "an unorganized cloud (\(cloud.count) points, height 1) cannot be a stream frame; frames need an image layout")
            }
            return frame
        }
    }
}

/// Where stream commands write: stdout, or a file opened for writing.
enum StreamOutput {
    /// A sink for `path`, or stdout when nil or "-".
    static func open(_ path: String?) throws -> FileDescriptorSink {
        guard let path, path != "-" else { return FileDescriptorSink() }
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            // One line naming the file, like every other unwritable output (no usage text: the
            // arguments were fine).
            Diagnostics.warn("\(path): cannot open for writing: \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        // The descriptor stays open until the process exits, which is when the command ends.
        return FileDescriptorSink(descriptor: fd, name: path)
    }
}
