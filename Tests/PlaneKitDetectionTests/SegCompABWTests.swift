import Foundation
import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitTestSupport
import PlaneKitEvaluation
import PlaneKitCloudIO

/// Where the development images are.
enum SegCompABW {
    static let folder = "segcomp-abw-dev"
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: SharedData.path("\(folder)/gt/abw00.labels.pgm"))
    }
}

/// The detector on real range images with ground truth we did not make: the ten development
/// images of SegComp's ABW benchmark (Hoover et al. 1996; ../shared/data/segcomp-abw-dev). A
/// structured-light scanner, 512×512, 8-bit range (depth in steps of about 1.3 mm), polyhedral
/// objects about 1 m away, 19 ground-truth faces an image, many of a few hundred pixels and
/// oblique. Scored as the literature scores it: a face is correctly detected when one detected
/// plane overlaps it by at least 80% of both, and every ground-truth face counts, whatever its size.
///
/// These images are the development split: the detector's object-scale path was tuned on them.
/// The other 20 images of the benchmark are held out and never read here.
@Suite(.enabled(if: SegCompABW.isAvailable, "needs ../shared/data/segcomp-abw-dev beside the repository"))
struct SegCompABWTests {

    /// One image's cloud, ground truth and detection.
    struct Image {
        let name: String
        let cloud: PointCloud
        let truth: ContiguousArray<UInt16>
        let result: PlaneDetectionResult

        init(_ index: Int) throws {
            name = "abw0\(index)"
            cloud = try PointCloudReader.read(path: SharedData.path("\(SegCompABW.folder)/\(name).pcd"))
            let path = SharedData.path("\(SegCompABW.folder)/gt/\(name).labels.pgm")
            truth = try PGMDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))), source: path).samples
            result = try OrganizedPlaneDetector().detect(in: cloud)
        }

        /// The Hoover evaluation `planekit evaluate --cloud` prints, every face counted: the
        /// classes at T = 0.8 and each correct detection's orientation error, between the
        /// least-squares planes of the points under the face and under the detected segment.
        func evaluation() throws -> HooverEvaluation {
            try HooverEvaluation(detected: result.labels, truth: truth, width: cloud.width, height: cloud.height,
                                 points: cloud.points)
        }
    }

    static let images: [Image] = (0..<10).compactMap { try? Image($0) }

    @Test func allTenImagesAreRead() {
        #expect(Self.images.count == 10)
    }

    /// `auto` takes these near-pinhole grids for what they are: a precise scan at object scale,
    /// with its 8-bit range steps measured and smoothed, not a depth camera's room-scale cells,
    /// and points straying across their rays by 0.6 of their 0.46 mm spacing at 1 m.
    @Test func autoDetectsAtObjectScaleWithTheRangeSteps() throws {
        for image in Self.images {
            let settings = try #require(image.result.sensorSettings)
            #expect(settings.cellSize <= 8, "\(image.name): \(settings.cellSize)-px cells")
            #expect(settings.depthStep > 0.0012 && settings.depthStep < 0.0014,
                    "\(image.name): depth step \(settings.depthStep) m")
            #expect(settings.splitsDisconnected, "\(image.name): faces are connected patches at object scale")
            #expect(settings.lateralNoise > 0.00025 && settings.lateralNoise < 0.00032,
                    "\(image.name): lateral noise \(settings.lateralNoise) per metre of depth")
            #expect(settings.reason.contains("object scale"), "\(image.name): \(settings.reason)")
        }
    }

    /// The figures the README gives for the development images, computed as `planekit evaluate`
    /// computes them. Thresholds sit just below what the detector reaches (171 of 192 faces,
    /// precision 0.961, 1.31°): the scans and the detector are deterministic, and losing one
    /// face, measuring distances across the viewing ray instead of along it, or leaving out the
    /// points' stray across their rays, fails.
    @Test func mostFacesAreFoundWithAccurateNormals() throws {
        var total = HooverEvaluation.Total(threshold: 0.8)
        for image in Self.images {
            let evaluation = try image.evaluation()
            total.add(evaluation)
            print("\(image.name): \(evaluation.correct.count) of \(evaluation.trueLabels.count) faces correct, "
                  + "\(evaluation.detectedLabels.count) planes detected")
        }
        let meanError = try #require(total.meanOrientationError)
        print("ABW development images: \(total.correct) of \(total.trueRegions) faces correct (\(total.recall)), "
              + "precision \(total.precision), mean orientation error \(meanError)° over \(total.orientationErrors.count) "
              + "correct faces")
        #expect(total.orientationErrors.count == total.correct, "every correct face's orientation is measured")
        #expect(total.recall >= 0.89, "recall \(total.recall)")
        #expect(total.precision >= 0.96, "precision \(total.precision)")
        #expect(meanError <= 1.4, "mean orientation error \(meanError)°")
    }

    /// Faces of a few hundred pixels: at least 70% of the ground-truth faces of 300–1000 pixels
    /// (thin oblique strips, small bevels) are correct detections.
    @Test func smallFacesAreFound() throws {
        var small = 0, found = 0
        for image in Self.images {
            let evaluation = try image.evaluation()
            var sizes = [UInt16: Int]()
            for label in image.truth where label != 0 { sizes[label, default: 0] += 1 }
            let correct = Set(evaluation.correct.map(\.trueLabel))
            for (label, size) in sizes where (300..<1000).contains(size) {
                small += 1
                if correct.contains(label) { found += 1 }
            }
        }
        print("ABW development images: \(found) of \(small) faces of 300–1000 px correct")
        #expect(small >= 20)
        #expect(Double(found) >= 0.7 * Double(small), "\(found) of \(small)")
    }
}
