import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitEvaluation

/// The detector against PlaneKitSynthesis' generated rooms (ray-cast depth frames with the
/// Kinect noise model and true plane labels), scored the Hoover way: a detected region matches a
/// true plane when each covers at least 80% of the other; true planes under 3000 pixels are not
/// graded.
@Suite struct SyntheticSceneAccuracyTests {
    static let seeds: [UInt64] = Array(1...12)

    @Test func recallPrecisionAndNormalsOverGeneratedRooms() throws {
        let detector = OrganizedPlaneDetector()
        var graded = 0, detected = 0, matched = 0
        var errors: [Float] = []
        for seed in Self.seeds {
            let frame = SyntheticFrame(seed: seed)
            let result = try detector.detect(in: frame.cloud)
            let score = try SegmentationScore(detected: result.labels, truth: frame.labels,
                                              width: frame.width, height: frame.height)
            graded += score.trueLabels.count
            detected += score.detectedLabels.count
            matched += score.matches.count
            let trueNormals = frame.cameraNormals
            let frameErrors = score.angularErrorsDegrees(detectedNormals: result.planes.map(\.normal), trueNormals: trueNormals)
            errors += frameErrors
            print("seed \(seed): \(score.matches.count) of \(score.trueLabels.count) true planes matched, "
                  + "\(score.detectedLabels.count) detected, missed \(score.missedTrueLabels), false \(score.falseDetectedLabels), "
                  + "median error \(SegmentationScore.median(frameErrors) ?? .nan)°")
        }
        let recall = Double(matched) / Double(max(graded, 1))
        let precision = Double(matched) / Double(max(detected, 1))
        let median = SegmentationScore.median(errors) ?? .infinity
        print("synthetic rooms: recall \(recall), precision \(precision), median normal error \(median)° over \(Self.seeds.count) frames")
        #expect(graded >= 3 * Self.seeds.count, "too few graded planes (\(graded)) for the figures to mean anything")
        #expect(recall >= 0.95)
        #expect(precision >= 0.95)
        #expect(median <= 0.5)
    }
}
