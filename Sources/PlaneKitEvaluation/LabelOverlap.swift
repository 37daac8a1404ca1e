import PlaneKitInput

/// The pixel counts of two label images laid over each other: how many pixels each label has in
/// each image, and how many pixels every (true, detected) pair of labels shares. The counting
/// that ``SegmentationScore`` and ``HooverEvaluation`` both start from.
///
/// Counting makes no dictionary and no allocation per pixel: labels are counted in flat arrays,
/// then renumbered densely so that the overlaps of an image with `t` true and `d` detected labels
/// fit a flat `t × d` table (a sorted list of pair keys when that table would be too large).
struct LabelOverlap: Sendable {
    /// One (true, detected) pair of labels that share `overlap` pixels (both labels non-zero).
    typealias Pair = (trueLabel: UInt16, detectedLabel: UInt16, overlap: Int)

    /// Pixels of true label `k` at `trueCounts[k]` (65 536 entries; entry 0 is "no region").
    let trueCounts: [Int]
    /// Pixels of detected label `k` at `detectedCounts[k]` (65 536 entries).
    let detectedCounts: [Int]
    /// Every pair of non-zero labels sharing at least one pixel, in increasing (true, detected).
    let pairs: [Pair]

    /// Counts `detected` over `truth`, or an error naming `source` when either image does not
    /// have `width × height` labels.
    init(detected: ContiguousArray<UInt16>, truth: ContiguousArray<UInt16>, width: Int, height: Int,
         source: String) throws(InputError) {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height) == (detected.count, false) else {
            throw InputError(source: source, problem: "detected labels: \(detected.count) for a \(width)×\(height) image")
        }
        guard truth.count == detected.count else {
            throw InputError(source: source, problem: "true labels: \(truth.count) for a \(width)×\(height) image")
        }
        var trueCounts = [Int](repeating: 0, count: 65536), detectedCounts = [Int](repeating: 0, count: 65536)
        detected.withUnsafeBufferPointer { detected in
            truth.withUnsafeBufferPointer { truth in
                for i in 0..<detected.count {
                    trueCounts[Int(truth[i])] += 1
                    detectedCounts[Int(detected[i])] += 1
                }
            }
        }
        self.trueCounts = trueCounts
        self.detectedCounts = detectedCounts
        pairs = LabelOverlap.pairs(detected: detected, truth: truth, trueCounts: trueCounts, detectedCounts: detectedCounts)
    }

    /// The overlapping pairs, through a dense table when the labels present allow one.
    private static func pairs(detected: ContiguousArray<UInt16>, truth: ContiguousArray<UInt16>,
                              trueCounts: [Int], detectedCounts: [Int]) -> [Pair] {
        // Dense numbers 1… for the labels present, 0 for label 0 and absent labels.
        var trueIndex = [Int32](repeating: 0, count: 65536), detectedIndex = [Int32](repeating: 0, count: 65536)
        var trueLabels: [UInt16] = [0], detectedLabels: [UInt16] = [0]
        for label in 1..<65536 {
            if trueCounts[label] > 0 {
                trueIndex[label] = Int32(trueLabels.count)
                trueLabels.append(UInt16(label))
            }
            if detectedCounts[label] > 0 {
                detectedIndex[label] = Int32(detectedLabels.count)
                detectedLabels.append(UInt16(label))
            }
        }
        let columns = detectedLabels.count
        let (cells, overflow) = trueLabels.count.multipliedReportingOverflow(by: columns)
        guard !overflow, cells <= 1 << 22, detected.count < Int(Int32.max) else {
            return sortedPairs(detected: detected, truth: truth)
        }
        var table = [Int32](repeating: 0, count: trueLabels.count * columns)
        table.withUnsafeMutableBufferPointer { table in
            detected.withUnsafeBufferPointer { detected in
                truth.withUnsafeBufferPointer { truth in
                    for i in 0..<detected.count {
                        table[Int(trueIndex[Int(truth[i])]) * columns + Int(detectedIndex[Int(detected[i])])] &+= 1
                    }
                }
            }
        }
        var pairs: [Pair] = []
        for t in 1..<trueLabels.count {
            for d in 1..<columns where table[t * columns + d] > 0 {
                pairs.append((trueLabels[t], detectedLabels[d], Int(table[t * columns + d])))
            }
        }
        return pairs
    }

    /// The overlapping pairs by sorting one key per labelled pixel (for images with so many
    /// labels that a table would be too large).
    private static func sortedPairs(detected: ContiguousArray<UInt16>, truth: ContiguousArray<UInt16>) -> [Pair] {
        var keys: [UInt32] = []
        keys.reserveCapacity(detected.count)
        for i in 0..<detected.count where truth[i] != 0 && detected[i] != 0 {
            keys.append(UInt32(truth[i]) << 16 | UInt32(detected[i]))
        }
        keys.sort()
        var pairs: [Pair] = []
        var start = 0
        while start < keys.count {
            var end = start + 1
            while end < keys.count && keys[end] == keys[start] { end += 1 }
            pairs.append((UInt16(keys[start] >> 16), UInt16(keys[start] & 0xFFFF), end - start))
            start = end
        }
        return pairs
    }
}

/// Which regions an evaluation grades: true regions large enough, and detected regions that do
/// not lie mostly on true regions too small to grade.
struct GradedRegions: Sendable {
    /// `isTrueGraded[k]`: true label `k` has at least the minimum pixels (65 536 entries).
    let isTrueGraded: [Bool]
    /// `isDetectedIgnored[k]`: detected label `k` lies at least half on ungraded true regions.
    let isDetectedIgnored: [Bool]
    /// Graded true labels, increasing.
    let trueLabels: [UInt16]
    /// Counted detected labels (present and not ignored), increasing.
    let detectedLabels: [UInt16]
    /// Ignored detected labels, increasing.
    let ignoredDetectedLabels: [UInt16]

    /// The grading of `overlap` when true regions below `minimumTruePixels` (at least 1) are
    /// left out.
    init(_ overlap: LabelOverlap, minimumTruePixels: Int) {
        let minimum = max(minimumTruePixels, 1)
        let graded = overlap.trueCounts.map { $0 >= minimum }
        var onUngraded = [Int](repeating: 0, count: 65536)
        for pair in overlap.pairs where !graded[Int(pair.trueLabel)] {
            onUngraded[Int(pair.detectedLabel)] += pair.overlap
        }
        var ignored = [Bool](repeating: false, count: 65536)
        var trueLabels: [UInt16] = [], detectedLabels: [UInt16] = [], ignoredLabels: [UInt16] = []
        for label in 1..<65536 {
            if graded[label] { trueLabels.append(UInt16(label)) }
            let pixels = overlap.detectedCounts[label]
            guard pixels > 0 else { continue }
            if 2 * onUngraded[label] >= pixels {
                ignored[label] = true
                ignoredLabels.append(UInt16(label))
            } else {
                detectedLabels.append(UInt16(label))
            }
        }
        isTrueGraded = graded
        isDetectedIgnored = ignored
        self.trueLabels = trueLabels
        self.detectedLabels = detectedLabels
        ignoredDetectedLabels = ignoredLabels
    }

    /// The correct detections of Hoover et al. at `threshold`: pairs of a graded true region
    /// and a counted detected region overlapping by at least `threshold` of both. A pair counts
    /// only when it is the sole candidate of both its regions (always so for T > 0.5). In
    /// increasing true label.
    func correctDetections(_ overlap: LabelOverlap, threshold: Double) -> [SegmentationScore.Match] {
        var candidates: [SegmentationScore.Match] = []
        for pair in overlap.pairs where isTrueGraded[Int(pair.trueLabel)] && !isDetectedIgnored[Int(pair.detectedLabel)] {
            let truePixels = overlap.trueCounts[Int(pair.trueLabel)], detectedPixels = overlap.detectedCounts[Int(pair.detectedLabel)]
            if Double(pair.overlap) >= threshold * Double(truePixels) && Double(pair.overlap) >= threshold * Double(detectedPixels) {
                candidates.append(SegmentationScore.Match(trueLabel: pair.trueLabel, detectedLabel: pair.detectedLabel,
                                                          truePixels: truePixels, detectedPixels: detectedPixels, overlap: pair.overlap))
            }
        }
        var perTrue = [UInt16: Int](), perDetected = [UInt16: Int]()
        for m in candidates {
            perTrue[m.trueLabel, default: 0] += 1
            perDetected[m.detectedLabel, default: 0] += 1
        }
        return candidates.filter { perTrue[$0.trueLabel] == 1 && perDetected[$0.detectedLabel] == 1 }
    }
}
