import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitTestSupport
import Testing
import PlaneKitEvaluation

@Suite struct HooverEvaluationTests {
    /// A `width × height` label image whose column `u` gets `label(u)`.
    private func columns(width: Int = 100, height: Int = 10, _ label: (Int) -> UInt16) -> ContiguousArray<UInt16> {
        ContiguousArray((0..<(width * height)).map { label($0 % width) })
    }

    /// Truth with one region for every class: 1 found, 2 split in two, 3 and 4 merged, 5 missed;
    /// the detection adds a noise segment 15 on unlabelled pixels.
    private let everyClassTruth: ContiguousArray<UInt16> = ContiguousArray((0..<1000).map { i -> UInt16 in
        switch i % 100 {
        case 0..<20: 1
        case 20..<40: 2
        case 40..<50: 3
        case 50..<60: 4
        case 60..<75: 5
        default: 0
        }
    })
    private let everyClassDetected: ContiguousArray<UInt16> = ContiguousArray((0..<1000).map { i -> UInt16 in
        switch i % 100 {
        case 0..<20: 11
        case 20..<30: 12
        case 30..<40: 13
        case 40..<60: 14
        case 80..<95: 15
        default: 0
        }
    })

    @Test func everyClassIsFoundWithItsLabels() throws {
        let e = try HooverEvaluation(detected: everyClassDetected, truth: everyClassTruth, width: 100, height: 10)
        #expect(e.correct == [.init(trueLabel: 1, detectedLabel: 11, truePixels: 200, detectedPixels: 200, overlap: 200)])
        #expect(e.overSegmentations == [.init(label: 2, members: [12, 13])])
        #expect(e.underSegmentations == [.init(label: 14, members: [3, 4])])
        #expect(e.missedLabels == [5])
        #expect(e.noiseLabels == [15])
        #expect(e.trueLabels == [1, 2, 3, 4, 5] && e.detectedLabels == [11, 12, 13, 14, 15])
        #expect(e.ignoredDetectedLabels.isEmpty && e.orientationErrors.isEmpty)
        #expect(e.recall == 0.2 && e.precision == 0.2)
    }

    @Test func totalSumsAndAveragesPerImage() throws {
        let e = try HooverEvaluation(detected: everyClassDetected, truth: everyClassTruth, width: 100, height: 10)
        let same = try HooverEvaluation(detected: everyClassTruth, truth: everyClassTruth, width: 100, height: 10)
        let total = HooverEvaluation.Total(threshold: 0.8, [e, same])
        #expect(total.images == 2 && total.trueRegions == 10 && total.detectedRegions == 10)
        #expect(total.correct == 6 && total.overSegmented == 1 && total.underSegmented == 1)
        #expect(total.missed == 1 && total.noise == 1)
        #expect(total.perImage(total.correct) == 3 && total.perImage(total.trueRegions) == 5)
        #expect(total.recall == 0.6 && total.precision == 0.6)
        #expect(total.meanOrientationError == nil)
    }

    @Test func thresholdDecidesACloseCall() throws {
        // 85 of a 100-pixel region in an 85-pixel segment: 85% of both.
        let truth = columns(height: 1) { _ in 1 }, detected = columns(height: 1) { $0 < 85 ? 1 : 0 }
        let loose = try HooverEvaluation(detected: detected, truth: truth, width: 100, height: 1, threshold: 0.8)
        #expect(loose.correct.count == 1 && loose.missedLabels.isEmpty && loose.noiseLabels.isEmpty)
        let strict = try HooverEvaluation(detected: detected, truth: truth, width: 100, height: 1, threshold: 0.9)
        #expect(strict.correct.isEmpty && strict.missedLabels == [1] && strict.noiseLabels == [1])
    }

    @Test func overSegmentationNeedsTheSumToCoverT() throws {
        // Region 1 (100 px) in pieces of 40 + 35 (75% < 80%): missed, both pieces noise; at T = 0.7 over.
        let truth = columns(height: 1) { _ in 1 }, detected = columns(height: 1) { $0 < 40 ? 1 : ($0 < 75 ? 2 : 0) }
        let e = try HooverEvaluation(detected: detected, truth: truth, width: 100, height: 1)
        #expect(e.overSegmentations.isEmpty && e.missedLabels == [1] && e.noiseLabels == [1, 2])
        let loose = try HooverEvaluation(detected: detected, truth: truth, width: 100, height: 1, threshold: 0.7)
        #expect(loose.overSegmentations == [.init(label: 1, members: [1, 2])] && loose.noiseLabels.isEmpty)
    }

    @Test func sweepMatchesSingleEvaluations() throws {
        let sweep = try HooverEvaluation.sweep(detected: everyClassDetected, truth: everyClassTruth, width: 100, height: 10,
                                               thresholds: HooverEvaluation.sweepThresholds)
        #expect(HooverEvaluation.sweepThresholds.count == 10)
        #expect(abs(HooverEvaluation.sweepThresholds[9] - 0.95) < 1e-12)
        for (threshold, evaluation) in zip(HooverEvaluation.sweepThresholds, sweep) {
            #expect(try evaluation == HooverEvaluation(detected: everyClassDetected, truth: everyClassTruth, width: 100,
                                                       height: 10, threshold: threshold))
        }
    }

    @Test func minimumPixelsLeavesSmallRegionsAndTheirSegmentsOut() throws {
        // Region 2 has 20 pixels; segment 2 has 30, 20 of them on region 2.
        let truth = columns { $0 < 50 ? 1 : ($0 < 52 ? 2 : 0) }
        let detected = columns { $0 < 50 ? 1 : ($0 < 53 ? 2 : 0) }
        let all = try HooverEvaluation(detected: detected, truth: truth, width: 100, height: 10)
        #expect(all.trueLabels == [1, 2] && all.missedLabels == [2] && all.noiseLabels == [2])
        let large = try HooverEvaluation(detected: detected, truth: truth, width: 100, height: 10, minimumTruePixels: 100)
        #expect(large.trueLabels == [1] && large.detectedLabels == [1] && large.ignoredDetectedLabels == [2])
        #expect(large.missedLabels.isEmpty && large.noiseLabels.isEmpty && large.recall == 1 && large.precision == 1)
    }

    @Test func badInputIsAnError() {
        #expect(throws: InputError.self) {
            try HooverEvaluation(detected: [0, 0], truth: [0, 0, 0], width: 3, height: 1)
        }
        #expect(throws: InputError.self) {
            try HooverEvaluation(detected: [1], truth: [1], width: 1, height: 1, threshold: 0.4)
        }
        #expect(throws: InputError.self) {
            try HooverEvaluation(detected: [1], truth: [1], width: 1, height: 1, points: [])
        }
    }

    @Test func orientationErrorIsTheAngleBetweenTheTwoFittedPlanes() throws {
        // Rows 1–8 (shared by region and segment) lie on one line, which both planes contain;
        // row 0 (region only) lies on a plane tilted 10° about it, row 9 (segment only) on one
        // tilted 35°. Each fit is exact, so the error is 25°.
        let (width, height) = (50, 10)
        let truth = ContiguousArray((0..<(width * height)).map { $0 / width < 9 ? UInt16(1) : 0 })
        let detected = ContiguousArray((0..<(width * height)).map { $0 / width >= 1 ? UInt16(4) : 0 })
        let tanA = Float(tan(10 * Double.pi / 180)), tanB = Float(tan(35 * Double.pi / 180))
        let points = ContiguousArray((0..<(width * height)).map { i -> SIMD3<Float> in
            let x = Float(i) * 0.002 - 0.5
            switch i / width {
            case 0: return SIMD3(x, 0.1, 1 + 0.1 * tanA)
            case 9: return SIMD3(x, -0.1, 1 - 0.1 * tanB)
            default: return SIMD3(x, 0, 1)
            }
        })
        let e = try HooverEvaluation(detected: detected, truth: truth, width: width, height: height, points: points)
        #expect(e.correct.count == 1 && e.orientationErrors.count == 1)
        let error = try #require(e.orientationErrors[0])
        #expect(abs(error - 25) < 0.01, "orientation error \(error)°, expected 25°")
        let total = HooverEvaluation.Total(threshold: 0.8, [e])
        #expect(abs((total.meanOrientationError ?? 0) - 25) < 0.01 && abs((total.medianOrientationError ?? 0) - 25) < 0.01)
    }

    @Test func imagesWithThousandsOfLabelsAreCountedToo() throws {
        // 3000 × 3000 labels present is too many for a table of overlaps; the sorted pair list
        // must give the same classes. Segment k merges true regions 2k − 1 and 2k.
        let truth = ContiguousArray((0..<6000).map { UInt16($0 % 3000 + 1) })
        let same = try HooverEvaluation(detected: truth, truth: truth, width: 3000, height: 2)
        #expect(same.correct.count == 3000 && same.missedLabels.isEmpty && same.noiseLabels.isEmpty)
        let merged = try HooverEvaluation(detected: ContiguousArray(truth.map { ($0 + 1) / 2 }), truth: truth, width: 3000, height: 2)
        #expect(merged.underSegmentations.count == 1500 && merged.correct.isEmpty)
        #expect(merged.underSegmentations.first == .init(label: 1, members: [1, 2]))
        #expect(merged.missedLabels.isEmpty && merged.noiseLabels.isEmpty)
    }

    @Test func overlapOfA512ImageIsFast() throws {
        // ~40 true regions in blocks, a detection shifted by 3 pixels with ~60 segments.
        let size = 512
        let truth = ContiguousArray((0..<(size * size)).map { i in UInt16((i % size) / 80 + 7 * ((i / size) / 90) + 1) })
        let detected = ContiguousArray((0..<(size * size)).map { i in
            UInt16(((i % size) + 3) / 60 + 9 * (((i / size) + 3) / 80) + 1)
        })
        var best = Duration.seconds(1)
        for _ in 0..<5 {
            let start = ContinuousClock.now
            _ = try HooverEvaluation(detected: detected, truth: truth, width: size, height: size)
            best = min(best, ContinuousClock.now - start)
        }
        #expect(best < .milliseconds(10), "a 512×512 evaluation took \(best)")
    }

    // MARK: SegComp ABW ground truth (../shared/data/segcomp-abw-dev/gt)

    private static let segcompTruth = SharedData.path("segcomp-abw-dev/gt")
    private static var segcompFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: segcompTruth)) ?? [])
            .filter { $0.hasSuffix(".labels.pgm") }.sorted().map { segcompTruth + "/" + $0 }
    }

    @Test(.enabled(if: !segcompFiles.isEmpty, "needs ../shared/data/segcomp-abw-dev/gt beside the repository"))
    func segcompTruthAgainstItselfIsAllCorrect() throws {
        for file in Self.segcompFiles {
            let image = try PGMDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file))), source: file)
            let e = try HooverEvaluation(detected: image.samples, truth: image.samples, width: image.width, height: image.height)
            #expect(!e.trueLabels.isEmpty && e.correct.count == e.trueLabels.count && e.recall == 1 && e.precision == 1, "\(file)")
            #expect(e.overSegmentations.isEmpty && e.underSegmentations.isEmpty, "\(file)")
            #expect(e.missedLabels.isEmpty && e.noiseLabels.isEmpty, "\(file)")
        }
    }

    @Test(.enabled(if: !segcompFiles.isEmpty, "needs ../shared/data/segcomp-abw-dev/gt beside the repository"))
    func segcompRegionSplitDownTheMiddleIsOneOverSegmentation() throws {
        for file in Self.segcompFiles {
            let image = try PGMDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: file))), source: file)
            // The largest region's pixels right of its median column get a new label.
            var counts = [Int](repeating: 0, count: 65536)
            for label in image.samples where label != 0 { counts[Int(label)] += 1 }
            let largest = UInt16(counts.indices.max { counts[$0] < counts[$1] }!)
            let columns = image.samples.indices.filter { image.samples[$0] == largest }.map { $0 % image.width }.sorted()
            let middle = columns[columns.count / 2]
            let fresh = image.samples.max()! + 1
            var split = image.samples
            for i in split.indices where split[i] == largest && i % image.width >= middle { split[i] = fresh }
            let e = try HooverEvaluation(detected: split, truth: image.samples, width: image.width, height: image.height)
            #expect(e.overSegmentations == [.init(label: largest, members: [largest, fresh])], "\(file)")
            #expect(e.correct.count == e.trueLabels.count - 1, "\(file)")
            #expect(e.underSegmentations.isEmpty && e.missedLabels.isEmpty && e.noiseLabels.isEmpty, "\(file)")
        }
    }
}
