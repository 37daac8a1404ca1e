import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitTestSupport
import PlaneKitCameraTracking
import Testing
import PlaneKitCloudIO
import PlaneKitSyntheticWalks

/// Camera tracking from depth alone, against the generator's true poses.
@Suite struct CameraTrackerTests {
    /// Tracks the first `frames` frames of the walk of `seed` without their poses (each new
    /// keyframe refined with its frame's planes, as a session does; with `accelerometer`, each
    /// frame with its reading; `timestamp` gives frame `index`'s time; with `fusedSurface`,
    /// registered against the fused surface) and returns the estimates, the states and the true poses.
    static func track(seed: UInt64, frames: Int, accelerometer: SyntheticSequence.AccelerometerNoise? = nil,
                      fusedSurface: Bool = false,
                      timestamp: (_ index: Int, _ sequence: SyntheticSequence) -> Double = { $1.timestamp(ofFrame: $0) }) throws
        -> (poses: [Transform], states: [TrackingState], truth: [Transform]) {
        let sequence = SyntheticSequence(seed: seed, frameCount: frames)
        var configuration = CameraTracker.Configuration()
        configuration.registersAgainstFusedSurface = fusedSurface
        var tracker = CameraTracker(configuration: configuration)
        var poses: [Transform] = [], states: [TrackingState] = []
        for (index, frame) in sequence.enumerated() {
            let acceleration = accelerometer.map { sequence.accelerometerReading(ofFrame: index, noise: $0) }
            let estimate = tracker.track(frame: frame.cloud, intrinsics: frame.intrinsics, acceleration: acceleration,
                                         timestamp: timestamp(index, sequence))
            // A new keyframe levelled on its floor moves the frame with it, as a stream reports it.
            try tracker.refineKeyframe(frame: frame.cloud, intrinsics: frame.intrinsics)
            poses.append(tracker.estimate.transform)
            states.append(estimate.tracking)
        }
        return (poses, states, (0..<frames).map { sequence.pose(ofFrame: $0) })
    }

    @Test func shortWalkStaysWithinACentimetre() throws {
        let (poses, states, truth) = try Self.track(seed: 1, frames: 100)
        let error = try #require(TrajectoryError(estimated: poses, reference: truth))
        print("seed 1, 100 frames: RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm, max rotation \(error.maximumRotation * 180 / .pi)°")
        #expect(error.rmse <= 0.01)
        #expect(error.maximumRotation <= 0.5 * .pi / 180)
        #expect(states.first == .limited(.initializing))
        #expect(states.dropFirst().filter { $0 == .normal }.count >= 95)
    }

    /// The issue's goal: ≤ 1 cm RMSE over 600 generated frames. Not met yet: the generated walks
    /// spend a quarter to a third of their frames looking at a floor and a single wall, where
    /// depth leaves the slide along the wall free (the tracker says `insufficientFeatures` and
    /// keeps the predicted motion there), and drift builds up to several centimetres.
    @Test func sixHundredFrameWalkGoal() throws {
        let (poses, states, truth) = try Self.track(seed: 1, frames: 600)
        let error = try #require(TrajectoryError(estimated: poses, reference: truth))
        let free = states.filter { $0 == .limited(.insufficientFeatures) }.count
        print("seed 1, 600 frames: RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm; \(free) frames with a free direction")
        withKnownIssue("walks along a lone wall leave one translation unobservable from depth") {
            #expect(error.rmse <= 0.01)
        }
        // What is asserted today: the track is never lost and the error stays bounded.
        #expect(!states.contains(.limited(.relocalizing)))
        #expect(error.rmse <= 0.5)
        // Each keyframe is put back level on the floor: the height does not drift (1.6 cm
        // without that, from a few tenths of a degree of tilt carried from keyframe to keyframe).
        let offsets = try #require(TrajectoryError.positionErrors(estimated: poses, reference: truth))
        let vertical = offsets.map { abs($0.y) }.max() ?? .infinity
        print("seed 1, 600 frames: largest height error \(vertical * 100) cm")
        #expect(vertical <= 0.005)
    }

    /// With the accelerometer (a calibrated D435i-class IMU, as the walk's frames would carry it
    /// in `acceleration`) the track crosses the bare-wall stretches on the integrated velocity:
    /// the same walk's error falls from about 12 cm to 2 cm.
    @Test func anAccelerometerCarriesTheTrackPastBareWalls() throws {
        let (poses, states, truth) = try Self.track(seed: 1, frames: 600, accelerometer: .calibrated)
        let error = try #require(TrajectoryError(estimated: poses, reference: truth))
        print("seed 1, 600 frames with an accelerometer: RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm")
        #expect(error.rmse <= 0.025)
        #expect(error.maximum <= 0.05)
        #expect(!states.contains(.limited(.relocalizing)))
        withKnownIssue("the velocity along a bare wall is only as good as the accelerometer's learnt offset") {
            #expect(error.rmse <= 0.01)
        }
    }

    /// Seed 6's walk with the accelerometer tracks to about 1 cm (measured: 1.17 cm, max 5.5 cm).
    /// Its keyframes rest on planes detected at room scale, where a boundary pixel goes to the
    /// plane nearest by plain distance: taken along the viewing ray instead, as for the faces of
    /// objects, this walk's error was 14 cm.
    @Test func seedSixWithAnAccelerometerStaysWithinTwoCentimetres() throws {
        let (poses, states, truth) = try Self.track(seed: 6, frames: 600, accelerometer: .calibrated)
        let error = try #require(TrajectoryError(estimated: poses, reference: truth))
        print("seed 6, 600 frames with an accelerometer: RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm")
        #expect(error.rmse <= 0.02)
        #expect(error.maximum <= 0.06)
        #expect(!states.contains(.limited(.relocalizing)))
    }

    /// Against the fused surface, the bare-wall stretches are judged by the keyframe's
    /// plane-snapped normals and held at the prediction, and the surface only grows into new
    /// ground there: the same walk stays within 2.5 cm (1.59 cm; 17 cm when the surfels' own
    /// averaged normals judged them, 13.6 cm without the keyframe's judgement but growing only).
    @Test func theFusedSurfaceHoldsBareWallsAtThePrediction() throws {
        let (poses, states, truth) = try Self.track(seed: 1, frames: 600, accelerometer: .calibrated, fusedSurface: true)
        let error = try #require(TrajectoryError(estimated: poses, reference: truth))
        let free = states.filter { $0 == .limited(.insufficientFeatures) }.count
        print("seed 1, 600 frames with an accelerometer, fused surface: RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm; \(free) frames with a free direction")
        #expect(error.rmse <= 0.025)
        #expect(free >= 60)
        #expect(!states.contains(.limited(.relocalizing)))
    }

    /// Two frames a microsecond apart (a duplicated timestamp) give the accelerometer's filter
    /// nothing to learn from: it neither learns an absurd offset from them nor loses the track
    /// when the walk later passes a bare wall (frames 105–135).
    @Test func aDuplicatedTimestampDoesNotThrowTheAccelerometerOff() throws {
        // Frame 20 comes 1 µs after frame 19.
        let (poses, states, truth) = try Self.track(seed: 1, frames: 150, accelerometer: .calibrated) { index, sequence in
            index == 20 ? sequence.timestamp(ofFrame: 19) + 1e-6 : sequence.timestamp(ofFrame: index)
        }
        let error = try #require(TrajectoryError(estimated: poses, reference: truth))
        print("seed 1, 150 frames with a duplicated timestamp: RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm")
        #expect(error.maximum <= 0.02)
        #expect(!states.contains(.limited(.relocalizing)))
    }

    @Test func gravityAndFloorLevelTheWorld() throws {
        let sequence = SyntheticSequence(seed: 3, frameCount: 1)
        let frame = sequence.frame(at: 0)
        let down = frame.pose.inverse.apply(toDirection: SIMD3(0, -1, 0))
        var withGravity = CameraTracker()
        let levelled = withGravity.track(frame: frame.cloud, intrinsics: frame.intrinsics, gravity: down * 9.81, timestamp: 0)
        #expect(abs(levelled.transform.apply(toDirection: -down).y - 1) < 1e-5)
        // Without gravity, the floor in view gives up to within a degree.
        var withFloor = CameraTracker()
        let floor = withFloor.track(frame: frame.cloud, intrinsics: frame.intrinsics, timestamp: 0)
        let up = floor.transform.apply(toDirection: -down)
        print("floor levelling: up off by \(acos(min(1, up.y)) * 180 / .pi)°")
        #expect(up.y >= cos(1 * Float.pi / 180))
        #expect(withFloor.levelledUp != nil)
    }

    @Test func aLostTrackSaysSoAndComesBack() throws {
        let sequence = SyntheticSequence(seed: 1, frameCount: 40)
        let elsewhere = SyntheticSequence(seed: 77, frameCount: 1).frame(at: 0)
        var tracker = CameraTracker()
        var last = Transform.identity
        for index in 0..<30 {
            let f = sequence.frame(at: index)
            last = tracker.track(frame: f.cloud, intrinsics: f.intrinsics, timestamp: f.timestamp).transform
        }
        // Another room: the pose must not jump there.
        let away = tracker.track(frame: elsewhere.cloud, intrinsics: elsewhere.intrinsics, timestamp: 1.0)
        #expect(away.tracking != .normal)
        #expect(away.transform == last)
        // Nothing measured at all.
        let nothing = try PointCloud(width: 640, height: 480,
                                 points: ContiguousArray(repeating: SIMD3(.nan, .nan, .nan), count: 640 * 480))
        let blind = tracker.track(frame: nothing, intrinsics: .kinect(), timestamp: 1.03)
        #expect(blind.tracking.reason != nil)
        #expect(blind.transform == last)
        // Back in the mapped room: registered against its keyframes again.
        let back = sequence.frame(at: 31)
        let recovered = tracker.track(frame: back.cloud, intrinsics: back.intrinsics, timestamp: 1.07)
        #expect(recovered.tracking == .normal)
        let first = sequence.frame(at: 0)
        var fresh = CameraTracker()
        let origin = fresh.track(frame: first.cloud, intrinsics: first.intrinsics, timestamp: 0).transform
        let aligned = sequence.pose(ofFrame: 0) * origin.inverse * recovered.transform
        #expect(length(aligned.translation - sequence.pose(ofFrame: 31).translation) < 0.02)
    }

    /// A recorded walk with reference poses (TUM RGB-D layout: depth.txt, groundtruth.txt,
    /// depth/*.png at 5000 units per metre), from `PLANEKIT_TRACKING_SEQUENCE` or
    /// `../shared/data/tum/rgbd_dataset_freiburg1_xyz`. The data is not in the repository.
    static let sequencePath: String = ProcessInfo.processInfo.environment["PLANEKIT_TRACKING_SEQUENCE"]
        ?? SharedData.path("tum/rgbd_dataset_freiburg1_xyz")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: sequencePath + "/groundtruth.txt"),
                   "no recorded sequence at PLANEKIT_TRACKING_SEQUENCE or ../shared/data/tum/rgbd_dataset_freiburg1_xyz (TUM RGB-D layout); skipped"))
    func recordedWalkWithinTwoCentimetres() throws {
        func lines(_ name: String) throws -> [[Substring]] {
            try String(contentsOfFile: Self.sequencePath + "/" + name, encoding: .utf8)
                .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
        }
        let truth: [(Double, Transform)] = try lines("groundtruth.txt").compactMap { f in
            let n = f.compactMap { Double($0) }
            guard n.count == 8 else { return nil }
            let q = Quaternion(x: Float(n[4]), y: Float(n[5]), z: Float(n[6]), w: Float(n[7])).normalized
            return (n[0], Transform(rotation: q, translation: SIMD3(Float(n[1]), Float(n[2]), Float(n[3]))))
        }
        let k = PinholeIntrinsics(fx: 517.3, fy: 516.5, cx: 318.6, cy: 255.3, width: 640, height: 480)!
        var tracker = CameraTracker()
        var poses: [Transform] = [], reference: [Transform] = []
        var j = 0
        var start: Double?
        for f in try lines("depth.txt") where f.count >= 2 && poses.count < 1000 {
            guard let t = Double(f[0]) else { continue }
            while j + 1 < truth.count, abs(truth[j + 1].0 - t) <= abs(truth[j].0 - t) { j += 1 }
            guard abs(truth[j].0 - t) <= 0.02 else { continue }
            let depth = DepthImage(try DepthImageReader.readRaw(path: Self.sequencePath + "/" + f[1]), scale: 0.0002)
            let cloud = depth.pointCloud(intrinsics: k)
            start = start ?? t
            _ = tracker.track(frame: cloud, intrinsics: k, timestamp: t - start!)
            try tracker.refineKeyframe(frame: cloud, intrinsics: k)
            poses.append(tracker.estimate.transform)
            reference.append(truth[j].1)
        }
        let error = try #require(TrajectoryError(estimated: poses, reference: reference))
        print("\(Self.sequencePath): \(error.count) frames, RMSE \(error.rmse * 100) cm, max \(error.maximum * 100) cm")
        #expect(error.rmse <= 0.02)
    }
}
