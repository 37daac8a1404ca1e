import PlaneKitGeometry
import PlaneKitInput
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compares a detected label image with the ground truth using the correct-detection rule of
/// Hoover et al., "An experimental comparison of range image segmentation algorithms" (1996).
///
/// Both images are row-major, `width × height`, 0 meaning "no plane". A true plane `m` with `M`
/// pixels and a detected region `n` with `N` pixels, overlapping in `O` pixels, are a *correct
/// detection* when `O ≥ T·M` and `O ≥ T·N` (T = 0.8 by default). For T > 0.5 a region can be in at
/// most one such pair; for smaller T a pair only counts when neither region has another candidate.
///
/// - Only true planes with at least ``minimumTruePixels`` pixels are counted ("true planes").
/// - A detected region with at least half of its pixels on true planes smaller than that is
///   ignored: it neither counts as a detection nor as a false one, since it found something real
///   that the evaluation chose not to grade. Every other detected region counts, including one
///   lying on non-planar clutter or on no-depth pixels (a false detection).
/// - recall = correct detections / true planes; precision = correct detections / counted
///   detected regions. With nothing to count, each is 1 (nothing was missed, nothing was wrong).
public struct SegmentationScore: Sendable, Hashable, Codable {
    /// A correct detection: a true plane and the detected region that recovers it.
    public struct Match: Sendable, Hashable, Codable {
        /// The true plane's label.
        public var trueLabel: UInt16
        /// The detected region's label.
        public var detectedLabel: UInt16
        /// Pixels of the true plane.
        public var truePixels: Int
        /// Pixels of the detected region.
        public var detectedPixels: Int
        /// Pixels in both.
        public var overlap: Int

        /// Creates a match from its parts.
        public init(trueLabel: UInt16, detectedLabel: UInt16, truePixels: Int, detectedPixels: Int, overlap: Int) {
            self.trueLabel = trueLabel
            self.detectedLabel = detectedLabel
            self.truePixels = truePixels
            self.detectedPixels = detectedPixels
            self.overlap = overlap
        }
    }

    /// The overlap fraction T.
    public let threshold: Double
    /// Smallest true plane (pixels) that is graded.
    public let minimumTruePixels: Int
    /// The correct detections, in increasing true label.
    public let matches: [Match]
    /// Labels of the graded true planes (≥ ``minimumTruePixels`` pixels), increasing.
    public let trueLabels: [UInt16]
    /// Labels of the counted detected regions (not ignored), increasing.
    public let detectedLabels: [UInt16]
    /// Labels of the detected regions ignored because they lie mostly on small true planes.
    public let ignoredDetectedLabels: [UInt16]

    /// Graded true planes without a correct detection.
    public var missedTrueLabels: [UInt16] {
        let found = Set(matches.map(\.trueLabel))
        return trueLabels.filter { !found.contains($0) }
    }

    /// Counted detected regions that are not a correct detection.
    public var falseDetectedLabels: [UInt16] {
        let correct = Set(matches.map(\.detectedLabel))
        return detectedLabels.filter { !correct.contains($0) }
    }

    /// Correct detections / graded true planes (1 when there are none).
    public var recall: Double {
        trueLabels.isEmpty ? 1 : Double(matches.count) / Double(trueLabels.count)
    }

    /// Correct detections / counted detected regions (1 when there are none).
    public var precision: Double {
        detectedLabels.isEmpty ? 1 : Double(matches.count) / Double(detectedLabels.count)
    }

    /// Scores `detected` against `truth`, or an error when either image does not have
    /// `width × height` labels or `threshold` is not in (0, 1].
    public init(detected: ContiguousArray<UInt16>, truth: ContiguousArray<UInt16>, width: Int, height: Int,
                minimumTruePixels: Int = 3000, threshold: Double = 0.8) throws(InputError) {
        let overlap = try LabelOverlap(detected: detected, truth: truth, width: width, height: height,
                                       source: "segmentation score")
        guard threshold > 0, threshold <= 1 else {
            throw InputError(source: "segmentation score", problem: "overlap threshold \(threshold) is not in (0, 1]")
        }
        self.threshold = threshold
        self.minimumTruePixels = minimumTruePixels
        let graded = GradedRegions(overlap, minimumTruePixels: minimumTruePixels)
        matches = graded.correctDetections(overlap, threshold: threshold)
        trueLabels = graded.trueLabels
        detectedLabels = graded.detectedLabels
        ignoredDetectedLabels = graded.ignoredDetectedLabels
    }

    /// The angle in degrees between the detected and the true normal of each match, in the
    /// order of ``matches``. `detectedNormals[k − 1]` is detected region `k`'s normal (the order
    /// of `PlaneDetectionResult.planes`) and `trueNormals[id − 1]` true plane `id`'s (the order of
    /// `SyntheticFrame.cameraNormals`). The angle is between the planes, ignoring which way the
    /// normals point (0…90°); NaN where a normal is missing or zero.
    public func angularErrorsDegrees(detectedNormals: [SIMD3<Float>], trueNormals: [SIMD3<Float>]) -> [Float] {
        matches.map { m in
            let d = Int(m.detectedLabel) - 1, t = Int(m.trueLabel) - 1
            guard detectedNormals.indices.contains(d), trueNormals.indices.contains(t),
                  let a = detectedNormals[d].normalized, let b = trueNormals[t].normalized else { return .nan }
            return SegmentationScore.angleDegrees(a, b)
        }
    }

    /// The angle in degrees between the planes with unit normals `a` and `b`, ignoring which
    /// way they point (0…90°).
    static func angleDegrees(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        atan2f(cross(a, b).length, abs(dot(a, b))) * 180 / .pi
    }

    /// The median of the finite values (mean of the middle two for an even count), or `nil` when
    /// there is none.
    public static func median(_ values: [Float]) -> Float? {
        let finite = values.filter(\.isFinite).sorted()
        guard !finite.isEmpty else { return nil }
        let mid = finite.count / 2
        return finite.count % 2 == 1 ? finite[mid] : (finite[mid - 1] + finite[mid]) / 2
    }
}
