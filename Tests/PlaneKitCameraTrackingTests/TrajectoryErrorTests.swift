import Foundation
import PlaneKitGeometry
import PlaneKitCameraTracking
import Testing

/// The two trajectory errors: after aligning the first pose, and after the best rigid fit.
@Suite struct TrajectoryErrorTests {
    /// A helix of 100 poses.
    static let reference: [Transform] = (0..<100).map { i in
        let t = Float(i) * 0.1
        return Transform(rotation: Quaternion(angle: t * 0.3, axis: SIMD3(0, 1, 0)).matrix,
                         translation: SIMD3(cosf(t), 0.05 * t, sinf(t)))
    }

    @Test func aRigidlyMovedPathFitsExactly() throws {
        let motion = Transform(rotation: Quaternion(angle: 2, axis: normalize(SIMD3(1, 2, 3))).matrix, translation: SIMD3(4, -1, 2))
        let error = try #require(TrajectoryError(estimated: Self.reference.map { motion * $0 }, reference: Self.reference))
        #expect(error.rmse < 1e-4)
        #expect(error.rigidFitRMSE < 1e-4)
    }

    /// A first pose off by 1° of heading: the first-frame alignment swings the whole path by it
    /// (centimetres a metre away); the rigid fit takes the swing out and charges only the one
    /// pose that is off.
    @Test func theRigidFitForgivesAWrongStart() throws {
        var estimated = Self.reference
        estimated[0].rotation = Quaternion(angle: .pi / 180, axis: SIMD3(0, 1, 0)).matrix * estimated[0].rotation
        let error = try #require(TrajectoryError(estimated: estimated, reference: Self.reference))
        #expect(error.rmse > 0.01)
        #expect(error.rigidFitRMSE < 1e-4)
    }

    /// Positions 1 cm too far along +X: the first-frame alignment removes it, the fit too.
    @Test func bothRemoveAConstantOffset() throws {
        let shifted = Self.reference.map { Transform(rotation: $0.rotation, translation: $0.translation + SIMD3(0.01, 0, 0)) }
        let error = try #require(TrajectoryError(estimated: shifted, reference: Self.reference))
        #expect(error.rmse < 1e-4)
        #expect(error.rigidFitRMSE < 1e-4)
    }
}
