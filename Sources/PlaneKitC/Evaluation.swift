import CPlaneKit
import PlaneKitSynthesis
import PlaneKitEvaluation

/// Hoover et al.'s scores of a label image against ground truth, as `planekit evaluate` gives them.
@_cdecl("planekit_evaluate")
public func planekitEvaluate(_ detected: UnsafePointer<UInt16>?, _ truth: UnsafePointer<UInt16>?, _ width: Int64, _ height: Int64,
                             _ threshold: Double, _ minPixels: Int64, _ points: UnsafePointer<Float>?, _ pointStride: Int64,
                             _ out: UnsafeMutablePointer<planekit_evaluation>?) -> planekit_status {
    reportingStatus {
        let out = try required(out, "out")
        let detected = try required(detected, "detected"), truth = try required(truth, "truth")
        let count = try gridCount(width: width, height: height)
        guard threshold >= 0.5, threshold <= 1 else { throw APIFailure.invalid("threshold must be from 0.5 to 1, got \(threshold)") }
        guard minPixels >= 1 else { throw APIFailure.invalid("min_pixels must be at least 1, got \(minPixels)") }
        var cloud: ContiguousArray<SIMD3<Float>>?
        if let points {
            guard (3...64).contains(pointStride) else { throw APIFailure.invalid("point_stride must be 3 … 64 floats, got \(pointStride)") }
            let stride = Int(pointStride)
            cloud = ContiguousArray((0..<count).map { i in SIMD3(points[i * stride], points[i * stride + 1], points[i * stride + 2]) })
        }
        let evaluation = try HooverEvaluation(
            detected: ContiguousArray(UnsafeBufferPointer(start: detected, count: count)),
            truth: ContiguousArray(UnsafeBufferPointer(start: truth, count: count)),
            width: Int(width), height: Int(height), threshold: threshold, minimumTruePixels: Int(minPixels), points: cloud)
        let errors = evaluation.orientationErrors.compactMap { $0 }
        out.pointee = planekit_evaluation(
            threshold: threshold, true_regions: Int64(evaluation.trueCount), detected_regions: Int64(evaluation.detectedCount),
            correct: Int64(evaluation.correct.count), over_segmented: Int64(evaluation.overSegmentations.count),
            under_segmented: Int64(evaluation.underSegmentations.count), missed: Int64(evaluation.missedLabels.count),
            noise: Int64(evaluation.noiseLabels.count), recall: evaluation.recall, precision: evaluation.precision,
            mean_orientation_error: errors.isEmpty ? .nan : Double(errors.reduce(0, +)) / Double(errors.count))
    }
}
