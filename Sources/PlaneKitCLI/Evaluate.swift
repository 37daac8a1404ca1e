import ArgumentParser
import FoundationEssentials
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitCommandSupport
import PlaneKitEvaluation
import PlaneKitPictures
import PlaneKitCloudIO

/// `planekit evaluate`: score label images against ground truth as Hoover et al. (1996) do.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score a segmentation against ground truth (Hoover et al., 1996).",
        discussion: """
            Compares each PREDICTED label image with its GROUND_TRUTH (0 = no region, k = region \
            k; 8- or 16-bit grayscale PGM or PNG, as `analyze --labels` writes) and sorts every \
            region into one class, with M pixels in a true region, N in a predicted one, O in both \
            and the threshold T:
              correct     O ≥ T·M and O ≥ T·N
              over-seg.   a true region split: ≥ 2 segments, each O ≥ T·N, together ≥ T·M
              under-seg.  a segment merging ≥ 2 true regions, each O ≥ T·M, together ≥ T·N
              missed      a true region in no class;  noise: a segment in no class
            It prints each image's counts, then the total with the averages per image and recall \
            (correct / true regions) and precision (correct / segments).

            Folders are paired by base name, everything from the first '.' on removed: \
            pred/abw00.pgm pairs with gt/abw00.labels.pgm and with the cloud abw00.pcd. A true \
            image with no prediction is scored as all missed; a prediction with no truth is \
            left out. Both are said on stderr.

            --cloud gives organized clouds (PCD, PLY, … as `analyze` reads) with one point per \
            pixel: each correct detection then gets an orientation error, the angle between the \
            planes fitted to the points under the true region and under the segment.

            A file that cannot be read, is not a label image or has another size than its pair \
            is one line on stderr naming it; the rest is scored and the exit status is 1.

            Examples (D is a folder of SegComp ABW range images as PCD, with their
            ground-truth label images in D/gt):
              mkdir -p pred
              planekit analyze --sensor auto --labels pred/{name}.pgm $D/abw0*.pcd
              planekit evaluate --cloud $D pred $D/gt
              planekit evaluate --sweep --png curves.png pred $D/gt
              planekit evaluate --json pred/abw00.pgm $D/gt/abw00.labels.pgm
            """)

    @Argument(help: ArgumentHelp("The predicted label image, or a folder of them.", valueName: "PREDICTED"),
              completion: .file())
    var predicted: String

    @Argument(help: ArgumentHelp("The ground-truth label image, or a folder of them.", valueName: "GROUND_TRUTH"),
              completion: .file())
    var groundTruth: String

    @Option(help: ArgumentHelp("The overlap fraction T of the rules, from 0.5 to 1.", valueName: "T"))
    var threshold: Double = 0.8

    @Flag(help: "Evaluate at T = 0.50, 0.55, …, 0.95 (Hoover's curves) instead of one T.")
    var sweep = false

    @Option(help: ArgumentHelp("Organized clouds, one point per pixel, for the orientation error: a file or a folder.",
                               valueName: "FILE_OR_FOLDER"), completion: .file())
    var cloud: String?

    @Option(name: .customLong("min-pixels"),
            help: ArgumentHelp("Leave out true regions smaller than this, and segments lying mostly on them.", valueName: "N"))
    var minPixels = 1

    @Flag(help: "Print JSON (one object; with --sweep an array over T) instead of a table.")
    var json = false

    @Option(name: .customLong("png"), help: ArgumentHelp("Draw the classes per image against T (sweeps even without --sweep).",
                                                         valueName: "CURVE.png"))
    var pngPath: String?

    func validate() throws {
        guard threshold >= 0.5, threshold <= 1 else {
            throw ValidationError("--threshold must be from 0.5 to 1 (Hoover's rules need T > 0.5; 0.8 is usual), got \(threshold)")
        }
        guard minPixels >= 1 else { throw ValidationError("--min-pixels must be at least 1, got \(minPixels)") }
    }

    mutating func run() throws {
        var failures = 0
        let pairs = EvaluationPairs(predicted: predicted, truth: groundTruth, cloud: cloud)
        failures += pairs.errors
        let thresholds = sweep ? HooverEvaluation.sweepThresholds
            : (pngPath == nil ? [threshold] : [threshold] + HooverEvaluation.sweepThresholds)
        var images: [EvaluatedImage] = []
        for pair in pairs.pairs {
            do {
                let (image, cloudFailed) = try EvaluatedImage.score(pair, thresholds: thresholds, minimumPixels: minPixels)
                images.append(image)
                if cloudFailed { failures += 1 }
            } catch {
                failures += 1
                Diagnostics.warn("\(error)")
            }
        }
        guard !images.isEmpty else {
            // Each problem has had its line; say more only when none was printed.
            if failures == 0 {
                Diagnostics.warn("nothing could be scored: give a label image or a folder of them for each of PREDICTED and GROUND_TRUTH")
            }
            throw ExitCode(1)
        }
        let report = EvaluationReport(images: images, thresholds: thresholds, minimumPixels: minPixels)
        if json {
            print(try sweep ? JSONOutput.string(thresholds.indices.map { report.json(at: $0) }) : JSONOutput.string(report.json(at: 0)))
        } else {
            print(sweep ? report.sweepTable() : report.table(at: 0), terminator: "")
        }
        if let pngPath {
            let offset = sweep ? 0 : 1
            let totals = HooverEvaluation.sweepThresholds.indices.map { report.total(at: $0 + offset) }
            do {
                try PNGWriter.write(EvaluationCurve(totals: totals).image(), to: pngPath)
            } catch {
                failures += 1
                Diagnostics.warn("\(error)")
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// The images to score: predicted, true and cloud files matched by base name.
struct EvaluationPairs {
    /// One true image with its prediction (absent: all missed) and cloud.
    struct Pair: Encodable {
        /// The base name shared by the files.
        let name: String
        /// The predicted label image, if there is one.
        let predicted: String?
        /// The ground-truth label image.
        let truth: String
        /// The organized cloud, if one was given.
        let cloud: String?
    }

    /// The pairs, in increasing name.
    private(set) var pairs: [Pair] = []
    /// Error lines printed while pairing.
    private(set) var errors = 0

    /// The pairs of `predicted` and `truth` (each a file or a folder) and `cloud`, saying on
    /// stderr what cannot be paired.
    init(predicted: String, truth: String, cloud: String?) {
        let labelExtensions: Set<String> = ["pgm", "png"]
        // Each side is listed, so that every problem is said at once.
        let truthListing = listing(truth, keeping: labelExtensions, what: "PGM or PNG label images")
        let predictionListing = listing(predicted, keeping: labelExtensions, what: "PGM or PNG label images")
        var clouds: Listing?
        if let cloud {
            clouds = listing(cloud, keeping: nil, what: "point clouds")
            if clouds == nil { return }
        }
        guard let truths = truthListing, let predictions = predictionListing else { return }
        if !truths.isFolder && !predictions.isFolder {
            // Two files pair whatever their names.
            let (name, path) = truths.files[0]
            pairs = [Pair(name: name, predicted: predictions.files[0].path, truth: path, cloud: cloudPath(name, clouds, truth: path))]
            return
        }
        // A single file on one side is looked for among the other side's files.
        let onlyName = !truths.isFolder ? truths.files[0].name : (!predictions.isFolder ? predictions.files[0].name : nil)
        for (name, path) in truths.files where onlyName.map({ $0 == name }) ?? true {
            let prediction = predictions.path(name)
            if prediction == nil {
                Diagnostics.warn("\(path): no prediction named \(name).* in \(predictions.root): scored as all missed")
            }
            pairs.append(Pair(name: name, predicted: prediction, truth: path, cloud: cloudPath(name, clouds, truth: path)))
        }
        for (name, path) in predictions.files where onlyName == nil && truths.path(name) == nil {
            Diagnostics.warn("\(path): no ground truth named \(name).* in \(truths.root): left out")
        }
        if let onlyName, pairs.isEmpty {
            Diagnostics.warn("\(truths.isFolder ? truths.root : predictions.root): nothing named \(onlyName).* to pair with it")
            errors += 1
        }
    }

    /// The cloud for the image named `name` (the only one when `clouds` is a file); a warning
    /// when a folder has none.
    private func cloudPath(_ name: String, _ clouds: Listing?, truth: String) -> String? {
        guard let clouds else { return nil }
        guard clouds.isFolder else { return clouds.files[0].path }
        let path = clouds.path(name)
        if path == nil { Diagnostics.warn("\(clouds.root): no cloud named \(name).*: no orientation error for \(truth)") }
        return path
    }

    /// A file or the files of a folder, by base name.
    private struct Listing {
        /// The path given.
        let root: String
        /// Whether it is a folder.
        let isFolder: Bool
        /// Base name and path of each file, in increasing name; one entry for a file.
        let files: [(name: String, path: String)]

        /// The file named `name`, if any.
        func path(_ name: String) -> String? { files.first { $0.name == name }?.path }
    }

    /// The listing of `root`, keeping in a folder the files whose extension is in `extensions`
    /// (any format `PointCloudReader` reads when nil); `nil` after an error line.
    private mutating func listing(_ root: String, keeping extensions: Set<String>?, what: String) -> Listing? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else {
            guard FileManager.default.fileExists(atPath: root) else {
                Diagnostics.warn("\(root): no such file or folder")
                errors += 1
                return nil
            }
            let file = root.split(separator: "/").last.map(String.init) ?? root
            return Listing(root: root, isFolder: false, files: [(Self.baseName(file), root)])
        }
        var files: [(name: String, path: String)] = []
        for file in names.sorted() where !file.hasPrefix(".") {
            let ext = String(file.split(separator: ".").last ?? "").lowercased()
            guard file.contains("."), extensions.map({ $0.contains(ext) }) ?? (PointCloudFormat(extension: ext) != nil) else { continue }
            let path = root.hasSuffix("/") ? root + file : root + "/" + file
            if let earlier = files.first(where: { $0.name == Self.baseName(file) }) {
                Diagnostics.warn("\(path): same base name as \(earlier.path), which is used")
                continue
            }
            files.append((Self.baseName(file), path))
        }
        guard !files.isEmpty else {
            Diagnostics.warn("\(root): no \(what) in this folder (files named NAME.pgm, NAME.png\(extensions == nil ? ", NAME.pcd, …" : ""))")
            errors += 1
            return nil
        }
        return Listing(root: root, isFolder: true, files: files)
    }

    /// `file` without everything from its first '.' on (`abw00.labels.pgm` → `abw00`).
    static func baseName(_ file: String) -> String {
        String(file.prefix { $0 != "." })
    }
}

/// One scored image: its files, size and evaluations at each threshold.
struct EvaluatedImage {
    /// The files scored.
    let pair: EvaluationPairs.Pair
    /// Label image columns.
    let width: Int
    /// Label image rows.
    let height: Int
    /// Whether a cloud was used for orientation errors.
    let hasCloud: Bool
    /// The evaluation at each threshold asked for.
    let evaluations: [HooverEvaluation]

    /// Reads and scores `pair`; also says whether its cloud failed (one line on stderr said
    /// why, the image is scored without it). An error when a label image cannot be used.
    static func score(_ pair: EvaluationPairs.Pair, thresholds: [Double], minimumPixels: Int) throws
        -> (image: EvaluatedImage, cloudFailed: Bool) {
        let truth = try readLabels(pair.truth)
        var detected = ContiguousArray<UInt16>(repeating: 0, count: truth.samples.count)
        if let path = pair.predicted {
            let image = try readLabels(path)
            guard image.width == truth.width, image.height == truth.height else {
                throw InputError(source: path, problem: "\(image.width)×\(image.height) labels, but the ground truth \(pair.truth) is \(truth.width)×\(truth.height): pair skipped")
            }
            detected = image.samples
        }
        var points: ContiguousArray<SIMD3<Float>>?
        var cloudFailed = false
        if let path = pair.cloud {
            do {
                let cloud = try PointCloudReader.read(path: path)
                if cloud.width == truth.width, cloud.height == truth.height {
                    points = cloud.points
                } else {
                    Diagnostics.warn("\(path): a \(cloud.width)×\(cloud.height) cloud for \(truth.width)×\(truth.height) labels (\(pair.truth)): no orientation error for this image")
                    cloudFailed = true
                }
            } catch {
                Diagnostics.warn("\(error): no orientation error for \(pair.truth)")
                cloudFailed = true
            }
        }
        let evaluations = try HooverEvaluation.sweep(detected: detected, truth: truth.samples, width: truth.width, height: truth.height,
                                                     thresholds: thresholds, minimumTruePixels: minimumPixels, points: points)
        let used = EvaluationPairs.Pair(name: pair.name, predicted: pair.predicted, truth: pair.truth, cloud: points == nil ? nil : pair.cloud)
        return (EvaluatedImage(pair: used, width: truth.width, height: truth.height, hasCloud: points != nil, evaluations: evaluations),
                cloudFailed)
    }

    private init(pair: EvaluationPairs.Pair, width: Int, height: Int, hasCloud: Bool, evaluations: [HooverEvaluation]) {
        self.pair = pair
        self.width = width
        self.height = height
        self.hasCloud = hasCloud
        self.evaluations = evaluations
    }

    /// The label image at `path` (8- or 16-bit grayscale PGM or PNG).
    static func readLabels(_ path: String) throws(InputError) -> GrayImage {
        let bytes = try FileBytes.read(path)
        switch PointCloudFormat(magic: bytes.prefix(16)) {
        case .pgm: return try PGMDecoder.decode(bytes, source: path)
        case .png: return try PNGDecoder.decode(bytes, source: path)
        default: throw InputError(source: path, problem: "not a label image (expected an 8- or 16-bit grayscale PGM or PNG)")
        }
    }
}
