import ArgumentParser
import FoundationEssentials
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitCameraTracking
import PlaneKitCommandSupport
import PlaneKitDetection
import PlaneKitSyntheticWalks

/// `planekit bench tracking`: camera tracking from depth alone (no poses) against the walks'
/// reference poses, time per frame and position RMSE, next to Open3D's frame-to-frame
/// point-to-plane ICP or its frame-to-model dense SLAM on the same frames in the same run.
struct BenchTracking: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracking",
        abstract: "Track the camera from depth alone; RMSE against reference poses and time per frame, next to Open3D.",
        discussion: """
            Without --sequence: generated walks (SyntheticSequence, seeds --seed …, --frames \
            each, 30 fps, Kinect noise), the true poses as reference. With --sequence DIR: a \
            recorded walk, its first --frames depth frames that have a reference pose, in the \
            TUM RGB-D layout (depth.txt, groundtruth.txt, depth/*.png at 5000 units per metre; \
            the pose nearest in time, within 20 ms) or the 7-Scenes one \
            (frame-NNNNNN.depth.png in millimetres with frame-NNNNNN.pose.txt, 30 fps, \
            585, 585, 320, 240).

            Each frame's cloud goes to CameraTracker without its pose (with --imu, with the \
            simulated accelerometer's reading, as a record's "acceleration" field would bring \
            it; a recorded walk with a gravity-direction.txt (gravity in the reference world) gives each frame \
            its gravity in camera coordinates, as a record's "gravity" field would); the time of \
            track() alone is measured (one thread) and its median and mean reported (the mean \
            holds the frames that make a keyframe, a few milliseconds more), with the position \
            RMSE of the estimated poses after moving them rigidly so that the first matches the \
            reference (what an AR user sees), the largest error, the RMSE after the best rigid \
            fit of the whole path (as TUM's tools report it), the relative pose error over one \
            second (TUM's RPE: the RMS of how far each second's estimated motion is from the \
            reference's, in cm and degrees; drift per second, which a pose out of step with its \
            neighbours also shows in), and how many frames were not tracked normally; with \
            several walks (--seed 1 --seed 2 …), a last line gives the median and the worst \
            RMSE and how many walks lost the track: one walk's figure moves \
            by centimetres with how a bare-wall stretch is crossed, so judge a change on many. \
            --without-gravity tracks a walk with gravity a second time from \
            depth alone. --fused-surface registers each frame against the surface fused from \
            the frames tracked before it (2 cm surfels, rendered at the predicted pose) instead \
            of the nearest keyframe. --trajectory FILE writes the estimated poses in the TUM \
            RGB-D trajectory format, which evo and TUM's evaluate_ate.py read.

            --check-reference judges the reference poses against the depth itself: for frame \
            pairs (i, i+--pair-gap) every --pair-gap frames, the median point-to-plane distance \
            of frame i+gap's points to frame i's surface under the reference's relative pose, \
            under PlaneKit's, and under a direct registration of the pair (ICP from the \
            reference's pose to convergence), and how far the reference's and PlaneKit's \
            relative poses are from the direct one, on average and at the pair where the \
            reference is furthest from it (with --pair-gap 1, a glitch of the reference: a \
            step its own depth does not show). A reference that agrees with its depth scores \
            about what the direct registration does. When the walk gives gravity, it also \
            measures the angle between the floor detected in frame i and the reference's up \
            (a degree or two of the camera's distortion, and more where the reference turns), \
            and the floor's height where the reference's pose of frame i puts it: a flat floor \
            has one height, so its spread is the reference's error along up (a table or \
            counter seen instead, over 15 cm above the lowest floor, is left out of it), and \
            under PlaneKit's poses alike.

            Unless --no-open3d, the same frames (as depth PNGs) go to \
            scripts/bench_open3d_tracking.py: Open3D's point-to-plane ICP frame to frame on \
            2 cm voxels, or with --open3d-tracking frame-to-model its dense SLAM pipeline (a \
            TSDF, each frame registered against the surface ray-cast from it, as \
            KinectFusion), timed the same way; its RMSEs are computed here alike, and so is \
            how far PlaneKit's track is from Open3D's (two trackers' disagreement, to set \
            beside each one's from a reference that is a tracker's estimate too); with \
            --check-reference, the floor's height is measured under Open3D's poses as well. \
            scripts/bench-tracking.sh sets up the Python side (--python names another).

              swift build -c release && .build/release/planekit bench tracking --no-open3d
              .build/release/planekit bench tracking --no-open3d --imu calibrated \\
                  --seed 1 --seed 2
              scripts/bench-tracking.sh --sequence tum/rgbd_dataset_freiburg1_xyz
              .build/release/planekit bench tracking --no-open3d --sequence DIR \\
                  --frames 500 --without-gravity --check-reference
            """)

    @Option(help: "Frames per walk (the first this many of a recorded sequence).")
    var frames = 600

    @Option(help: "Seeds of the generated walks.")
    var seed: [UInt64] = [1]

    @OptionGroup var recording: SequenceOptions

    @Option(help: ArgumentHelp("Python with open3d and numpy, for the comparison.", valueName: "PATH"))
    var python = ".build-venv/bin/python3"

    @Option(help: ArgumentHelp("The Open3D side of the benchmark.", valueName: "PATH"))
    var script = "scripts/bench_open3d_tracking.py"

    @Flag(help: "Time PlaneKit alone.")
    var noOpen3d = false

    @Option(help: ArgumentHelp("Open3D's tracking: frame-to-frame (point-to-plane ICP on 2 cm voxels against the previous frame) or frame-to-model (its dense SLAM pipeline: a TSDF of 5.8 mm voxels, each frame registered against the surface ray-cast from it, as KinectFusion; about 0.2 s a frame).",
                               valueName: "METHOD"))
    var open3dTracking: Open3DTracking = .frameToFrame

    @Option(help: ArgumentHelp("Give the generated walks' frames an accelerometer reading: calibrated (a D435i-class IMU), ideal, or none.",
                               valueName: "NOISE"))
    var imu: IMUChoice = .none

    @Flag(help: "Also track a recorded walk that gives gravity without it (depth alone), and report both.")
    var withoutGravity = false

    @Flag(help: "Judge the reference poses against the depth: residuals of frame pairs under the reference's, PlaneKit's and a direct registration's relative poses, and the floor's tilt from the reference's up and its height under the reference's poses.")
    var checkReference = false

    @Option(help: "Frames between the two frames of a --check-reference pair (and between pairs).")
    var pairGap = 10

    @Flag(help: "Register each frame against the surface fused from the frames tracked so far instead of the nearest keyframe (CameraTracker.Configuration.registersAgainstFusedSurface).")
    var fusedSurface = false

    @Flag(help: "Do not learn and correct the camera's fixed-pattern depth error while tracking (CameraTracker.Configuration.calibratesDepth), to see what it does.")
    var withoutDepthCalibration = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Flag(help: "Also print every frame's position error (after the first-frame alignment) and tracking state.")
    var perFrame = false

    @Option(help: ArgumentHelp("Write each walk's estimated poses to this file, in the TUM RGB-D trajectory format (a line per tracked frame: timestamp tx ty tz qx qy qz qw, world from camera); {walk} in the path is the walk's number, from 1.", valueName: "FILE"))
    var trajectory: String?

    mutating func run() throws {
        guard frames > 0 else { throw ValidationError("--frames must be positive") }
        guard pairGap > 0 else { throw ValidationError("--pair-gap must be positive") }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        var walks: [TrackingWalk] = []
        if let recorded = try recording.recorded(limit: frames) {
            let walk = TrackingWalk(recorded: recorded)
            walks = [walk]
            if withoutGravity, walk.hasGravity {
                var depthAlone = walk
                depthAlone.usesGravity = false
                walks.append(depthAlone)
            }
        } else {
            walks = seed.map {
                var walk = TrackingWalk(seed: $0, frames: frames)
                walk.accelerometer = imu.noise
                return walk
            }
        }
        var reports: [TrackingBenchReport] = []
        for (number, walk) in walks.enumerated() {
            var configuration = CameraTracker.Configuration()
            configuration.registersAgainstFusedSurface = fusedSurface
            configuration.calibratesDepth = !withoutDepthCalibration
            var (report, poses) = try BenchTracking.trackPlaneKit(walk, configuration: configuration, perFrame: perFrame && !json)
            if let trajectory {
                let path = trajectory.split(separator: "{walk}", omittingEmptySubsequences: false).joined(separator: String(number + 1))
                do {
                    try FileBytes.write(Array(BenchTracking.tumTrajectory(poses, timestamps: walk.recordedTimes).utf8), to: path)
                } catch {
                    Diagnostics.warn(error.description)
                    throw ExitCode(1)
                }
            }
            let open3dPoses = noOpen3d ? nil : try compareWithOpen3D(walk, planeKit: poses, report: &report)
            if checkReference {
                report.referenceCheck = try ReferenceCheck(walk: walk, estimated: poses, open3d: open3dPoses, gap: pairGap)
            }
            reports.append(report)
            if !json { print(report.line) }
        }
        if !json, let summary = TrackingBenchReport.summary(of: reports) { print(summary) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        }
    }

    /// Tracks every frame of `walk` without its pose; with `perFrame`, prints each frame's
    /// position error and tracking state. A recorded frame that cannot be read is one warning
    /// and is left out (of the tracking and of the error; its pose in the returned list, one
    /// per frame of the walk, is `nil`).
    static func trackPlaneKit(_ walk: TrackingWalk, configuration: CameraTracker.Configuration, perFrame: Bool = false) throws
        -> (TrackingBenchReport, [Transform?]) {
        var tracker = CameraTracker(configuration: configuration)
        var workspace = RenderWorkspace()
        var estimated: [Transform] = [], reference: [Transform] = [], times: [Double] = [], timestamps: [Double] = []
        var limited = 0, lost = 0
        var states: [TrackingState] = [], tracked: [Int] = []
        var poses = [Transform?](repeating: nil, count: walk.count)
        var qualities: [CameraTracker.RegistrationQuality?] = []
        for index in 0..<walk.count {
            let frame: TrackingWalk.Frame
            do {
                frame = try walk.frame(index, workspace: &workspace)
            } catch {
                Diagnostics.warn("\(walk.name) frame \(index): \(error); left out")
                continue
            }
            let start = ContinuousClock.now
            let estimate = tracker.track(frame: frame.cloud, intrinsics: frame.intrinsics, gravity: frame.gravity,
                                         acceleration: frame.acceleration, timestamp: frame.timestamp)
            times.append((ContinuousClock.now - start).milliseconds)
            // A session detects planes in every frame anyway; a new keyframe takes them (not
            // timed) and may move with them, as the frame does in a stream.
            try tracker.refineKeyframe(frame: frame.cloud, intrinsics: frame.intrinsics)
            let pose = tracker.estimate.transform
            estimated.append(pose)
            poses[index] = pose
            reference.append(frame.reference)
            timestamps.append(frame.timestamp)
            states.append(estimate.tracking)
            qualities.append(tracker.latestRegistration)
            tracked.append(index)
            if estimate.tracking != .normal { limited += 1 }
            if estimate.tracking == .limited(.relocalizing) { lost += 1 }
        }
        let error = TrajectoryError(estimated: estimated, reference: reference)
        let drift = RelativePoseError(estimated: estimated, reference: reference, timestamps: timestamps)
        if perFrame, let offsets = TrajectoryError.positionErrors(estimated: estimated, reference: reference) {
            for (index, (offset, (state, quality))) in zip(tracked, zip(offsets, zip(states, qualities))) {
                let registration = quality.map {
                    CFormat.string(", inliers %.2f, residual %.2f mm, conditioning %.4f", $0.inlierFraction, $0.residual * 1000, $0.conditioning)
                } ?? ""
                print("\(walk.name) frame \(index): " + CFormat.string("error %.2f cm (%+.2f, %+.2f, %+.2f)", length(offset) * 100,
                                                                        offset.x * 100, offset.y * 100, offset.z * 100)
                      + ", tracking \(state.name)" + (state.reason.map { " (\($0.rawValue))" } ?? "") + registration)
            }
        }
        let report = TrackingBenchReport(walk: walk.name + (walk.hasGravity ? (walk.usesGravity ? " (gravity)" : " (depth alone)") : "")
                                           + (configuration.registersAgainstFusedSurface ? " (fused surface)" : "")
                                           + (configuration.calibratesDepth ? "" : " (no depth calibration)"),
                                         frames: estimated.count, keyframes: tracker.keyframeCount,
                                         medianMilliseconds: BenchTimer.median(times),
                                         meanMilliseconds: times.isEmpty ? .nan : times.reduce(0, +) / Double(times.count),
                                         rmse: error?.rmse ?? .nan,
                                         maximumError: error?.maximum ?? .nan, rigidFitRMSE: error?.rigidFitRMSE ?? .nan,
                                         relativeError: drift.map(RelativeErrorFigures.init), notNormal: limited, relocalizing: lost)
        return (report, poses)
    }

    /// `poses` (world from camera, `nil` for a frame not tracked) as a TUM RGB-D trajectory file:
    /// one line per pose, `timestamp tx ty tz qx qy qz qw`.
    static func tumTrajectory(_ poses: [Transform?], timestamps: [Double]) -> String {
        var text = ""
        for (pose, time) in zip(poses, timestamps) {
            guard let pose else { continue }
            let q = pose.quaternion.normalized.vector, t = pose.translation
            text += CFormat.string("%.6f %.6f %.6f %.6f %.7f %.7f %.7f %.7f\n", time, t.x, t.y, t.z, q.x, q.y, q.z, q.w)
        }
        return text
    }

    /// Tracks `walk` with Open3D, puts its figures in `report` (with how far PlaneKit's poses
    /// `planeKit`, `nil` for a frame left out, are from Open3D's) and returns its poses.
    private func compareWithOpen3D(_ walk: TrackingWalk, planeKit: [Transform?], report: inout TrackingBenchReport) throws
        -> [Transform] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ValidationError("no Python at \(python) (run scripts/bench-tracking.sh, or pass --python)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-tracking-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var workspace = RenderWorkspace()
        let paths = try (0..<walk.count).map { try walk.depthPNG($0, folder: folder, workspace: &workspace) }
        let k = walk.intrinsics
        let manifest = Open3DTrackingManifest(
            frames: paths, depthScale: Double(walk.depthScale), voxel: 0.02, method: open3dTracking.rawValue,
            intrinsics: .init(width: k.width, height: k.height, fx: Double(k.fx), fy: Double(k.fy), cx: Double(k.cx), cy: Double(k.cy)))
        let manifestURL = folder.appendingPathComponent("manifest.json")
        try JSONEncoder().encode(manifest).write(to: manifestURL)
        let outcome = try ChildProcess.run(python, [script, manifestURL.path], overrides: ChildProcess.singleThreaded)
        guard outcome.status == 0 else { throw ValidationError("\(script) exited with status \(outcome.status)") }
        let line = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let theirs = try JSONDecoder().decode(Open3DTrackingFigures.self, from: Data(line.utf8))
        let poses = theirs.poses.compactMap { Transform(columnMajor: $0, tolerance: 1e-2) }
        guard poses.count == walk.count else { throw ValidationError("Open3D gave \(poses.count) poses for \(walk.count) frames") }
        let error = TrajectoryError(estimated: poses, reference: walk.referencePoses())
        report.open3dVersion = theirs.open3d
        report.open3dMethod = open3dTracking.summary
        report.open3dMedianMilliseconds = theirs.medianSeconds * 1000
        report.open3dRMSE = error?.rmse
        report.open3dMaximumError = error?.maximum
        report.open3dRigidFitRMSE = error?.rigidFitRMSE
        report.open3dRelativeError = RelativePoseError(estimated: poses, reference: walk.referencePoses(), timestamps: walk.recordedTimes)
            .map(RelativeErrorFigures.init)
        let both = zip(planeKit, poses).compactMap { ours, theirs in ours.map { ($0, theirs) } }
        let apart = TrajectoryError(estimated: both.map(\.0), reference: both.map(\.1))
        report.planeKitToOpen3DRMSE = apart?.rmse
        report.planeKitToOpen3DRigidFitRMSE = apart?.rigidFitRMSE
        return poses
    }
}

/// How Open3D tracks the walk it is compared on.
enum Open3DTracking: String, ExpressibleByArgument, CaseIterable {
    case frameToFrame = "frame-to-frame"
    case frameToModel = "frame-to-model"

    /// What the report calls it.
    var summary: String {
        switch self {
        case .frameToFrame: "point-to-plane ICP (2 cm voxels, frame to frame)"
        case .frameToModel: "dense SLAM (5.8 mm TSDF, frame to model)"
        }
    }
}

/// The accelerometer given to generated walks.
enum IMUChoice: String, ExpressibleByArgument, CaseIterable {
    case none, calibrated, ideal

    /// Its noise, `nil` for none.
    var noise: SyntheticSequence.AccelerometerNoise? {
        switch self {
        case .none: nil
        case .calibrated: .calibrated
        case .ideal: .ideal
        }
    }
}

/// A walk's relative pose error over one second, as reported (cm and degrees).
struct RelativeErrorFigures: Encodable {
    let translationCentimetres: Float
    let rotationDegrees: Float

    init(_ error: RelativePoseError) {
        translationCentimetres = error.translationRMSE * 100
        rotationDegrees = error.rotationRMSE * 180 / .pi
    }

    /// "RPE over 1 s X cm, Y°", or "no RPE" for a walk shorter than a second.
    static func text(_ figures: RelativeErrorFigures?) -> String {
        figures.map { CFormat.string("RPE over 1 s %.2f cm, %.2f°", $0.translationCentimetres, $0.rotationDegrees) } ?? "no RPE (under 1 s)"
    }
}

/// What the Open3D script prints.
private struct Open3DTrackingFigures: Decodable {
    let open3d: String
    let medianSeconds: Double
    let poses: [[Float]]
}

/// One walk's figures.
struct TrackingBenchReport: Encodable {
    let walk: String
    let frames: Int
    let keyframes: Int
    let medianMilliseconds: Double
    /// The mean time of `track()`: with the frames that make a keyframe, the budget per frame.
    let meanMilliseconds: Double
    let rmse: Float
    let maximumError: Float
    let rigidFitRMSE: Float
    /// The relative pose error over one second.
    let relativeError: RelativeErrorFigures?
    let notNormal: Int
    let relocalizing: Int
    var open3dVersion: String?
    var open3dMethod: String?
    var open3dMedianMilliseconds: Double?
    var open3dRMSE: Float?
    var open3dMaximumError: Float?
    var open3dRigidFitRMSE: Float?
    var open3dRelativeError: RelativeErrorFigures?
    /// How far PlaneKit's track is from Open3D's (m), after aligning the first frame and after
    /// the best rigid fit: two trackers' disagreement, to set beside each one's from the
    /// reference (which is a tracker's estimate too).
    var planeKitToOpen3DRMSE: Float?, planeKitToOpen3DRigidFitRMSE: Float?
    var referenceCheck: ReferenceCheck?

    /// One line of the table.
    var line: String {
        var text = "\(walk): " + CFormat.string("%d frames, PlaneKit %.2f ms/frame (mean %.2f), RMSE %.2f cm (max %.2f cm) after aligning the first frame, %.2f cm after the best rigid fit, ",
                                                 frames, medianMilliseconds, meanMilliseconds, rmse * 100, maximumError * 100, rigidFitRMSE * 100)
            + RelativeErrorFigures.text(relativeError)
            + CFormat.string(", %d keyframes, %d frames not normal (%d relocalizing)", keyframes, notNormal, relocalizing)
        if let open3dMedianMilliseconds, let open3dRMSE, let open3dMaximumError {
            text += "; Open3D \(open3dVersion ?? "?") \(open3dMethod ?? "?") "
                + CFormat.string("%.1f ms/frame, RMSE %.2f cm (max %.2f cm), %.2f cm after the best rigid fit, ", open3dMedianMilliseconds,
                                 open3dRMSE * 100, open3dMaximumError * 100, (open3dRigidFitRMSE ?? .nan) * 100)
                + RelativeErrorFigures.text(open3dRelativeError)
            if let planeKitToOpen3DRMSE, let planeKitToOpen3DRigidFitRMSE {
                text += CFormat.string("; PlaneKit's track %.2f cm from Open3D's (%.2f cm after the best rigid fit)",
                                       planeKitToOpen3DRMSE * 100, planeKitToOpen3DRigidFitRMSE * 100)
            }
        }
        if let referenceCheck { text += "\n" + referenceCheck.line }
        return text
    }

    /// For several walks, the median and the worst RMSE (after aligning the first frame) and
    /// how many walks lost the track (some frame relocalizing): one walk's figure moves by
    /// centimetres with how a bare-wall stretch happens to be crossed, so a change is judged on
    /// many walks. `nil` for fewer than two.
    static func summary(of reports: [TrackingBenchReport]) -> String? {
        guard reports.count >= 2 else { return nil }
        let sorted = reports.sorted { $0.rmse < $1.rmse }
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle].rmse : (sorted[middle - 1].rmse + sorted[middle].rmse) / 2
        let worst = sorted[sorted.count - 1]
        let lost = reports.filter { $0.relocalizing > 0 }.count
        return "\(reports.count) walks: " + CFormat.string("median RMSE %.2f cm, worst %.2f cm (", median * 100, worst.rmse * 100)
            + "\(worst.walk)), \(lost) lost the track"
    }
}

/// What the Open3D tracking script reads (scripts/bench_open3d_tracking.py): the frames' depth
/// PNGs, their scale, the voxel size and the intrinsics.
private struct Open3DTrackingManifest: Encodable {
    /// The camera's intrinsics.
    struct Intrinsics: Encodable {
        let width: Int
        let height: Int
        let fx: Double
        let fy: Double
        let cx: Double
        let cy: Double
    }

    let frames: [String]
    let depthScale: Double
    let voxel: Double
    /// `frame-to-frame` or `frame-to-model` (``Open3DTracking``).
    let method: String
    let intrinsics: Intrinsics
}

/// `bench tracking --check-reference`: how well a walk's reference poses agree with its own
/// depth, next to PlaneKit's estimates and direct registrations of the same frame pairs
/// (``DepthAgreement``).
struct ReferenceCheck: Encodable {
    /// Frame pairs compared and the frames between the two of a pair.
    let pairs: Int, gap: Int
    /// Median over the pairs of each pair's median point-to-plane residual (m): under the
    /// reference's relative pose, under PlaneKit's, under the direct registration's.
    let referenceResidual: Float, planeKitResidual: Float, directResidual: Float
    /// Mean over the pairs of the rotation (radians) and translation (m) between the reference's
    /// relative pose and the direct one, and between PlaneKit's and the direct one.
    let referenceTurn: Float, referenceShift: Float, planeKitTurn: Float, planeKitShift: Float
    /// The pair whose reference relative pose is furthest from the direct registration's (by
    /// its translation), where the reference is least to be trusted: its frames, and how far
    /// the reference's and PlaneKit's relative poses are from the direct one there (radians, m).
    let worstPair: PairOffsets
    /// Where the reference's poses put the floor seen in the pairs' first frames: its tilt from
    /// the reference's up and its height; `nil` when the walk gives no gravity (a recorded walk
    /// derives it from its reference poses) or no such frame shows a floor.
    let floor: FloorCheck?

    /// How far one pair's relative poses, the reference's and PlaneKit's, are from the direct
    /// registration of the pair (radians, m).
    struct PairOffsets: Encodable {
        let from: Int, to: Int
        let referenceTurn: Float, referenceShift: Float, planeKitTurn: Float, planeKitShift: Float
    }

    /// The floor detected in a frame's depth (``CameraTracker/floor(in:)``) under the
    /// reference's pose of the frame, over the frames that show a floor. A floor is flat and
    /// level, so a perfect reference would put it at one tilt and one height in every frame. A
    /// depth camera's distortion tilts the floor it sees by a degree or two and moves it by a
    /// centimetre or so, depending on where in the image and how far away it is seen; a tilt or
    /// height that changes by more than that along a walk is the reference's. The floor's height
    /// under the trackers' poses (each put on the reference at the first frame) is measured
    /// alike: Open3D's knows nothing of floors or gravity, while PlaneKit's puts its keyframes
    /// level on the floor they see.
    struct FloorCheck: Encodable {
        /// One frame's floor (or the table or counter it sees instead): the angle between its
        /// normal and the reference's up (radians), and the height of its centroid along that up
        /// in the reference's world (m) under the reference's pose, PlaneKit's and Open3D's.
        struct Frame: Encodable {
            let frame: Int, tilt: Float, height: Float, planeKitHeight: Float?, open3dHeight: Float?
        }

        /// The smallest, median and largest of a figure over the frames, and the frames of the
        /// smallest and the largest.
        struct Spread: Encodable {
            let smallest: Float, median: Float, largest: Float, smallestFrame: Int, largestFrame: Int
            /// `largest − smallest`.
            var range: Float { largest - smallest }

            /// The spread of `value` over the `frames` that have one; `nil` when none has.
            init?(_ frames: [Frame], _ value: (Frame) -> Float?) {
                let sorted = frames.compactMap { frame in value(frame).map { (frame: frame.frame, value: $0) } }
                    .sorted { $0.value < $1.value }
                guard let first = sorted.first, let last = sorted.last else { return nil }
                smallest = first.value
                median = sorted[sorted.count / 2].value
                largest = last.value
                smallestFrame = first.frame
                largestFrame = last.frame
            }
        }

        /// A floor more than this (m) above the lowest one seen under the reference's poses is
        /// another surface facing up (a table, a counter), left out of the heights.
        static let sameFloorTolerance: Float = 0.15

        /// Every frame that showed a floor, in order.
        let frames: [Frame]
        /// The tilt over `frames`.
        let tilt: Spread
        /// The height under the reference's poses over the frames whose floor is the lowest
        /// seen (within ``sameFloorTolerance`` of it): the floor itself.
        let height: Spread
        /// The height under PlaneKit's and Open3D's poses over the same frames.
        let planeKitHeight: Spread?, open3dHeight: Spread?
        /// How many frames the heights are over.
        let heightFrames: Int

        /// The figures over `frames`; `nil` when it is empty.
        init?(_ frames: [Frame]) {
            guard let lowest = frames.map(\.height).min(), let tilt = Spread(frames, \.tilt) else { return nil }
            let sameFloor = frames.filter { $0.height - lowest <= Self.sameFloorTolerance }
            guard let height = Spread(sameFloor, \.height) else { return nil }
            self.frames = frames
            self.tilt = tilt
            self.height = height
            planeKitHeight = Spread(sameFloor, \.planeKitHeight)
            open3dHeight = Spread(sameFloor, \.open3dHeight)
            heightFrames = sameFloor.count
        }

        /// The floor of `frame` (number `index`), when the frame gives gravity and shows a floor
        /// (a frame whose planes cannot be detected shows none), under its reference pose and
        /// under PlaneKit's and Open3D's poses of it in the reference's world.
        static func floor(in frame: TrackingWalk.Frame, index: Int, planeKit: Transform?, open3d: Transform?) -> Frame? {
            guard let gravity = frame.gravity else { return nil }
            var cloud = frame.cloud
            cloud.intrinsics = frame.intrinsics
            guard let detection = try? OrganizedPlaneDetector().detect(in: cloud),
                  let floor = CameraTracker.floor(in: detection),
                  let worldUp = frame.reference.apply(toDirection: -gravity).normalized else { return nil }
            let up = floor.normal.y < 0 ? floor.normal : -floor.normal
            func height(under pose: Transform) -> Float { dot(pose.apply(toPoint: floor.centroid), worldUp) }
            return Frame(frame: index, tilt: up.angle(to: -gravity), height: height(under: frame.reference),
                         planeKitHeight: planeKit.map(height(under:)), open3dHeight: open3d.map(height(under:)))
        }
    }

    /// The check over `walk`'s pairs (i, i + `gap`), every `gap` frames, with PlaneKit's poses
    /// `estimated` (one per frame of the walk, `nil` where a frame was left out) and Open3D's
    /// (one per frame), when it ran.
    init(walk: TrackingWalk, estimated: [Transform?], open3d: [Transform]?, gap: Int) throws {
        // The trackers' poses in the reference's world, put on it at their first frame.
        let references = walk.referencePoses()
        func onReference(_ poses: [Transform?]) -> [Transform?] {
            guard let first = poses.indices.first(where: { poses[$0] != nil }), let start = poses[first] else { return poses }
            let alignment = references[first] * start.inverse
            return poses.map { $0.map { alignment * $0 } }
        }
        let planeKitPoses = onReference(estimated), open3dPoses = open3d.map { onReference($0) }
        var workspace = RenderWorkspace()
        var residuals: (reference: [Float], planeKit: [Float], direct: [Float]) = ([], [], [])
        var turns: (reference: Float, planeKit: Float) = (0, 0), shifts: (reference: Float, planeKit: Float) = (0, 0)
        var worst: PairOffsets?
        var floors: [FloorCheck.Frame] = []
        for i in stride(from: 0, to: walk.count - gap, by: gap) {
            guard let from = estimated[i], let to = estimated[i + gap] else { continue }
            let earlier = try walk.frame(i, workspace: &workspace), later = try walk.frame(i + gap, workspace: &workspace)
            if let floor = FloorCheck.floor(in: earlier, index: i, planeKit: planeKitPoses[i], open3d: open3dPoses?[i]) {
                floors.append(floor)
            }
            let agreement = DepthAgreement(earlier: earlier.cloud, later: later.cloud, intrinsics: walk.intrinsics)
            // Re-orthonormalised: the files' rotations are rigid only to a few decimals.
            let recorded = earlier.reference.inverse * later.reference
            let reference = Transform(rotation: Quaternion(recorded.rotation).normalized, translation: recorded.translation)
            let planeKit = from.inverse * to
            guard let direct = agreement.registered(from: reference),
                  let underReference = agreement.medianResidual(at: reference),
                  let underPlaneKit = agreement.medianResidual(at: planeKit),
                  let underDirect = agreement.medianResidual(at: direct) else { continue }
            residuals.reference.append(underReference.median)
            residuals.planeKit.append(underPlaneKit.median)
            residuals.direct.append(underDirect.median)
            let offReference = reference.inverse * direct, offPlaneKit = planeKit.inverse * direct
            let pair = PairOffsets(from: i, to: i + gap,
                                   referenceTurn: Quaternion(offReference.rotation).angle,
                                   referenceShift: length(offReference.translation),
                                   planeKitTurn: Quaternion(offPlaneKit.rotation).angle,
                                   planeKitShift: length(offPlaneKit.translation))
            turns.reference += pair.referenceTurn
            shifts.reference += pair.referenceShift
            turns.planeKit += pair.planeKitTurn
            shifts.planeKit += pair.planeKitShift
            if pair.referenceShift > worst?.referenceShift ?? -1 { worst = pair }
        }
        guard !residuals.direct.isEmpty, let worst else {
            throw ValidationError("--check-reference: no frame pair could be registered")
        }
        worstPair = worst
        floor = FloorCheck(floors)
        func median(_ values: [Float]) -> Float { values.sorted()[values.count / 2] }
        pairs = residuals.direct.count
        self.gap = gap
        referenceResidual = median(residuals.reference)
        planeKitResidual = median(residuals.planeKit)
        directResidual = median(residuals.direct)
        let count = Float(pairs)
        referenceTurn = turns.reference / count
        referenceShift = shifts.reference / count
        planeKitTurn = turns.planeKit / count
        planeKitShift = shifts.planeKit / count
    }

    /// The report's line.
    var line: String {
        CFormat.string("  reference check, %d frame pairs %d apart: median point-to-plane residual %.2f mm under the reference's relative poses, %.2f mm under PlaneKit's, %.2f mm under direct registration; relative poses off the direct ones by %.2f° / %.2f cm (reference), %.2f° / %.2f cm (PlaneKit) on average",
                       pairs, gap, referenceResidual * 1000, planeKitResidual * 1000, directResidual * 1000,
                       referenceTurn * 180 / .pi, referenceShift * 100, planeKitTurn * 180 / .pi, planeKitShift * 100)
            + CFormat.string("; furthest, frames %d to %d: %.2f° / %.2f cm (reference), %.2f° / %.2f cm (PlaneKit)",
                             worstPair.from, worstPair.to, worstPair.referenceTurn * 180 / .pi,
                             worstPair.referenceShift * 100, worstPair.planeKitTurn * 180 / .pi,
                             worstPair.planeKitShift * 100)
            + (floor.map {
                CFormat.string("; the floor, seen in %d of the pairs' first frames, lies %.2f° to %.2f° (median %.2f°) from the reference's up, the most in frame %d",
                               $0.frames.count, $0.tilt.smallest * 180 / .pi, $0.tilt.largest * 180 / .pi,
                               $0.tilt.median * 180 / .pi, $0.tilt.largestFrame)
                    + CFormat.string(", and the reference's poses put it %.2f cm higher in frame %d than in frame %d (over %d frames",
                                     $0.height.range * 100, $0.height.largestFrame, $0.height.smallestFrame, $0.heightFrames)
                    + ($0.planeKitHeight.map { CFormat.string("; %.2f cm under PlaneKit's poses", $0.range * 100) } ?? "")
                    + ($0.open3dHeight.map { CFormat.string(", %.2f cm under Open3D's", $0.range * 100) } ?? "") + ")"
            } ?? "")
    }
}
