import ArgumentParser
import Foundation
import PlaneKit

/// `planekit bench detection`: PlaneKit's organized detector against PCL on the same frames,
/// in the same run.
struct BenchDetection: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detection",
        abstract: "Time plane detection on VGA frames next to PCL's organized pipeline.",
        discussion: """
            For each frame — the real 640×480 clouds in ../shared/data/pcl/ and generated rooms — \
            runs PlaneKit's organized detector and PCL's IntegralImageNormalEstimation + \
            OrganizedMultiPlaneSegmentation (through the bridge) on one thread, and prints the \
            median milliseconds per frame of each and the speed-up. Reading is not timed; \
            everything inside detection is (cell fits, growing, refinement, outlines, classes).

            Build in release mode first, or the figures mean nothing:
              swift build -c release && .build/release/planekit bench detection
            scripts/bench.sh does both.
            """)

    @Option(help: "Timed runs of PlaneKit's detector per frame (the median is reported).")
    var runs = 30

    @Option(help: "Timed runs of the PCL pipeline per frame (it is much slower).")
    var pclRuns = 10

    @Option(help: "Generated rooms to time besides the real frames.")
    var synthetic = 5

    @Option(help: ArgumentHelp("Folder holding PCL's test data (pcl/*.pcd).", valueName: "DIR"))
    var data = "../shared/data"

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    mutating func run() throws {
        guard runs > 0, pclRuns > 0, synthetic >= 0 else {
            throw ValidationError("--runs and --pcl-runs must be positive, --synthetic not negative")
        }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        var frames: [(name: String, cloud: PointCloud)] = []
        for name in BenchFrames.realFrameNames {
            let path = "\(data)/pcl/\(name)"
            do {
                frames.append((name, try PointCloudReader.read(path: path)))
            } catch {
                Diagnostics.warn("skipping \(error)")
            }
        }
        for seed in 0..<UInt64(synthetic) {
            frames.append(("synthetic room seed \(seed + 1)", SyntheticFrame(seed: seed + 1).cloud))
        }
        guard !frames.isEmpty else {
            throw ValidationError("no frames to time: pass --data DIR holding pcl/*.pcd, or --synthetic N")
        }
        let detector = OrganizedPlaneDetector()
        let pcl = PCLOrganizedSegmentation()
        var rows: [BenchRow] = []
        for (name, cloud) in frames {
            _ = try detector.detect(in: cloud)  // warm caches and lazy initialisation
            var planes = 0
            let ours = try BenchTimer.median(runs) { planes = try detector.detect(in: cloud).planes.count }
            var pclPlanes = 0
            let theirs = try BenchTimer.median(pclRuns) { pclPlanes = try pcl.segment(cloud).planes.count }
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
    ]
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

/// One frame's timings.
struct BenchRow: Encodable {
    let frame: String
    let planekitMilliseconds: Double
    let planekitPlanes: Int
    let pclMilliseconds: Double
    let pclPlanes: Int
    let speedup: Double

    init(frame: String, planekitMilliseconds: Double, planekitPlanes: Int, pclMilliseconds: Double, pclPlanes: Int) {
        self.frame = frame
        self.planekitMilliseconds = planekitMilliseconds
        self.planekitPlanes = planekitPlanes
        self.pclMilliseconds = pclMilliseconds
        self.pclPlanes = pclPlanes
        speedup = pclMilliseconds / planekitMilliseconds
    }
}

/// All frames' timings and the medians over frames.
struct BenchSummary: Encodable {
    let rows: [BenchRow]
    let runs: Int
    let pclRuns: Int
    let medianPlaneKitMilliseconds: Double
    let medianPCLMilliseconds: Double

    init(rows: [BenchRow], runs: Int, pclRuns: Int) {
        self.rows = rows
        self.runs = runs
        self.pclRuns = pclRuns
        medianPlaneKitMilliseconds = BenchTimer.median(rows.map(\.planekitMilliseconds))
        medianPCLMilliseconds = BenchTimer.median(rows.map(\.pclMilliseconds))
    }

    var table: String {
        let widths = [38, -12, -7, -12, -7, -9]
        func line(_ cells: [String]) -> String { PlaneTable.row(Array(zip(cells, widths))) }
        var lines = [line(["frame (640×480)", "PlaneKit ms", "planes", "PCL ms", "planes", "speed-up"])]
        for r in rows {
            lines.append(line([r.frame, String(format: "%.2f", r.planekitMilliseconds), String(r.planekitPlanes),
                               String(format: "%.1f", r.pclMilliseconds), String(r.pclPlanes), String(format: "%.0f×", r.speedup)]))
        }
        lines.append(line(["median over frames", String(format: "%.2f", medianPlaneKitMilliseconds), "",
                           String(format: "%.1f", medianPCLMilliseconds), "",
                           String(format: "%.0f×", medianPCLMilliseconds / medianPlaneKitMilliseconds)]))
        lines.append("medians of \(runs) PlaneKit runs and \(pclRuns) PCL runs per frame, one thread, "
            + (BuildConfiguration.isDebug ? "DEBUG build: not meaningful" : "release build"))
        return lines.joined(separator: "\n")
    }
}
