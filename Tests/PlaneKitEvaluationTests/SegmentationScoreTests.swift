import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import Testing
import PlaneKitEvaluation

@Suite struct SegmentationScoreTests {
    /// A 100×100 label image whose column `u` gets `label(u)`.
    private func columns(_ label: (Int) -> UInt16) -> ContiguousArray<UInt16> {
        ContiguousArray((0..<10_000).map { label($0 % 100) })
    }

    /// Truth for most cases: left half plane 1, right half plane 2 (5000 pixels each).
    private var halves: ContiguousArray<UInt16> { columns { $0 < 50 ? 1 : 2 } }

    @Test func perfectMatchWithDifferentNumbering() throws {
        let detected = columns { $0 < 50 ? 7 : 3 }
        let score = try SegmentationScore(detected: detected, truth: halves, width: 100, height: 100)
        #expect(score.recall == 1 && score.precision == 1)
        #expect(score.matches == [
            .init(trueLabel: 1, detectedLabel: 7, truePixels: 5000, detectedPixels: 5000, overlap: 5000),
            .init(trueLabel: 2, detectedLabel: 3, truePixels: 5000, detectedPixels: 5000, overlap: 5000),
        ])
        #expect(score.missedTrueLabels.isEmpty && score.falseDetectedLabels.isEmpty)
    }

    @Test func regionSplitBelowEightyPercentIsNotFound() throws {
        // Plane 2 split 30/20 columns: 3000/5000 = 60% < 80%, so it is missed and both halves
        // are false detections; plane 1 is found.
        let detected = columns { $0 < 50 ? 1 : ($0 < 80 ? 2 : 3) }
        let score = try SegmentationScore(detected: detected, truth: halves, width: 100, height: 100)
        #expect(score.recall == 0.5)
        #expect(score.precision == 1.0 / 3.0)
        #expect(score.missedTrueLabels == [2] && score.falseDetectedLabels == [2, 3])
    }

    @Test func overSegmentationWithADominantPieceStillCounts() throws {
        // Plane 2 split 45/5 columns: the big piece holds 90% of the plane and lies wholly on it,
        // so it is a correct detection; the sliver is a false one.
        let detected = columns { $0 < 50 ? 1 : ($0 < 95 ? 2 : 3) }
        let score = try SegmentationScore(detected: detected, truth: halves, width: 100, height: 100)
        #expect(score.recall == 1)
        #expect(score.precision == 2.0 / 3.0)
        #expect(score.matches.map(\.overlap) == [5000, 4500])
    }

    @Test func underSegmentationFindsNothing() throws {
        // One region over both planes: 5000 of its 10 000 pixels on each, 50% < 80%.
        let score = try SegmentationScore(detected: columns { _ in 4 }, truth: halves, width: 100, height: 100)
        #expect(score.recall == 0 && score.precision == 0)
        // Exactly at the threshold counts: 40 of 50 columns is 80% of a 4000-pixel region.
        let edge = try SegmentationScore(detected: columns { $0 < 40 ? 1 : 0 }, truth: columns { $0 < 50 ? 1 : 0 },
                                         width: 100, height: 100)
        #expect(edge.recall == 1 && edge.precision == 1)
    }

    @Test func detectionsOnSmallTruePlanesAreIgnored() throws {
        // Truth: plane 1 = columns 0–79 (8000 px), plane 2 = columns 80–99 (2000 px < 3000).
        let truth = columns { $0 < 80 ? 1 : 2 }
        let exact = try SegmentationScore(detected: truth, truth: truth, width: 100, height: 100)
        #expect(exact.trueLabels == [1])
        #expect(exact.ignoredDetectedLabels == [2] && exact.detectedLabels == [1])
        #expect(exact.recall == 1 && exact.precision == 1)

        // Region 3 = columns 76–99: 2400 px, 2000 of them (83%) on the small plane: ignored.
        // Region 1 = columns 0–75 holds 7600/8000 = 95% of plane 1: found.
        let mostlySmall = try SegmentationScore(detected: columns { $0 < 76 ? 1 : 3 }, truth: truth, width: 100, height: 100)
        #expect(mostlySmall.ignoredDetectedLabels == [3])
        #expect(mostlySmall.recall == 1 && mostlySmall.precision == 1)

        // Region 3 = columns 70–87: 1800 px, only 800 (44%) on the small plane: counted, and
        // false. Region 1 = columns 0–69 holds 7000/8000 = 87.5% of plane 1: found.
        let straddling = try SegmentationScore(detected: columns { $0 < 70 ? 1 : ($0 < 88 ? 3 : 0) }, truth: truth,
                                               width: 100, height: 100)
        #expect(straddling.ignoredDetectedLabels.isEmpty)
        #expect(straddling.recall == 1 && straddling.precision == 0.5)
        #expect(straddling.falseDetectedLabels == [3])
    }

    @Test func detectionsOnNonPlanarPixelsAreFalse() throws {
        // Columns 90–99 are clutter (truth 0); a detected region there is a false detection.
        let truth = columns { $0 < 90 ? 1 : 0 }
        let detected = columns { $0 < 90 ? 1 : 2 }
        let score = try SegmentationScore(detected: detected, truth: truth, width: 100, height: 100)
        #expect(score.recall == 1 && score.precision == 0.5)
        #expect(score.falseDetectedLabels == [2])
    }

    @Test func lowThresholdsNeedAUniqueCandidate() throws {
        // With T = 0.3 a region over both halves would pair with each plane; neither pair counts.
        let detected = columns { $0 < 35 ? 1 : 2 }
        let score = try SegmentationScore(detected: detected, truth: halves, width: 100, height: 100,
                                          minimumTruePixels: 100, threshold: 0.3)
        // Region 1 (3500 px) is all on plane 1 (70% of it); region 2 (6500 px) has 1500 on plane 1
        // (30%, 23% of region 2) and 5000 on plane 2 (100% of plane 2, 77% of region 2).
        #expect(score.matches.map(\.detectedLabel) == [1, 2])
        let merged = try SegmentationScore(detected: columns { _ in 1 }, truth: halves, width: 100, height: 100,
                                           minimumTruePixels: 100, threshold: 0.3)
        #expect(merged.matches.isEmpty)
        #expect(merged.recall == 0 && merged.precision == 0)
    }

    @Test func badInputIsAnError() {
        #expect(throws: InputError.self) {
            try SegmentationScore(detected: ContiguousArray(repeating: 0, count: 10), truth: ContiguousArray(repeating: 0, count: 12),
                                  width: 3, height: 4)
        }
        #expect(throws: InputError.self) {
            try SegmentationScore(detected: ContiguousArray(repeating: 0, count: 12), truth: ContiguousArray(repeating: 0, count: 12),
                                  width: 3, height: 4, threshold: 1.5)
        }
        #expect(throws: InputError.self) {
            try SegmentationScore(detected: [], truth: [], width: Int.max, height: 2)
        }
    }

    @Test func angularErrorsAndMedian() throws {
        let score = try SegmentationScore(detected: columns { $0 < 50 ? 2 : 1 }, truth: halves, width: 100, height: 100)
        let tilted = SIMD3<Float>(sin(Float(10) * .pi / 180), 0, -cos(Float(10) * .pi / 180))
        // Detected normals by detected label − 1; true normals by true label − 1. The second
        // detected normal points the other way: only the planes' angle counts.
        let errors = score.angularErrorsDegrees(detectedNormals: [SIMD3(0, 1, 0), tilted * -1],
                                                trueNormals: [SIMD3(0, 0, -1), SIMD3(0, 1, 0)])
        // Match order is by true label: plane 1 ↔ region 2 (tilted 10°), plane 2 ↔ region 1 (0°).
        #expect(errors.count == 2)
        let first = errors.first ?? .nan, second = errors.last ?? .nan
        #expect(abs(first - 10) < 1e-3 && abs(second) < 1e-3)
        let missing = score.angularErrorsDegrees(detectedNormals: [], trueNormals: [])
        #expect(missing.count == 2 && missing.allSatisfy { $0.isNaN })
        #expect(SegmentationScore.median([3, 1, 2]) == 2)
        #expect(SegmentationScore.median([4, 1, 3, 2]) == 2.5)
        #expect(SegmentationScore.median([.nan, 5]) == 5)
        #expect(SegmentationScore.median([]) == nil)
    }

    @Test func aRenderedFrameScoredAgainstItselfIsPerfect() throws {
        let frame = SyntheticFrame(seed: 12)
        let score = try SegmentationScore(detected: frame.labels, truth: frame.labels, width: frame.width, height: frame.height)
        #expect(score.trueLabels.count == frame.visiblePlanes(minimumPixels: 3000).count)
        #expect(score.trueLabels.count >= 2)
        #expect(score.recall == 1 && score.precision == 1)
        #expect(score.ignoredDetectedLabels.count == frame.planes.filter { (1..<3000).contains($0.pixelCount) }.count)
        let errors = score.angularErrorsDegrees(detectedNormals: frame.cameraNormals, trueNormals: frame.cameraNormals)
        #expect(SegmentationScore.median(errors) == 0)
    }
}
