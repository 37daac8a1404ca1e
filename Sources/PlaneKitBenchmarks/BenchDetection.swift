import ArgumentParser
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport
import PlaneKitCloudIO
import PlaneKitUnorganizedDetection

/// `planekit bench detection`: PlaneKit's organized detector against PCL on the same frames,
/// in the same run.
struct BenchDetection: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detection",
        abstract: "Time plane detection on VGA frames and real scans next to PCL's organized pipeline.",
        discussion: """
            For each frame — the real 640×480 clouds and depth images in DIR/pcl/ (--data), the \
            real scans (SegComp's ABW range images in segcomp-abw-dev/, the laser scan in \
            andreashaus/; their median is printed apart) and \
            generated rooms — runs PlaneKit's organized detector and PCL's \
            IntegralImageNormalEstimation + OrganizedMultiPlaneSegmentation (through the bridge) \
            on one thread, and prints the median milliseconds per frame of each and the speed-up. \
            Reading is not timed; everything inside detection is (cell fits, growing, refinement, \
            outlines, classes). --pcl-runs 0 times PlaneKit alone; --frame picks frames by name, \
            so an instruction counter (perf stat) can be pointed at one frame.

            Build in release mode first, or the figures mean nothing:
              swift build -c release && .build/release/planekit bench detection
            scripts/bench.sh does both.
            """)

    @Option(help: "Timed runs of PlaneKit's detector per frame (the median is reported).")
    var runs = 30

    @Option(help: "Timed runs of the PCL pipeline per frame (it is much slower); 0 skips PCL.")
    var pclRuns = 10

    @Option(help: ArgumentHelp("Time only the frames whose name contains TEXT (repeatable).", valueName: "TEXT"))
    var frame: [String] = []

    @Option(help: "Generated rooms to time besides the real frames.")
    var synthetic = 5

    @Option(help: ArgumentHelp("Folder holding PCL's test data (pcl/*.pcd) and the scans.", valueName: "DIR"))
    var data = "../shared/data"

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @OptionGroup var sensor: SensorOption

    mutating func run() throws {
        guard runs > 0, pclRuns >= 0, synthetic >= 0 else {
            throw ValidationError("--runs must be positive, --pcl-runs and --synthetic not negative")
        }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        let filters = frame
        let wanted = { (name: String) in filters.isEmpty || filters.contains { name.contains($0) } }
        var frames: [(name: String, cloud: PointCloud)] = []
        for name in BenchFrames.realFrameNames where wanted(name) {
            let path = "\(data)/pcl/\(name)"
            do {
                // Depth images find their intrinsics in the sidecar beside them.
                frames.append((name, try PointCloudReader.read(path: path)))
            } catch {
                Diagnostics.warn("skipping \(error)")
            }
        }
        for name in BenchFrames.scanNames where wanted(name) {
            do {
                frames.append((name, try PointCloudReader.read(path: "\(data)/\(name)")))
            } catch {
                Diagnostics.warn("skipping \(error)")
            }
        }
        for seed in 0..<UInt64(synthetic) where wanted("synthetic room seed \(seed + 1)") {
            frames.append(("synthetic room seed \(seed + 1)", SyntheticFrame(seed: seed + 1).cloud))
        }
        guard !frames.isEmpty else {
            throw ValidationError("no frames to time: pass --data DIR holding pcl/*.pcd, or --synthetic N")
        }
        var configuration = OrganizedPlaneDetector.Configuration()
        configuration.sensor = sensor.sensor
        let detector = OrganizedPlaneDetector(configuration: configuration)
        let pcl = PCLOrganizedSegmentation()
        var rows: [BenchRow] = []
        for (name, cloud) in frames {
            _ = try detector.detect(in: cloud)  // warm caches and lazy initialisation
            var planes = 0
            let ours = try BenchTimer.median(runs) { planes = try detector.detect(in: cloud).planes.count }
            var pclPlanes: Int? = nil
            let theirs: Double? = pclRuns == 0 ? nil
                : try BenchTimer.median(pclRuns) { pclPlanes = try pcl.segment(cloud).planes.count }
            rows.append(BenchRow(frame: name, planekitMilliseconds: ours, planekitPlanes: planes,
                                 pclMilliseconds: theirs, pclPlanes: pclPlanes))
        }
        let summary = BenchSummary(rows: rows, runs: runs, pclRuns: pclRuns)
        print(json ? try JSONOutput.string(summary) : summary.table)
    }
}

/// The real frames the benchmark reads from the shared data folder.
enum BenchFrames {
    static let realFrameNames = [
        "frame_20121214T142255.814212.pcd", "frame_20121214T142256.068683.pcd", "frame_20121214T142256.332395.pcd",
        "milk_cartoon_all_small_clorox.pcd", "table_scene_mug_stereo_textured.pcd",
        "depth/frame_20121214T142255.814212_depth.tiff", "depth/frame_20121214T142256.068683_depth.tiff",
        "depth/frame_20121214T142256.332395_depth.tiff",
    ]
    /// Real scans that are not VGA camera frames: SegComp's 512×512 ABW range images (the
    /// development split) and a 513×633 terrestrial laser scan. Their medians are reported apart
    /// from the VGA frames'.
    static let scanNames = (0..<10).map { "segcomp-abw-dev/abw0\($0).pcd" } + ["andreashaus/scan000.pcd"]

    /// `true` for a frame of ``scanNames``.
    static func isScan(_ name: String) -> Bool { scanNames.contains(name) }
}

/// Wall-clock medians over repeated runs.
enum BenchTimer {
    /// The median of `runs` timings of `body`, in milliseconds.
    static func median(_ runs: Int, _ body: () throws -> Void) throws -> Double {
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let start = ContinuousClock.now
            try body()
            samples.append((ContinuousClock.now - start).milliseconds)
        }
        return median(samples)
    }

    /// The median of `values` (NaN for none).
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}

/// One frame's timings; the PCL fields are `nil` when PCL was not timed (`--pcl-runs 0`).
struct BenchRow: Encodable {
    let frame: String
    let planekitMilliseconds: Double
    let planekitPlanes: Int
    let pclMilliseconds: Double?
    let pclPlanes: Int?
    let speedup: Double?

    init(frame: String, planekitMilliseconds: Double, planekitPlanes: Int, pclMilliseconds: Double?, pclPlanes: Int?) {
        self.frame = frame
        self.planekitMilliseconds = planekitMilliseconds
        self.planekitPlanes = planekitPlanes
        self.pclMilliseconds = pclMilliseconds
        self.pclPlanes = pclPlanes
        speedup = pclMilliseconds.map { $0 / planekitMilliseconds }
    }
}

/// All frames' timings and the medians over frames.
struct BenchSummary: Encodable {
    let rows: [BenchRow]
    let runs: Int
    let pclRuns: Int
    /// The median over the VGA frames, `nil` when none was timed (`--frame` chose scans only).
    let medianPlaneKitMilliseconds: Double?
    let medianPCLMilliseconds: Double?
    /// The median over the scans (``BenchFrames/scanNames``), `nil` when none was timed.
    let medianScanPlaneKitMilliseconds: Double?
    /// PCL's median over the scans.
    let medianScanPCLMilliseconds: Double?
    /// The slowest VGA frame's median: the figure a per-frame budget is held to.
    let slowestPlaneKitMilliseconds: Double?

    init(rows: [BenchRow], runs: Int, pclRuns: Int) {
        self.rows = rows
        self.runs = runs
        self.pclRuns = pclRuns
        let frames = rows.filter { !BenchFrames.isScan($0.frame) }
        medianPlaneKitMilliseconds = frames.isEmpty ? nil : BenchTimer.median(frames.map(\.planekitMilliseconds))
        let scans = rows.filter { BenchFrames.isScan($0.frame) }
        medianScanPlaneKitMilliseconds = scans.isEmpty ? nil : BenchTimer.median(scans.map(\.planekitMilliseconds))
        let scanPCL = scans.compactMap(\.pclMilliseconds)
        medianScanPCLMilliseconds = scanPCL.isEmpty ? nil : BenchTimer.median(scanPCL)
        let pcl = frames.compactMap(\.pclMilliseconds)
        medianPCLMilliseconds = pcl.isEmpty ? nil : BenchTimer.median(pcl)
        slowestPlaneKitMilliseconds = frames.map(\.planekitMilliseconds).max()
    }

    var table: String {
        let widths = [46, -12, -7, -12, -7, -9]
        func line(_ cells: [String]) -> String { PlaneTable.row(Array(zip(cells, widths))) }
        func format(_ value: Double?, _ pattern: String) -> String { value.map { CFormat.string(pattern, $0) } ?? "–" }
        var lines = [line(["frame", "PlaneKit ms", "planes", "PCL ms", "planes", "speed-up"])]
        for r in rows {
            lines.append(line([r.frame, CFormat.string("%.2f", r.planekitMilliseconds), String(r.planekitPlanes),
                               format(r.pclMilliseconds, "%.1f"), r.pclPlanes.map(String.init) ?? "–",
                               format(r.speedup, "%.0f×")]))
        }
        if let frames = medianPlaneKitMilliseconds {
            lines.append(line(["median over VGA frames", CFormat.string("%.2f", frames), "",
                               format(medianPCLMilliseconds, "%.1f"), "",
                               format(medianPCLMilliseconds.map { $0 / frames }, "%.0f×")]))
        }
        if let scans = medianScanPlaneKitMilliseconds {
            lines.append(line(["median over scans", CFormat.string("%.2f", scans), "",
                               format(medianScanPCLMilliseconds, "%.1f"), "",
                               format(medianScanPCLMilliseconds.map { $0 / scans }, "%.0f×")]))
        }
        if let slowest = slowestPlaneKitMilliseconds {
            lines.append(line(["slowest VGA frame", CFormat.string("%.2f", slowest), "", "", "", ""]))
        }
        lines.append("medians of \(runs) PlaneKit runs and \(pclRuns) PCL runs per frame, one thread, "
            + (BuildConfiguration.isDebug ? "DEBUG build: not meaningful" : "release build"))
        return lines.joined(separator: "\n")
    }
}
