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
    var speedup: Double { pclMilliseconds / planekitMilliseconds }

    enum CodingKeys: String, CodingKey { case frame, planekitMilliseconds, planekitPlanes, pclMilliseconds, pclPlanes, speedup }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frame, forKey: .frame)
        try c.encode(planekitMilliseconds, forKey: .planekitMilliseconds)
        try c.encode(planekitPlanes, forKey: .planekitPlanes)
        try c.encode(pclMilliseconds, forKey: .pclMilliseconds)
        try c.encode(pclPlanes, forKey: .pclPlanes)
        try c.encode(speedup, forKey: .speedup)
    }
}

/// All frames' timings and the medians over frames.
struct BenchSummary: Encodable {
    let rows: [BenchRow]
    let runs: Int
    let pclRuns: Int

    var medianPlaneKit: Double { BenchTimer.median(rows.map(\.planekitMilliseconds)) }
    var medianPCL: Double { BenchTimer.median(rows.map(\.pclMilliseconds)) }

    var table: String {
        var lines = [String(format: "%-38@ %12@ %7@ %12@ %7@ %9@", "frame (640×480)", "PlaneKit ms", "planes", "PCL ms", "planes", "speed-up")]
        for r in rows {
            lines.append(String(format: "%-38@ %12.2f %7d %12.1f %7d %8.0f×", r.frame, r.planekitMilliseconds, r.planekitPlanes,
                                r.pclMilliseconds, r.pclPlanes, r.speedup))
        }
        lines.append(String(format: "%-38@ %12.2f %7@ %12.1f %7@ %8.0f×", "median over frames", medianPlaneKit, "", medianPCL, "", medianPCL / medianPlaneKit))
        lines.append("medians of \(runs) PlaneKit runs and \(pclRuns) PCL runs per frame, one thread, release build\(BuildConfiguration.isDebug ? " NOT (debug build)" : "")")
        return lines.joined(separator: "\n")
    }

    enum CodingKeys: String, CodingKey { case rows, runs, pclRuns, medianPlaneKitMilliseconds, medianPCLMilliseconds }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rows, forKey: .rows)
        try c.encode(runs, forKey: .runs)
        try c.encode(pclRuns, forKey: .pclRuns)
        try c.encode(medianPlaneKit, forKey: .medianPlaneKitMilliseconds)
        try c.encode(medianPCL, forKey: .medianPCLMilliseconds)
    }
}
