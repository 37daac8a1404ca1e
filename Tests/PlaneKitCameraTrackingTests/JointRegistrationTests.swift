import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSeededRandom
import PlaneKitTestSupport
@testable import PlaneKitCameraTracking
import Testing

/// Registering one frame against several keyframes at once (`DepthRegistration.register(toAll:)`),
/// on a real Kinect frame (PCL's test data): the equations carried from a keyframe's coordinates
/// to the frame's describe the same motion; with one keyframe it finds what the single
/// registration finds; with two that disagree within the noise it settles half way, and one far
/// off pulls only a little (the robust weights).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl beside the repository"))
struct JointRegistrationTests {
    /// Where the keyframe's camera is in the world: away from the origin, so that the world and
    /// the camera's coordinates differ and the equations must be carried from one to the other.
    static let keyframePose = Transform(rotation: Quaternion(angle: 0.4, axis: normalize(SIMD3<Float>(0.1, 1, 0.2))),
                                        translation: SIMD3(1.5, 0.3, -2))
    /// The frame's motion from the keyframe: about what a hand-held camera moves in a frame.
    static let motion = Transform(rotation: Quaternion(angle: 0.01, axis: normalize(SIMD3<Float>(0.2, 1, 0.1))),
                                  translation: SIMD3(0.01, -0.004, 0.006))

    /// A keyframe of the real frame at `pose`, and the registration sampled on the frame seen
    /// after ``motion``.
    static func setUp(poses: [Transform]) throws -> (keyframes: [DepthKeyframe], registration: DepthRegistration) {
        let frame = try #require(RealKinectTrackingTests.frames.first)
        let keyframes = poses.map { pose in
            frame.cloud.points.withUnsafeBufferPointer { points in
                DepthKeyframe(points: points, width: frame.cloud.width, height: frame.cloud.height,
                              intrinsics: frame.intrinsics, pose: pose, frame: 0)
            }
        }
        let moved = try RealKinectTrackingTests.seen(frame.cloud, intrinsics: frame.intrinsics, from: motion)
        var registration = DepthRegistration()
        moved.points.withUnsafeBufferPointer { registration.sample(points: $0, width: moved.width, height: moved.height) }
        return (keyframes, registration)
    }

    @Test func oneKeyframeGivesTheSingleRegistrationsPose() throws {
        let (keyframes, registration) = try Self.setUp(poses: [Self.keyframePose])
        let truth = Self.keyframePose * Self.motion
        let single = Self.keyframePose * registration.register(to: keyframes[0], initial: .identity).transform
        // From 5 mm and 0.3° off, as the tracker starts it from a pose registered against one keyframe.
        let start = single * Transform(rotation: Quaternion(angle: 0.3 * .pi / 180, axis: SIMD3(1, 0, 0)), translation: SIMD3(0.003, 0.004, 0))
        let joint = try #require(registration.register(toAll: keyframes, initial: start, iterations: 10))
        let apart = single.inverse * joint, off = truth.inverse * joint
        let singleOff = truth.inverse * single
        print("one keyframe: the single registration \(length(singleOff.translation) * 1000) mm, \(singleOff.rotationAngle * 180 / .pi)° from the truth")
        #expect(length(singleOff.translation) < 0.001)
        print("one keyframe: joint \(length(apart.translation) * 1000) mm, \(apart.rotationAngle * 180 / .pi)° from the single "
              + "registration, \(length(off.translation) * 1000) mm from the truth")
        #expect(length(apart.translation) < 0.0005)
        #expect(apart.rotationAngle < 0.02 * .pi / 180)
        #expect(length(off.translation) < 0.001)
    }

    @Test func equationsCarriedThroughATransformDescribeTheSameMotion() {
        // Point-to-plane terms in a keyframe's coordinates give the step ξ′ of exp(ξ′)·T; carried
        // through T = (R, p), with a lever arm of 1.4 m, they must give the step ξ of T·exp(ξ)
        // for the same motion: T·exp(ξ) = exp(ξ′)·T up to the second order of the small step.
        let relative = Transform(rotation: Quaternion(angle: 0.5, axis: normalize(SIMD3<Float>(0.3, 1, -0.2))),
                                 translation: SIMD3(0.5, -0.3, 1.2))
        var random = SeededRandom(seed: 7)
        func uniform(_ range: ClosedRange<Float>) -> Float {
            range.lowerBound + Float(random.next() >> 40) / Float(1 << 24) * (range.upperBound - range.lowerBound)
        }
        var block = PoseTermSums(), keyframeSide = PoseNormalEquations()
        for _ in 0..<200 {
            let point = SIMD3<Float>(uniform(-1...1), uniform(-0.8...0.8), uniform(0.8...3))
            let normal = normalize(SIMD3<Float>(uniform(-1...1), uniform(-1...1), uniform(-1...1)))
            block.add(point: point, normal: normal, residual: uniform(-0.004...0.004), weight: 1)
        }
        block.flush(into: &keyframeSide)
        var frameSide = PoseNormalEquations()
        frameSide.add(keyframeSide, through: relative)
        guard let left = keyframeSide.solve(prior: 0), let right = frameSide.solve(prior: 0) else {
            Issue.record("the equations did not solve")
            return
        }
        let byLeft = Transform.twist(rotation: left.rotation, translation: left.translation) * relative
        let byRight = relative * Transform.twist(rotation: right.rotation, translation: right.translation)
        let apart = byLeft.inverse * byRight
        let step = length(left.translation) + length(left.rotation)
        print("carried equations: step \(step * 1000) (mm + mrad); the two motions \(length(apart.translation) * 1e6) µm, "
              + "\(apart.rotationAngle * 1e6) µrad apart")
        #expect(step > 0.001)
        #expect(length(apart.translation) < 2e-5)
        #expect(apart.rotationAngle < 2e-5)
    }

    /// Two keyframes of the same view whose poses disagree by `offset`: the frame registered
    /// against the second alone, then against both from there. Returns how far each lands from
    /// the truth (the first keyframe's answer).
    static func disagreement(_ offset: Transform) throws -> (alone: Transform, joint: Transform) {
        let (keyframes, registration) = try setUp(poses: [keyframePose, keyframePose * offset])
        let truth = keyframePose * motion
        let alone = keyframes[1].pose * registration.register(to: keyframes[1], initial: .identity).transform
        let joint = try #require(registration.register(toAll: keyframes, initial: alone, iterations: 10))
        return (truth.inverse * alone, truth.inverse * joint)
    }

    @Test func twoKeyframesThatDisagreeWithinTheNoiseGiveTheirCompromise() throws {
        // 4 mm and 0.2° apart, within the depth noise at 1–2 m: least squares over both
        // keyframes' pairs lands half way.
        let (alone, joint) = try Self.disagreement(Transform(rotation: Quaternion(angle: 0.2 * .pi / 180, axis: SIMD3(0, 1, 0)),
                                                             translation: SIMD3(0.004, 0, 0)))
        print("two keyframes 4 mm, 0.2° apart: alone \(length(alone.translation) * 1000) mm, \(alone.rotationAngle * 180 / .pi)° "
              + "off; joint \(length(joint.translation) * 1000) mm, \(joint.rotationAngle * 180 / .pi)° off")
        #expect(abs(length(alone.translation) - 0.004) < 0.0005)
        #expect(abs(length(joint.translation) - 0.002) < 0.0005)
        #expect(abs(joint.rotationAngle - 0.1 * .pi / 180) < 0.03 * .pi / 180)
    }

    @Test func aKeyframeFarOffPullsOnlyGently() throws {
        // 2 cm and 0.5° apart, several times the noise: the robust weights let the far
        // keyframe's pairs pull the pose by a little, not to the middle.
        let (alone, joint) = try Self.disagreement(Transform(rotation: Quaternion(angle: 0.5 * .pi / 180, axis: SIMD3(0, 1, 0)),
                                                             translation: SIMD3(0.02, 0, 0)))
        let pulled = length(alone.translation) - length(joint.translation)
        print("two keyframes 2 cm, 0.5° apart: alone \(length(alone.translation) * 1000) mm off; the joint registration "
              + "moves \(pulled * 1000) mm toward the other")
        #expect(abs(length(alone.translation) - 0.02) < 0.001)
        #expect(pulled > 0.0002 && pulled < 0.005)
    }
}
