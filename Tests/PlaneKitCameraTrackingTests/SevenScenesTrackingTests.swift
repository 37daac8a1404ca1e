import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport
import PlaneKitCameraTracking
import Testing
import PlaneKitCloudIO

/// Camera tracking on the first five seconds (frames 0–149) of the development split of a real
/// Kinect walk (7-Scenes "redkitchen", `../shared/data/7scenes-redkitchen-dev`: the sensor's
/// holes, 65 535 readings, quantised and distorted depth), against the walk's reference poses
/// (KinectFusion's, themselves off the depth by millimetres to centimetres) and against the depth
/// itself. The tracker was tuned on these frames; frames 500–999 are held out and never read.
@Suite(.enabled(if: SevenScenesDev.isAvailable, "needs ../shared/data/7scenes-redkitchen-dev beside the repository"))
struct SevenScenesTrackingTests {
    static let frames = 150

    /// Tracks frames 0–149 without their poses (with each frame's gravity from the reference
    /// rotation when `gravity`), each new keyframe refined with its frame's planes as a session
    /// does; returns the estimates, states and reference poses.
    static func track(gravity: Bool, frames: Int = frames, configuration: CameraTracker.Configuration = .init()) throws
        -> (poses: [Transform], states: [TrackingState], reference: [Transform]) {
        try trackWithTracker(gravity: gravity, frames: frames, configuration: configuration).result
    }

    /// ``track(gravity:frames:configuration:)``, with the tracker as it ended.
    static func trackWithTracker(gravity: Bool, frames: Int = frames, configuration: CameraTracker.Configuration = .init()) throws
        -> (result: (poses: [Transform], states: [TrackingState], reference: [Transform]), tracker: CameraTracker) {
        let down = try SevenScenesDev.gravity()
        var tracker = CameraTracker(configuration: configuration)
        var poses: [Transform] = [], states: [TrackingState] = [], reference: [Transform] = []
        for index in 0..<frames {
            let cloud = try SevenScenesDev.cloud(index), truth = try SevenScenesDev.pose(index)
            let estimate = tracker.track(frame: cloud, intrinsics: SevenScenesDev.intrinsics,
                                         gravity: gravity ? truth.rotation.transposed * down : nil, timestamp: Double(index) / 30)
            // A new keyframe levelled on its floor moves the frame with it, as a stream reports it.
            try tracker.refineKeyframe(frame: cloud, intrinsics: SevenScenesDev.intrinsics)
            poses.append(tracker.estimate.transform)
            states.append(estimate.tracking)
            reference.append(truth)
        }
        return ((poses, states, reference), tracker)
    }

    /// Measured: 3.82 cm (max 7.83) with gravity, 5.52 cm (max 10.9) from depth alone, 1.17 and
    /// 1.31 cm after the best rigid fit; one frame (the first) not `normal`.
    @Test func tracksFiveSecondsAgainstTheReference() throws {
        for (gravity, firstAligned) in [(true, Float(0.045)), (false, Float(0.06))] {
            let (poses, states, reference) = try Self.track(gravity: gravity)
            let error = try #require(TrajectoryError(estimated: poses, reference: reference))
            let label = gravity ? "with gravity" : "depth alone"
            print("7-Scenes dev frames 0–149 \(label): RMSE \(error.rmse * 100) cm after aligning the first frame (max \(error.maximum * 100) cm), \(error.rigidFitRMSE * 100) cm after the best rigid fit; \(states.filter { $0 != .normal }.count) frames not normal")
            #expect(error.rmse <= firstAligned)
            #expect(error.rigidFitRMSE <= 0.015)
            #expect(states.dropFirst().allSatisfy { $0 == .normal })
            #expect(!states.contains(.limited(.relocalizing)))
        }
    }

    /// Registering against the fused surface instead of the nearest keyframe, over the first ten
    /// seconds, both without the depth correction (which the fused surface does not yet carry
    /// over to what it fused before a correction was learned). Measured: 5.08 cm (2.02 cm after
    /// the best rigid fit), against 4.64 cm (1.72 cm) with keyframes, each new one registered
    /// against the oldest keyframe that sees its surfaces too; 7.09 cm (3.39 cm) with keyframes
    /// registered against the one before alone. Each stays within its bounds.
    @Test func theFusedSurfaceAndKeyframesTrackTheFirstTenSeconds() throws {
        var keyframes = CameraTracker.Configuration()
        keyframes.calibratesDepth = false
        var fused = keyframes
        fused.registersAgainstFusedSurface = true
        var errors: [TrajectoryError] = []
        for configuration in [fused, keyframes] {
            let (poses, states, reference) = try Self.track(gravity: true, frames: 300, configuration: configuration)
            let error = try #require(TrajectoryError(estimated: poses, reference: reference))
            print("7-Scenes dev frames 0–299, \(configuration.registersAgainstFusedSurface ? "fused surface" : "keyframes"): RMSE \(error.rmse * 100) cm after aligning the first frame, \(error.rigidFitRMSE * 100) cm after the best rigid fit")
            #expect(states.dropFirst().allSatisfy { $0 == .normal })
            errors.append(error)
        }
        #expect(errors[0].rmse <= 0.055)
        #expect(errors[0].rigidFitRMSE <= 0.023)
        #expect(errors[1].rmse <= 0.05)
        #expect(errors[1].rigidFitRMSE <= 0.02)
    }

    /// The tracker learns the Kinect's fixed-pattern depth error from the walk as it tracks it
    /// (from frame 180 or so, after 24 pairs of views) and corrects the frames after, over the
    /// first ten seconds. Measured with gravity: 4.27 cm after aligning the first frame and
    /// 1.50 cm after the best rigid fit, against 4.64 and 1.72 cm without the correction; the
    /// learned correction reaches 1.2 % of the depth. (Over all 500 dev frames the gap is wider:
    /// 4.87 against 5.95 cm.)
    @Test func correctingTheDepthPatternDriftsLess() throws {
        var uncorrected = CameraTracker.Configuration()
        uncorrected.calibratesDepth = false
        let (corrected, tracker) = try Self.trackWithTracker(gravity: true, frames: 300)
        let plain = try Self.track(gravity: true, frames: 300, configuration: uncorrected)
        let with = try #require(TrajectoryError(estimated: corrected.poses, reference: corrected.reference))
        let without = try #require(TrajectoryError(estimated: plain.poses, reference: plain.reference))
        let largest = tracker.depthCorrection?.largestCorrection ?? 0
        print("7-Scenes dev frames 0–299: with the learned depth correction (largest \(largest * 100) %) \(with.rmse * 100) cm, \(with.rigidFitRMSE * 100) cm after the best rigid fit; without \(without.rmse * 100) cm, \(without.rigidFitRMSE * 100) cm")
        #expect(largest >= 0.005 && largest <= 0.03)
        #expect(with.rmse <= 0.05)
        #expect(with.rigidFitRMSE <= 0.02)
        #expect(with.rmse <= without.rmse - 0.002)
        #expect(with.rigidFitRMSE <= without.rigidFitRMSE - 0.001)
        #expect(corrected.states.dropFirst().allSatisfy { $0 == .normal })
    }

    /// The reference-free check: over frame pairs 10 apart, PlaneKit's relative poses put the
    /// later frame's points on the earlier frame's surface at least as closely as the
    /// reference's do (the reference is off its own depth by more than the sensor's noise).
    /// Measured: 3.91 mm under the reference, 3.87 mm under PlaneKit, 3.19 mm under direct
    /// registration of each pair.
    @Test func relativePosesAgreeWithTheDepth() throws {
        let (poses, _, reference) = try Self.track(gravity: false)
        var underReference: [Float] = [], underPlaneKit: [Float] = [], underDirect: [Float] = []
        for i in stride(from: 0, to: Self.frames - 10, by: 10) {
            let agreement = DepthAgreement(earlier: try SevenScenesDev.cloud(i), later: try SevenScenesDev.cloud(i + 10),
                                           intrinsics: SevenScenesDev.intrinsics)
            let referenceMotion = reference[i].inverse * reference[i + 10]
            let direct = try #require(agreement.registered(from: referenceMotion))
            underReference.append(try #require(agreement.medianResidual(at: referenceMotion)).median)
            underPlaneKit.append(try #require(agreement.medianResidual(at: poses[i].inverse * poses[i + 10])).median)
            underDirect.append(try #require(agreement.medianResidual(at: direct)).median)
        }
        func median(_ values: [Float]) -> Float { values.sorted()[values.count / 2] }
        print("7-Scenes dev pairs (i, i+10), i = 0…130: median residual \(median(underReference) * 1000) mm under the reference, \(median(underPlaneKit) * 1000) mm under PlaneKit, \(median(underDirect) * 1000) mm under direct registration")
        #expect(median(underDirect) <= median(underReference))
        #expect(median(underPlaneKit) <= 0.004)
        #expect(median(underPlaneKit) < median(underReference))
    }
}
