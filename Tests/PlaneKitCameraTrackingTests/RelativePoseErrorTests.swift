import PlaneKitGeometry
import Testing
@testable import PlaneKitCameraTracking

/// The relative pose error on constructed paths, where the answer is known.
struct RelativePoseErrorTests {
    /// A walk along +X at 0.5 m/s turning 10°/s about +Y, sampled at 30 Hz.
    static func walk(seconds: Double = 4) -> (poses: [Transform], times: [Double]) {
        let times = (0..<Int(seconds * 30)).map { Double($0) / 30 }
        let poses = times.map { t in
            Transform(rotation: Quaternion(angle: Float(t) * 10 * .pi / 180, axis: SIMD3(0, 1, 0)).matrix,
                      translation: SIMD3(Float(t) * 0.5, 0, 0))
        }
        return (poses, times)
    }

    @Test func aPathAgainstItselfHasNone() throws {
        let (poses, times) = Self.walk()
        let error = try #require(RelativePoseError(estimated: poses, reference: poses, timestamps: times))
        #expect(error.translationRMSE < 1e-5 && error.rotationRMSE < 1e-5)
        // Every pose with a pose a second later: 4 s at 30 Hz leaves 3 s of first poses.
        #expect(error.pairs == 90)
    }

    /// A path that moves 10 % short drifts by 5 cm a second, and one that turns 9° a second for
    /// 10 by 1° a second, wherever the walk started: a rigid move of the whole path adds nothing.
    @Test func shortMotionShowsAsDriftPerSecond() throws {
        let (truth, times) = Self.walk()
        let offset = Transform(rotation: Quaternion(angle: 0.7, axis: SIMD3(0, 0, 1)).matrix, translation: SIMD3(3, -2, 1))
        func path(degreesPerSecond: Float, metresPerSecond: Float) -> [Transform] {
            times.map { t in
                offset * Transform(rotation: Quaternion(angle: Float(t) * degreesPerSecond * .pi / 180, axis: SIMD3(0, 1, 0)).matrix,
                                   translation: SIMD3(Float(t) * metresPerSecond, 0, 0))
            }
        }
        let short = try #require(RelativePoseError(estimated: path(degreesPerSecond: 10, metresPerSecond: 0.45), reference: truth,
                                                   timestamps: times))
        #expect(abs(short.translationRMSE - 0.05) < 1e-4)
        #expect(short.rotationRMSE * 180 / .pi < 0.01)
        let turning = try #require(RelativePoseError(estimated: path(degreesPerSecond: 9, metresPerSecond: 0), reference:
                                                        path(degreesPerSecond: 10, metresPerSecond: 0), timestamps: times))
        #expect(abs(turning.rotationRMSE * 180 / .pi - 1) < 0.01)
        #expect(turning.translationRMSE < 1e-4)
    }

    /// One pose a degree off its neighbours is a jump the absolute error hardly sees: it shows
    /// in the error over one frame.
    @Test func aSingleOutlyingPoseShowsOverOneFrame() throws {
        let (truth, times) = Self.walk()
        var jumped = truth
        jumped[60] = Transform(rotation: Quaternion(angle: .pi / 180, axis: SIMD3(1, 0, 0)).matrix * truth[60].rotation,
                               translation: truth[60].translation)
        let frame = try #require(RelativePoseError(estimated: jumped, reference: truth, timestamps: times, interval: 1.0 / 30))
        // Each pose against the next: two pairs (59–60 and 60–61) of 119 are turned by 1°.
        #expect(abs(frame.rotationRMSE * 180 / .pi - (2.0 / 119).squareRoot()) < 0.01)
    }

    /// A reference rotation rigid only to a few decimals (as 7-Scenes writes them) is not a turn.
    @Test func anAlmostRigidReferenceIsNoError() throws {
        let (truth, times) = Self.walk()
        let loose = truth.map { pose in
            var rotation = pose.rotation
            rotation.columns.0 *= 1.0002
            return Transform(rotation: rotation, translation: pose.translation)
        }
        let error = try #require(RelativePoseError(estimated: truth, reference: loose, timestamps: times))
        #expect(error.rotationRMSE * 180 / .pi < 0.01)
    }

    @Test func mismatchedOrTooShortInputGivesNone() {
        let (poses, times) = Self.walk(seconds: 0.5)
        #expect(RelativePoseError(estimated: poses, reference: poses, timestamps: times) == nil)
        #expect(RelativePoseError(estimated: poses, reference: Array(poses.dropLast()), timestamps: times) == nil)
        #expect(RelativePoseError(estimated: poses, reference: poses, timestamps: times, interval: .nan) == nil)
    }
}
