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
import PlaneKitSyntheticWalks

/// `planekit synth`: generated rooms with known planes, for trying and testing the detector.
struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Generate a room with known planes, seen by a simulated depth camera.",
        discussion: """
            Builds a random room from --seed (floor, ceiling, walls, tables, boxes, a few round \
            objects that are not planes), places a 640×480 Kinect-like camera in it and renders a \
            frame with depth noise σ = 0.0012 + 0.0019·(z − 0.4)² m, disparity quantisation and \
            dropouts (--ideal turns the sensor model off). The same seed always gives the same \
            frame on every machine.

            --sensor picks another simulated sensor, each frame with its true planes and label \
            image (kinect, the default, is the camera above):

            scanner: a tabletop structured-light range scanner, as in the ABW and Perceptron \
            range-image benchmarks. 512×512 on a grid regular in x/y (0.8 mm spacing), so the \
            frame has no intrinsics and goes to --output only; --grid pinhole makes it a 23° \
            pinhole camera with a depth PNG. It sees 5–8 polyhedral objects (boxes, wedges, \
            stepped blocks, pyramids, frustums, 5–30 cm) on a table before a wall from ~1 m: \
            15–25 faces, several under 3000 pixels. Like SegComp's ABW scanner: depth in 1.3 mm \
            steps (an 8-bit range) over 0.25 mm of noise and a 0.5 mm ripple; 10% of the faces dark (5–30% of their \
            readings lost in blobs and speckles, 1.4–4 mm noise); readings thinning out and noisier \
            from 70° incidence; no depth where the projector, 25 cm to the right, cannot see \
            (shadows left of the objects).

            tof: a time-of-flight camera like the Azure Kinect's narrow unbinned mode. 640×576, \
            f = 504 px, 0.5–3.86 m, σ = 1.5 mm + 0.35%·z, flying pixels (label 0) at depth edges.

            realsense: an active stereo camera like the RealSense D435. 848×480, f = 430 px, \
            baseline 50 mm, σ = z²·0.08/(f·b); no depth in the left band the right imager cannot \
            see, in its occlusions, or in blobs at grazing angles and far away.

            Pixels without depth are NaN in the PCD and --invalid-value (0 or 65535) in the \
            depth PNG. The label image gives each pixel's true face (0 = none).

            Writes any of: the organized cloud as PCD (camera frame, the pose in VIEWPOINT), a \
            16-bit depth PNG in millimetres with a NAME.json intrinsics sidecar beside it, the \
            true label image as 16-bit PGM, and the true planes as JSON. With no output option \
            it prints a summary of the true planes.

            With --frames N it writes a stream instead (docs/stream-format.md): the camera walks \
            a smooth loop through the room and each of the N frames becomes a depth16 record \
            (millimetres) with its pose and timestamp; --taps K adds K tap records spread over \
            the sequence, each at a pixel that sees a floor, table or box top; --no-poses leaves \
            the poses out (stream then tracks the camera from depth) and --imu adds each frame's \
            accelerometer reading. With --frames N --depth-dir DIR it writes the same walk as a recorded sequence instead, like a TUM \
            RGB-D depth folder: DIR/frame-NNNNNN.png (16-bit, millimetres; NNNNNN counts from 0) \
            and frame-NNNNNN.json beside each (intrinsics, depth scale, pose, t), which \
            `planekit encode` turns back into the stream's frames.

            Examples:
              planekit synth --seed 7 --output room.pcd --labels room-truth.pgm
              planekit synth --seed 7 --depth room.png && planekit analyze room.png
              planekit synth --sensor scanner --seed 3 --output scan.pcd \\
                  --labels scan.pgm --truth scan.json
              planekit synth --sensor realsense --invalid-value 65535 --depth d435.png
              planekit synth --frames 120 --taps 3 | planekit stream
              planekit synth --frames 600 --no-poses --imu | planekit stream
              planekit synth --frames 300 --depth-dir walk
              ls walk/*.png | planekit encode | planekit stream
            """)

    @Option(help: "Seed of the room, camera pose and noise.")
    var seed: UInt64 = 1

    @Option(help: "The simulated sensor: kinect, scanner, tof or realsense (see above).")
    var sensor: SynthSensor = .kinect

    @Option(help: "With --sensor scanner: orthographic (a range image regular in x/y, the default) or pinhole.")
    var grid: SynthGrid?

    @Option(name: .customLong("invalid-value"), help: "The depth PNG's sample for pixels without depth: 0 or 65535.")
    var invalidValue: UInt16 = 0

    @Flag(help: "Render perfect depth: no noise, quantisation or dropouts.")
    var ideal = false

    @Option(name: .customLong("output"), help: ArgumentHelp("Write the organized cloud as binary PCD.", valueName: "OUT.pcd"))
    var pcdPath: String?

    @Option(name: .customLong("depth"), help: ArgumentHelp("Write a 16-bit depth PNG (mm) and OUT.json (intrinsics, pose) beside it.", valueName: "OUT.png"))
    var depthPath: String?

    @Option(name: .customLong("labels"), help: ArgumentHelp("Write the true label image as 16-bit PGM (0 = no plane).", valueName: "OUT.pgm"))
    var labelsPath: String?

    @Option(name: .customLong("truth"), help: ArgumentHelp("Write the true planes (camera and world frame) as JSON.", valueName: "OUT.json"))
    var truthPath: String?

    @Option(help: "Write a stream of this many frames of a moving camera instead of a single frame.")
    var frames: Int?

    @Option(help: "With --frames: how many tap records to spread over the stream.")
    var taps: Int = 0

    @Option(help: "With --frames: frames per second (timestamps and camera speed).")
    var fps: Double = 30

    @Option(name: .customLong("stream-output"), help: ArgumentHelp("With --frames: write the stream to a file instead of stdout.", valueName: "FILE"))
    var streamPath: String?

    @Option(name: .customLong("depth-dir"),
            help: ArgumentHelp("With --frames: write each frame as DIR/frame-NNNNNN.png (mm) and .json (intrinsics, pose, t) instead of a stream.",
                               valueName: "DIR"),
            completion: .directory)
    var depthDirectory: String?

    @Flag(help: "With --frames: give each frame record the simulated accelerometer's \"acceleration\" (a calibrated D435i-class IMU: 0.01 m/s² noise, 0.03 m/s² offset; none with --ideal).")
    var imu = false

    @Flag(help: "With --frames: leave the poses out of the frame records, so that stream tracks the camera from depth (and --imu).")
    var noPoses = false

    @OptionGroup var offset: WorldOffsetOption

    mutating func validate() throws {
        guard invalidValue == 0 || invalidValue == 65535 else {
            throw ValidationError("--invalid-value must be 0 or 65535, got \(invalidValue)")
        }
        if grid != nil && sensor != .scanner {
            throw ValidationError("--grid is for --sensor scanner; the other sensors are pinhole cameras")
        }
        if depthPath != nil, profile?.grid.intrinsics == nil, sensor != .kinect {
            throw ValidationError("the scanner's orthographic grid has no intrinsics for a depth PNG; write --output OUT.pcd, or add --grid pinhole")
        }
        guard let frames else {
            if taps != 0 || streamPath != nil || depthDirectory != nil || imu || noPoses {
                throw ValidationError("--taps, --stream-output, --depth-dir, --imu and --no-poses need --frames")
            }
            return
        }
        if depthDirectory != nil && (taps != 0 || streamPath != nil || imu || noPoses) {
            throw ValidationError("--depth-dir writes depth images, not a stream; --taps, --stream-output, --imu and --no-poses are for streams")
        }
        guard sensor == .kinect else {
            throw ValidationError("--frames simulates the Kinect only; leave out --sensor \(sensor.rawValue)")
        }
        guard frames > 0 else { throw ValidationError("--frames must be at least 1, got \(frames)") }
        guard taps >= 0 else { throw ValidationError("--taps must not be negative, got \(taps)") }
        guard fps > 0, fps.isFinite else { throw ValidationError("--fps must be a positive number, got \(fps)") }
        if pcdPath != nil || depthPath != nil || labelsPath != nil || truthPath != nil {
            throw ValidationError("--frames writes a stream; --output, --depth, --labels and --truth are for single frames")
        }
    }

    mutating func run() throws {
        if let frames, let depthDirectory {
            try writeDepthSequence(frameCount: frames, to: depthDirectory)
            return
        }
        if let frames {
            var stream = SynthStream(seed: seed, frameCount: frames, tapCount: taps, fps: fps, sensor: ideal ? .ideal : .kinect)
            stream.worldOffset = try offset.transform()
            stream.accelerometer = imu ? (ideal ? .ideal : .calibrated) : nil
            stream.writesPoses = !noPoses
            try stream.write(to: try StreamOutput.open(streamPath))
            return
        }
        let frame = profile.map { SyntheticFrame(seed: seed, sensor: ideal ? $0.ideal : $0) }
            ?? SyntheticFrame(seed: seed, sensor: ideal ? .ideal : .kinect)
        if let pcdPath {
            try PCDWriter.write(frame.cloud, to: pcdPath)
        }
        if let depthPath {
            try writeDepthPNG(frame, to: depthPath)
        }
        if let labelsPath {
            try PGMWriter.write(try GrayImage(width: frame.width, height: frame.height, bitDepth: 16, samples: frame.labels), to: labelsPath)
        }
        if let truthPath {
            try Data(try JSONOutput.string(TrueFrameReport(frame: frame, profile: profile)).utf8).write(to: URL(fileURLWithPath: truthPath))
        }
        if pcdPath == nil, depthPath == nil, labelsPath == nil, truthPath == nil {
            let visible = frame.visiblePlanes(minimumPixels: 1)
            print("seed \(seed) \(sensor.rawValue): \(frame.width)×\(frame.height), \(visible.count) visible true planes")
            for plane in visible {
                print(CFormat.string("%4d  ", Int(plane.id)) + CFormat.padded(plane.kind.rawValue, to: 9)
                      + CFormat.string(" %7d px  normal ", plane.pixelCount) + PlaneTable.vector(plane.cameraPlane.normal, digits: 3)
                      + CFormat.string("  offset %.3f m", plane.cameraPlane.offset))
            }
        }
    }

    /// The profile of `--sensor` (with `--grid`), or `nil` for the Kinect.
    private var profile: SimulatedSensor? {
        switch sensor {
        case .kinect: return nil
        case .scanner: return grid == .pinhole ? .scannerPinhole : .scanner
        case .tof: return .tof
        case .realsense: return .realsense
        }
    }

    /// Depth in millimetres (--invalid-value where there is no depth) and a JSON sidecar with the
    /// intrinsics, the layout `analyze` and `encode` read back.
    private func writeDepthPNG(_ frame: SyntheticFrame, to path: String) throws {
        try Synth.writeDepthPNG(millimetres: frame.depthMillimetres(invalidValue: invalidValue), intrinsics: frame.intrinsics, pose: frame.pose,
                                timestamp: frame.timestamp, to: path)
    }

    /// The walk of `synth --frames` (same room, path and noise, so the same depths as its
    /// stream's frames) as DIR/frame-NNNNNN.png with a sidecar each.
    private func writeDepthSequence(frameCount: Int, to directory: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            Diagnostics.warn("\(directory): cannot create the --depth-dir folder; give one you can write to")
            throw ExitCode(1)
        }
        let sequence = SyntheticSequence(seed: seed, frameCount: frameCount, frameRate: fps, sensor: ideal ? .ideal : .kinect)
        let intrinsics = sequence.renderer.intrinsics
        let pixels = intrinsics.width * intrinsics.height
        var workspace = RenderWorkspace()
        var millimetres = ContiguousArray<UInt16>(repeating: 0, count: pixels)
        var progress = ProgressBar(total: frameCount, label: "synth")
        for index in 0..<frameCount {
            progress.update(index)
            millimetres.withUnsafeMutableBytes { bytes in
                sequence.renderDepth16(frameAt: index, encoding: .millimetres, into: bytes, workspace: &workspace)
            }
            // The renderer writes little-endian samples; on a big-endian machine swap them back.
            if UInt16(littleEndian: 1) != 1 {
                for i in millimetres.indices { millimetres[i] = UInt16(littleEndian: millimetres[i]) }
            }
            try Synth.writeDepthPNG(millimetres: millimetres, intrinsics: intrinsics, pose: sequence.pose(ofFrame: index),
                                    timestamp: sequence.timestamp(ofFrame: index),
                                    to: directory + "/" + frameFileName(index, extension: "png"))
        }
        progress.update(frameCount)
        progress.finish()
    }

    /// A 16-bit depth PNG of `millimetres` at `path` and PATH.json beside it with the
    /// intrinsics, depth scale (0.001), pose and timestamp.
    private static func writeDepthPNG(millimetres: ContiguousArray<UInt16>, intrinsics k: PinholeIntrinsics, pose: Transform,
                                      timestamp: Double, to path: String) throws {
        try PNGWriter.write(try GrayImage(width: k.width, height: k.height, bitDepth: 16, samples: millimetres), to: path)
        let numbers = pose.columnMajor.map { "\($0)" }.joined(separator: ", ")
        let sidecar = "{\"fx\": \(k.fx), \"fy\": \(k.fy), \"cx\": \(k.cx), \"cy\": \(k.cy), \"depthScale\": 0.001, \"t\": \(timestamp),\n \"pose\": [\(numbers)]}\n"
        let sidecarPath = URL(fileURLWithPath: path).deletingPathExtension().path + ".json"
        try Data(sidecar.utf8).write(to: URL(fileURLWithPath: sidecarPath))
    }
}

/// The sensors `synth --sensor` simulates.
enum SynthSensor: String, ExpressibleByArgument, CaseIterable {
    case kinect, scanner, tof, realsense
}

/// The scanner's pixel grids (`synth --grid`).
enum SynthGrid: String, ExpressibleByArgument, CaseIterable {
    case orthographic, pinhole
}

/// The true planes of a generated frame, as `synth --truth` writes them.
struct TrueFrameReport: Encodable {
    /// The simulated sensor, for frames of a ``SimulatedSensor`` (the Kinect's report has none).
    struct SensorReport: Encodable {
        let name: String
        /// `pinhole` or `orthographic`.
        let grid: String
        /// The orthographic grid's pixel spacing (m).
        let spacing: Float?
        /// The pinhole intrinsics.
        let intrinsics: PinholeIntrinsics?
        /// σ(z) = constant + linear·z + quadratic·z² (m).
        let noise: DepthNoise
    }
    struct TruePlaneReport: Encodable {
        let id: Int
        let kind: String
        let pixels: Int
        let cameraPlane: Plane
        let worldPlane: Plane
    }
    let width: Int
    let height: Int
    let pose: Transform
    let sensor: SensorReport?
    let planes: [TruePlaneReport]

    init(frame: SyntheticFrame, profile: SimulatedSensor? = nil) {
        sensor = profile.map { profile in
            var spacing: Float?
            if case let .orthographic(_, _, s) = profile.grid { spacing = s }
            return SensorReport(name: profile.name, grid: spacing == nil ? "pinhole" : "orthographic", spacing: spacing,
                                intrinsics: profile.grid.intrinsics, noise: profile.noise)
        }
        width = frame.width
        height = frame.height
        pose = frame.pose
        planes = frame.visiblePlanes(minimumPixels: 1).map {
            TruePlaneReport(id: Int($0.id), kind: $0.kind.rawValue, pixels: $0.pixelCount,
                            cameraPlane: $0.cameraPlane, worldPlane: $0.worldPlane)
        }
    }
}
