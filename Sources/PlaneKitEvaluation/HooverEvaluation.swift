import PlaneKitGeometry
import PlaneKitInput

/// The full evaluation of a segmentation against its ground truth by Hoover et al., "An
/// experimental comparison of range image segmentation algorithms" (PAMI 1996): every region
/// is a correct detection, part of an over- or under-segmentation, missed, or noise.
///
/// For a true (ground-truth) region `m` of `M` pixels, a detected segment `n` of `N` pixels,
/// `O` pixels in both, and the threshold T (0.5 ≤ T ≤ 1, 0.8 by default):
/// - *correct detection*: `O ≥ T·M` and `O ≥ T·N`;
/// - *over-segmentation*: `m` and two or more segments `nᵢ` with `Oᵢ ≥ T·Nᵢ` each and `ΣOᵢ ≥ T·M`;
/// - *under-segmentation*: `n` and two or more true regions `mᵢ` with `Oᵢ ≥ T·Mᵢ` each and `ΣOᵢ ≥ T·N`;
/// - *missed*: a true region in none of these; *noise*: a segment in none of these.
///
/// A region takes part in at most one classification: correct detections first, then
/// over-segmentations, then under-segmentations (for T > 0.5 no region can qualify for two; at
/// exactly 0.5 ties go to the lower label). Label 0 is "no region" in both images. True regions
/// below ``minimumTruePixels`` are left out, and so is a segment lying at least half on them, as
/// in ``SegmentationScore``.
public struct HooverEvaluation: Sendable, Hashable, Codable {
    /// Regions of one image grouped under a region of the other: a true region and the segments
    /// it was split into (over-segmentation), or a segment and the true regions it merges
    /// (under-segmentation).
    public struct Group: Sendable, Hashable, Codable {
        /// The true region split (over-segmentation) or the segment merging (under-segmentation).
        public var label: UInt16
        /// The other image's regions in the group, increasing.
        public var members: [UInt16]

        /// A group from its parts.
        public init(label: UInt16, members: [UInt16]) {
            self.label = label
            self.members = members
        }
    }

    /// The overlap threshold T.
    public let threshold: Double
    /// Smallest true region (pixels) that is counted.
    public let minimumTruePixels: Int
    /// The correct detections, in increasing true label.
    public let correct: [SegmentationScore.Match]
    /// The over-segmentations: each true region split, with its segments, in increasing true label.
    public let overSegmentations: [Group]
    /// The under-segmentations: each merging segment, with its true regions, in increasing label.
    public let underSegmentations: [Group]
    /// True regions in no classification, increasing.
    public let missedLabels: [UInt16]
    /// Segments in no classification, increasing.
    public let noiseLabels: [UInt16]
    /// The counted true regions (at least ``minimumTruePixels``), increasing.
    public let trueLabels: [UInt16]
    /// The counted segments (not ignored), increasing.
    public let detectedLabels: [UInt16]
    /// Segments left out because they lie at least half on true regions too small to count.
    public let ignoredDetectedLabels: [UInt16]
    /// For each correct detection, in the order of ``correct``, the angle in degrees (0…90)
    /// between the least-squares planes of the points under the true region and under the
    /// segment; `nil` where either has too few points to fit. Empty when no points were given.
    public private(set) var orientationErrors: [Float?]
}

extension HooverEvaluation {
    /// Evaluates `detected` against `truth` (both `width × height` labels, row-major) at
    /// `threshold`, leaving out true regions below `minimumTruePixels`. With `points` (an
    /// organized cloud, one point per pixel), also measures each correct detection's
    /// orientation error. An error when a size disagrees or `threshold` is not in [0.5, 1].
    public init(detected: ContiguousArray<UInt16>, truth: ContiguousArray<UInt16>, width: Int, height: Int,
                threshold: Double = 0.8, minimumTruePixels: Int = 1,
                points: ContiguousArray<SIMD3<Float>>? = nil) throws(InputError) {
        let overlap = try LabelOverlap(detected: detected, truth: truth, width: width, height: height, source: "evaluation")
        try self.init(overlap: overlap, threshold: threshold, minimumTruePixels: minimumTruePixels)
        if let points {
            guard points.count == detected.count else {
                throw InputError(source: "evaluation", problem: "\(points.count) points for a \(width)×\(height) label image")
            }
            orientationErrors = HooverEvaluation.orientationErrors(of: correct, detected: detected, truth: truth, points: points)
        }
    }

    /// The evaluation of counted labels at one threshold (no orientation errors yet).
    init(overlap: LabelOverlap, threshold: Double, minimumTruePixels: Int) throws(InputError) {
        guard threshold >= 0.5, threshold <= 1 else {
            throw InputError(source: "evaluation", problem: "overlap threshold \(threshold) is not in [0.5, 1]")
        }
        let graded = GradedRegions(overlap, minimumTruePixels: minimumTruePixels)
        let correct = graded.correctDetections(overlap, threshold: threshold)
        var trueFree = graded.isTrueGraded, detectedFree = graded.isDetectedIgnored.map { !$0 }
        for match in correct {
            trueFree[Int(match.trueLabel)] = false
            detectedFree[Int(match.detectedLabel)] = false
        }
        let over = HooverEvaluation.groups(overlap.pairs, whole: { $0.trueLabel }, part: { $0.detectedLabel },
                                           wholeCounts: overlap.trueCounts, partCounts: overlap.detectedCounts,
                                           wholeFree: &trueFree, partFree: &detectedFree, threshold: threshold)
        let byDetected = overlap.pairs.sorted { ($0.detectedLabel, $0.trueLabel) < ($1.detectedLabel, $1.trueLabel) }
        let under = HooverEvaluation.groups(byDetected, whole: { $0.detectedLabel }, part: { $0.trueLabel },
                                            wholeCounts: overlap.detectedCounts, partCounts: overlap.trueCounts,
                                            wholeFree: &detectedFree, partFree: &trueFree, threshold: threshold)
        self.threshold = threshold
        self.minimumTruePixels = minimumTruePixels
        self.correct = correct
        overSegmentations = over
        underSegmentations = under
        missedLabels = graded.trueLabels.filter { trueFree[Int($0)] }
        noiseLabels = graded.detectedLabels.filter { detectedFree[Int($0)] }
        trueLabels = graded.trueLabels
        detectedLabels = graded.detectedLabels
        ignoredDetectedLabels = graded.ignoredDetectedLabels
        orientationErrors = []
    }

    /// The evaluations at each of `thresholds` (for example ``sweepThresholds``), counting the
    /// images once; `points` as in ``init(detected:truth:width:height:threshold:minimumTruePixels:points:)``.
    public static func sweep(detected: ContiguousArray<UInt16>, truth: ContiguousArray<UInt16>, width: Int, height: Int,
                             thresholds: [Double], minimumTruePixels: Int = 1,
                             points: ContiguousArray<SIMD3<Float>>? = nil) throws(InputError) -> [HooverEvaluation] {
        let overlap = try LabelOverlap(detected: detected, truth: truth, width: width, height: height, source: "evaluation")
        if let points, points.count != detected.count {
            throw InputError(source: "evaluation", problem: "\(points.count) points for a \(width)×\(height) label image")
        }
        var evaluations: [HooverEvaluation] = []
        for threshold in thresholds {
            var evaluation = try HooverEvaluation(overlap: overlap, threshold: threshold, minimumTruePixels: minimumTruePixels)
            if let points {
                evaluation = evaluation.with(orientationErrors: orientationErrors(of: evaluation.correct, detected: detected,
                                                                                 truth: truth, points: points))
            }
            evaluations.append(evaluation)
        }
        return evaluations
    }

    /// Hoover's curves: T = 0.50, 0.55, …, 0.95.
    public static let sweepThresholds: [Double] = (0..<10).map { 0.5 + 0.05 * Double($0) }

    /// Counted true regions.
    public var trueCount: Int { trueLabels.count }
    /// Counted segments.
    public var detectedCount: Int { detectedLabels.count }

    /// Correct detections / counted true regions (1 when there are none).
    public var recall: Double { trueLabels.isEmpty ? 1 : Double(correct.count) / Double(trueLabels.count) }

    /// Correct detections / counted segments (1 when there are none).
    public var precision: Double { detectedLabels.isEmpty ? 1 : Double(correct.count) / Double(detectedLabels.count) }

    /// This evaluation with `errors` as its orientation errors.
    func with(orientationErrors errors: [Float?]) -> HooverEvaluation {
        var copy = self
        copy.orientationErrors = errors
        return copy
    }

    /// Over- or under-segmentations: each free `whole` region (grouped in `pairs`, which are
    /// sorted by it) with the free `part` regions lying at least T on it, when there are two or
    /// more and together they cover at least T of the whole. The regions used are no longer free.
    private static func groups(_ pairs: [LabelOverlap.Pair], whole: (LabelOverlap.Pair) -> UInt16,
                               part: (LabelOverlap.Pair) -> UInt16, wholeCounts: [Int], partCounts: [Int],
                               wholeFree: inout [Bool], partFree: inout [Bool],
                               threshold: Double) -> [Group] {
        var found: [Group] = []
        var start = 0
        while start < pairs.count {
            let label = whole(pairs[start])
            var end = start
            var parts: [UInt16] = [], covered = 0
            while end < pairs.count && whole(pairs[end]) == label {
                let pair = pairs[end], member = Int(part(pair))
                if partFree[member] && Double(pair.overlap) >= threshold * Double(partCounts[member]) {
                    parts.append(UInt16(member))
                    covered += pair.overlap
                }
                end += 1
            }
            if wholeFree[Int(label)], parts.count >= 2, Double(covered) >= threshold * Double(wholeCounts[Int(label)]) {
                wholeFree[Int(label)] = false
                for member in parts { partFree[Int(member)] = false }
                found.append(Group(label: label, members: parts))
            }
            start = end
        }
        return found
    }

    /// The orientation error of each of `matches` from the points under its two regions.
    static func orientationErrors(of matches: [SegmentationScore.Match], detected: ContiguousArray<UInt16>,
                                  truth: ContiguousArray<UInt16>, points: ContiguousArray<SIMD3<Float>>) -> [Float?] {
        guard !matches.isEmpty else { return [] }
        var trueSlot = [Int](repeating: -1, count: 65536), detectedSlot = [Int](repeating: -1, count: 65536)
        for (slot, match) in matches.enumerated() {
            trueSlot[Int(match.trueLabel)] = slot
            detectedSlot[Int(match.detectedLabel)] = slot
        }
        var trueMoments = [PointMoments](repeating: PointMoments(), count: matches.count)
        var detectedMoments = trueMoments
        for i in 0..<points.count where points[i].isFinite {
            let t = trueSlot[Int(truth[i])], d = detectedSlot[Int(detected[i])]
            if t >= 0 { trueMoments[t].add(points[i]) }
            if d >= 0 { detectedMoments[d].add(points[i]) }
        }
        return zip(trueMoments, detectedMoments).map { a, b in
            guard let p = a.fit?.plane.normal, let q = b.fit?.plane.normal else { return nil }
            return SegmentationScore.angleDegrees(p, q)
        }
    }
}

extension HooverEvaluation {
    /// The sums over many images at one threshold, and the per-image averages papers print
    /// ("correct 13.4 of 15.2 per image").
    public struct Total: Sendable, Hashable, Codable {
        /// The overlap threshold T.
        public var threshold: Double
        /// Images added.
        public var images: Int
        /// Counted true regions, all images.
        public var trueRegions: Int
        /// Counted segments, all images.
        public var detectedRegions: Int
        /// Correct detections.
        public var correct: Int
        /// Over-segmentations (true regions split).
        public var overSegmented: Int
        /// Under-segmentations (segments merging true regions).
        public var underSegmented: Int
        /// Missed true regions.
        public var missed: Int
        /// Noise segments.
        public var noise: Int
        /// Every measured orientation error (degrees), all images.
        public var orientationErrors: [Float]

        /// No images yet, at `threshold`.
        public init(threshold: Double) {
            self.threshold = threshold
            (images, trueRegions, detectedRegions, correct, overSegmented, underSegmented, missed, noise) = (0, 0, 0, 0, 0, 0, 0, 0)
            orientationErrors = []
        }

        /// The total of `evaluations` (all at `threshold`).
        public init(threshold: Double, _ evaluations: [HooverEvaluation]) {
            self.init(threshold: threshold)
            for evaluation in evaluations { add(evaluation) }
        }
    }
}

extension HooverEvaluation.Total {
    /// Adds one image's evaluation.
    public mutating func add(_ evaluation: HooverEvaluation) {
        images += 1
        trueRegions += evaluation.trueLabels.count
        detectedRegions += evaluation.detectedLabels.count
        correct += evaluation.correct.count
        overSegmented += evaluation.overSegmentations.count
        underSegmented += evaluation.underSegmentations.count
        missed += evaluation.missedLabels.count
        noise += evaluation.noiseLabels.count
        orientationErrors += evaluation.orientationErrors.compactMap { $0 }
    }

    /// `count` per image (0 with no images).
    public func perImage(_ count: Int) -> Double {
        images == 0 ? 0 : Double(count) / Double(images)
    }

    /// Correct detections / true regions over all images (1 when there are none).
    public var recall: Double { trueRegions == 0 ? 1 : Double(correct) / Double(trueRegions) }

    /// Correct detections / counted segments over all images (1 when there are none).
    public var precision: Double { detectedRegions == 0 ? 1 : Double(correct) / Double(detectedRegions) }

    /// The mean orientation error in degrees (what the literature reports), or `nil` when none
    /// was measured.
    public var meanOrientationError: Float? {
        orientationErrors.isEmpty ? nil : Float(orientationErrors.reduce(0.0) { $0 + Double($1) } / Double(orientationErrors.count))
    }

    /// The median orientation error in degrees, or `nil` when none was measured.
    public var medianOrientationError: Float? { SegmentationScore.median(orientationErrors) }
}
