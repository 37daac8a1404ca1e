import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport
@testable import PlaneKitCameraTracking
import Testing

/// The fused surface on a real Kinect frame (PCL's test data): what it renders lies on the
/// measured surface, and a frame registered against the rendering finds a known motion as a
/// keyframe of the frame itself would.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl beside the repository"))
struct FusedSurfaceTests {
    /// Frame 0 of the real frames, fused at a pose away from the origin (so world and camera differ).
    static let pose = Transform(rotation: Quaternion(angle: 0.3, axis: SIMD3(0, 1, 0)), translation: SIMD3(0.5, 0.2, -1))

    static func fused() throws -> (surface: FusedSurface, frame: PointCloud, intrinsics: PinholeIntrinsics) {
        let frame = try #require(RealKinectTrackingTests.frames.first)
        var surface = FusedSurface()
        frame.cloud.points.withUnsafeBufferPointer { points in
            let view = DepthKeyframe(points: points, width: frame.cloud.width, height: frame.cloud.height,
                                     intrinsics: frame.intrinsics, pose: pose, frame: 0, reduction: 8, radius: 1)
            surface.integrate(view, pose: pose, noiseA: 0.001, noiseB: 0.002)
        }
        return (surface, frame.cloud, frame.intrinsics)
    }

    @Test func renderingLiesOnTheMeasuredSurface() throws {
        let (surface, frame, intrinsics) = try Self.fused()
        let view = surface.render(at: Self.pose, intrinsics: intrinsics, reduction: 4, frame: 0, noiseA: 0.001, noiseB: 0.002)
        var registration = DepthRegistration()
        frame.points.withUnsafeBufferPointer { registration.sample(points: $0, width: frame.width, height: frame.height) }
        let residual = try #require(registration.medianResidual(to: view, transform: .identity, distance: 0.05))
        print("fused surface: \(surface.count) surfels, \(view.validCount) of \(view.width * view.height) cells drawn, "
              + "median residual of the frame \(residual.median * 1000) mm over \(residual.pairs) pairs")
        // The frame's own depth noise at 1–2 m is about 1–3 mm.
        #expect(residual.median < 0.0015)
        #expect(view.validCount * 10 >= view.width * view.height * 7)
        #expect(residual.pairs * 10 >= registration.sampleCount * 8)
    }

    @Test func aKnownMotionIsFoundAgainstTheRendering() throws {
        let (surface, frame, intrinsics) = try Self.fused()
        let view = surface.render(at: Self.pose, intrinsics: intrinsics, reduction: 4, frame: 0, noiseA: 0.001, noiseB: 0.002)
        let motion = Transform(rotation: Quaternion(angle: 0.03, axis: normalize(SIMD3<Float>(0.2, 1, 0.1))),
                               translation: SIMD3(0.04, -0.01, 0.02))
        let moved = try RealKinectTrackingTests.seen(frame, intrinsics: intrinsics, from: motion)
        var registration = DepthRegistration()
        moved.points.withUnsafeBufferPointer { registration.sample(points: $0, width: moved.width, height: moved.height) }
        let result = registration.register(to: view, initial: .identity)
        let error = motion.inverse * result.transform
        print("known motion against the fused surface: \(length(error.translation) * 1000) mm, "
              + "\(error.rotationAngle * 180 / .pi)°, inliers \(result.inlierFraction)")
        #expect(length(error.translation) < 0.001)
        #expect(error.rotationAngle < 0.05 * .pi / 180)
        #expect(result.inlierFraction > 0.8)
    }
}
