import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport
import PlaneKitCameraTracking
import Testing
import PlaneKitCloudIO

/// Camera tracking on real Kinect depth: the three consecutive frames of PCL's test data
/// (`../shared/data/pcl/depth/`, raw 16-bit TIFFs with their intrinsics, 0 = no reading, about
/// 0.25 s apart, the camera moving by millimetres and a fraction of a degree between them).
///
/// No reference poses come with them, so the tests check what must hold whatever the true motion
/// was, each on the sensor's own noise, holes and quantised depth:
/// - a known motion added to a real frame (its points seen from a camera moved by it) is found on
///   top of what the frame itself tracks to;
/// - tracking frame 1 after frame 0 and frame 0 after frame 1 give inverse motions;
/// - the motions from frame 0 to 1 and from 1 to 2 add up to the motion from 0 to 2.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl beside the repository"))
struct RealKinectTrackingTests {
    /// The frames, their intrinsics and their capture times (from the file names, relative to the first).
    static let frames: [(cloud: PointCloud, intrinsics: PinholeIntrinsics, time: Double)] = {
        let names = ["frame_20121214T142255.814212", "frame_20121214T142256.068683", "frame_20121214T142256.332395"]
        let seconds = [55.814212, 56.068683, 56.332395]
        return zip(names, seconds).compactMap { name, second in
            guard let (image, intrinsics, _) = try? DepthImageReader.read(path: SharedData.path("pcl/depth/\(name)_depth.tiff")),
                  let intrinsics else { return nil }
            var cloud = image.pointCloud(intrinsics: intrinsics)
            cloud.intrinsics = intrinsics
            return (cloud, intrinsics, second - seconds[0])
        }
    }()

    /// Tracks `sequence` (clouds with intrinsics and times) without poses, refining each new
    /// keyframe with its frame's planes as a session does; returns every frame's pose relative to
    /// the first frame's camera, and the states.
    static func track(_ sequence: [(cloud: PointCloud, intrinsics: PinholeIntrinsics, time: Double)]) throws
        -> (relative: [Transform], states: [TrackingState]) {
        var tracker = CameraTracker()
        var poses: [Transform] = [], states: [TrackingState] = []
        for frame in sequence {
            let estimate = tracker.track(frame: frame.cloud, intrinsics: frame.intrinsics, timestamp: frame.time)
            try tracker.refineKeyframe(frame: frame.cloud, intrinsics: frame.intrinsics)
            poses.append(tracker.estimate.transform)
            states.append(estimate.tracking)
        }
        let first = poses[0].inverse
        return (poses.map { first * $0 }, states)
    }

    /// `cloud`'s measured points as the camera moved by `motion` (old-camera-from-new-camera)
    /// sees them: each point goes to the pixel it projects to, the nearest wins, and pixels no
    /// point reaches are holes. The points keep their real noise and quantisation.
    static func seen(_ cloud: PointCloud, intrinsics k: PinholeIntrinsics, from motion: Transform) throws -> PointCloud {
        let toNew = motion.inverse
        let w = cloud.width, h = cloud.height
        var points = ContiguousArray<SIMD3<Float>>(repeating: SIMD3(.nan, .nan, .nan), count: w * h)
        for p in cloud.points where p.z > 0 && p.x.isFinite && p.y.isFinite {
            let q = toNew.apply(toPoint: p)
            guard q.z > 0 else { continue }
            let u = Int((k.fx * q.x / q.z + k.cx).rounded()), v = Int((k.fy * q.y / q.z + k.cy).rounded())
            guard u >= 0, v >= 0, u < w, v < h else { continue }
            let i = v * w + u
            if !(points[i].z <= q.z) { points[i] = q }
        }
        var moved = try PointCloud(width: w, height: h, points: points)
        moved.intrinsics = k
        return moved
    }

    /// Position (m) and angle (radians) between two poses.
    static func difference(_ a: Transform, _ b: Transform) -> (position: Float, angle: Float) {
        (distance(a.translation, b.translation), Quaternion(a.rotation * b.rotation.transposed).angle)
    }

    /// Motions added to frame 1 (old-camera-from-new-camera): sideways with a turn, forward and
    /// down with a tilt, and a larger step back with a turn about an oblique axis.
    static let addedMotions: [Transform] = [
        Transform(rotation: Quaternion(angle: 2 * .pi / 180, axis: SIMD3(0, 1, 0)), translation: SIMD3(0.03, 0, 0)),
        Transform(rotation: Quaternion(angle: 3 * .pi / 180, axis: SIMD3(1, 0, 0)), translation: SIMD3(0, 0.02, 0.04)),
        Transform(rotation: Quaternion(angle: 5 * .pi / 180, axis: SIMD3(1, 1, 0.5).normalized!),
                  translation: SIMD3(-0.04, 0.01, -0.08)),
    ]

    @Test(arguments: addedMotions.indices)
    func aKnownMotionOnTopOfARealFrameIsFound(_ index: Int) throws {
        try #require(Self.frames.count == 3)
        let motion = Self.addedMotions[index]
        let (first, second) = (Self.frames[0], Self.frames[1])
        let plain = try Self.track([first, second])
        let moved = try Self.seen(second.cloud, intrinsics: second.intrinsics, from: motion)
        let withMotion = try Self.track([first, (moved, second.intrinsics, second.time)])
        // The moved camera is where frame 1's camera is, moved by `motion`.
        let expected = plain.relative[1] * motion
        let (position, angle) = Self.difference(withMotion.relative[1], expected)
        print("real Kinect frame 1 moved by motion \(index): off by \(position * 1000) mm, \(angle * 180 / .pi)°")
        #expect(plain.states[1] == .normal)
        #expect(withMotion.states[1] == .normal)
        #expect(position <= 0.001)
        #expect(angle <= 0.1 * .pi / 180)
    }

    @Test func trackingBackwardsGivesTheInverseMotion() throws {
        try #require(Self.frames.count == 3)
        let (first, second) = (Self.frames[0], Self.frames[1])
        let forwards = try Self.track([first, second])
        let backwards = try Self.track([(second.cloud, second.intrinsics, first.time), (first.cloud, first.intrinsics, second.time)])
        let (position, angle) = Self.difference(forwards.relative[1] * backwards.relative[1], .identity)
        let step = Self.difference(forwards.relative[1], .identity)
        print("real Kinect frames 0 → 1: \(step.position * 1000) mm, \(step.angle * 180 / .pi)°; "
              + "forwards then backwards off by \(position * 1000) mm, \(angle * 180 / .pi)°")
        #expect(forwards.states[1] == .normal)
        #expect(backwards.states[1] == .normal)
        // The frames differ by a real motion, not by nothing.
        #expect(step.position >= 0.003)
        #expect(position <= 0.0015)
        #expect(angle <= 0.1 * .pi / 180)
    }

    @Test func motionsThroughTheMiddleFrameAddUp() throws {
        try #require(Self.frames.count == 3)
        // Each pair on its own: the first frame of each is the keyframe the second registers to.
        let firstStep = try Self.track([Self.frames[0], Self.frames[1]])
        let secondStep = try Self.track([Self.frames[1], Self.frames[2]])
        let direct = try Self.track([Self.frames[0], Self.frames[2]])
        let (position, angle) = Self.difference(firstStep.relative[1] * secondStep.relative[1], direct.relative[1])
        print("real Kinect frames 0 → 1 → 2 against 0 → 2: off by \(position * 1000) mm, \(angle * 180 / .pi)°")
        #expect([firstStep.states[1], secondStep.states[1], direct.states[1]].allSatisfy { $0 == .normal })
        #expect(position <= 0.0015)
        #expect(angle <= 0.1 * .pi / 180)
    }
}
