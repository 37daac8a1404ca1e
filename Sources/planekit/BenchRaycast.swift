import ArgumentParser
import Foundation
import PlaneKit

/// `planekit bench raycast`: PlaneKit's `existingPlaneGeometry` ray kernel against Open3D's
/// Embree-backed `RaycastingScene.cast_rays` on the same planes, one thread each, same run.
struct BenchRaycast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raycast",
        abstract: "Time ray casts against 20 detected planes next to Open3D (Embree).",
        discussion: """
            Detects planes in generated rooms (PlaneKit's organized detector on synthetic frames, \
            seeds 1, 2, … until --planes planes with their outline polygons are found), casts \
            --rays rays from the first room's camera through random pixels (seeded) with \
            PlaneKit's batch kernel (existingPlaneGeometry: nearest hit inside a plane's \
            polygon) and reports rays per second on one thread, the median of --runs runs.

            With --python, the same planes are triangulated (ear clipping of each polygon) and \
            written with the rays to a temporary folder, and scripts/bench_open3d_raycast.py \
            times open3d.t.geometry.RaycastingScene.cast_rays on them (one thread). Both figures \
            are printed side by side, with the share of rays on which both agree (hit or miss, \
            and the distance within 1 mm). scripts/bench-raycast.sh sets up the Python side.
            """)

    @Option(help: "Planes to cast against.")
    var planes = 20

    @Option(help: "Rays per run.")
    var rays = 2_000_000

    @Option(help: "Timed runs (the median is reported).")
    var runs = 15

    @Option(help: "Seed of the random pixels.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("Python with open3d and numpy, for the comparison.", valueName: "PATH"))
    var python = ".build-venv/bin/python3"

    @Option(help: ArgumentHelp("The Open3D side of the benchmark.", valueName: "PATH"))
    var script = "scripts/bench_open3d_raycast.py"

    @Flag(help: "Time PlaneKit alone.")
    var noOpen3d = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    mutating func run() throws {
        guard planes > 0, rays > 0, runs > 0 else { throw ValidationError("--planes, --rays and --runs must be positive") }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        let (detected, camera) = try BenchRaycast.detectedPlanes(count: planes)
        let kernel = PlaneRaycastKernel(planes: detected)
        var rng = SeededRandom(seed: seed)
        var origins = [SIMD3<Float>](), directions = [SIMD3<Float>]()
        origins.reserveCapacity(rays)
        directions.reserveCapacity(rays)
        let k = camera.intrinsics
        for _ in 0..<rays {
            let pixel = SIMD2(rng.uniform(-0.5...(Float(k.width) - 0.5)), rng.uniform(-0.5...(Float(k.height) - 0.5)))
            let ray = camera.ray(throughPixel: pixel)
            origins.append(ray.origin)
            directions.append(ray.direction)
        }
        var hits = [PlaneRayHit](repeating: .miss, count: rays)
        func cast() {
            origins.withUnsafeBufferPointer { o in
                directions.withUnsafeBufferPointer { d in
                    hits.withUnsafeMutableBufferPointer { kernel.castRays(origins: o, directions: d, bounds: .geometry, into: $0) }
                }
            }
        }
        cast()  // warm up
        let milliseconds = try BenchTimer.median(runs) { cast() }
        let ours = Double(rays) / (milliseconds / 1000)
        let hitShare = Double(hits.count { $0.isHit }) / Double(rays)
        let vertexCounts = detected.map(\.boundary.vertices.count)
        var report = RaycastBenchReport(planes: detected.count, rays: rays, runs: runs,
                                        polygonVertices: vertexCounts.reduce(0, +), largestPolygon: vertexCounts.max() ?? 0,
                                        hitShare: hitShare, planekitRaysPerSecond: ours)
        if !noOpen3d {
            do {
                try compareWithOpen3D(detected, origins: origins, directions: directions, ours: hits, report: &report)
            } catch {
                Diagnostics.warn("Open3D comparison skipped: \(error)")
            }
        }
        print(json ? try JSONOutput.string(report) : report.table)
    }

    /// The first `count` planes detected in generated rooms, in world coordinates, and the first
    /// room's camera.
    static func detectedPlanes(count: Int) throws -> ([DetectedPlane], PinholeCamera) {
        var result: [DetectedPlane] = []
        var camera: PinholeCamera?
        var seed: UInt64 = 1
        while result.count < count && seed <= 200 {
            let frame = SyntheticFrame(seed: seed)
            var configuration = OrganizedPlaneDetector.Configuration()
            configuration.up = frame.cloud.defaultUp
            let found = try OrganizedPlaneDetector(configuration: configuration).detect(in: frame.cloud)
            let world = HitTestPlane.from(found.planes, worldFromCloud: frame.pose).map(\.plane).filter { $0.boundary.vertices.count >= 3 }
            result += world.prefix(count - result.count)
            if camera == nil { camera = PinholeCamera(intrinsics: frame.intrinsics, pose: frame.pose) }
            seed += 1
        }
        guard let camera, result.count == count else { throw ValidationError("found only \(result.count) planes in 200 generated rooms") }
        return (result, camera)
    }

    private func compareWithOpen3D(_ planes: [DetectedPlane], origins: [SIMD3<Float>], directions: [SIMD3<Float>],
                                   ours: [PlaneRayHit], report: inout RaycastBenchReport) throws {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ValidationError("no Python at \(python) (run scripts/bench-raycast.sh, or pass --python)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-raycast-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var vertices: [Float] = [], triangles: [UInt32] = []
        for plane in planes {
            let base = UInt32(vertices.count / 3)
            for v in plane.boundary.vertices {
                let p = plane.transform.apply(toPoint: SIMD3(v.x, 0, v.y))
                vertices += [p.x, p.y, p.z]
            }
            for t in PolygonTriangulation.triangles(of: plane.boundary) {
                triangles += [base + UInt32(t.x), base + UInt32(t.y), base + UInt32(t.z)]
            }
        }
        var rayNumbers: [Float] = []
        rayNumbers.reserveCapacity(6 * origins.count)
        for (o, d) in zip(origins, directions) { rayNumbers += [o.x, o.y, o.z, d.x, d.y, d.z] }
        func write<T>(_ values: [T], _ name: String) throws {
            try values.withUnsafeBytes { try Data($0).write(to: folder.appendingPathComponent(name)) }
        }
        try write(vertices, "vertices.f32")
        try write(triangles, "triangles.u32")
        try write(rayNumbers, "rays.f32")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, folder.path, String(runs)]
        var environment = ProcessInfo.processInfo.environment
        for name in ["OMP_NUM_THREADS", "TBB_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"] { environment[name] = "1" }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("\(script) exited with status \(process.terminationStatus)") }
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let theirs = try JSONDecoder().decode(Open3DFigures.self, from: Data(line.utf8))
        let tHit = try Data(contentsOf: folder.appendingPathComponent("open3d_t_hit.f32"))
        guard tHit.count == 4 * ours.count else { throw ValidationError("Open3D wrote \(tHit.count / 4) distances for \(ours.count) rays") }
        var agree = 0
        tHit.withUnsafeBytes { raw in
            let distances = raw.bindMemory(to: Float.self)
            for i in 0..<ours.count {
                let t = distances[i]
                let theyHit = t.isFinite
                if theyHit == ours[i].isHit && (!theyHit || abs(t - ours[i].distance) <= 0.001) { agree += 1 }
            }
        }
        report.open3dVersion = theirs.open3d
        report.open3dThreads = theirs.threads
        report.triangles = theirs.triangles
        report.open3dRaysPerSecond = Double(theirs.rays) / theirs.medianSeconds
        report.agreement = Double(agree) / Double(ours.count)
    }
}

/// What the Open3D script prints.
private struct Open3DFigures: Decodable {
    let open3d: String
    let threads: Int?
    let medianSeconds: Double
    let rays: Int
    let triangles: Int

    enum CodingKeys: String, CodingKey {
        case open3d, threads, rays, triangles
        case medianSeconds = "median_seconds"
    }
}

/// The benchmark's figures.
struct RaycastBenchReport: Encodable {
    let planes: Int
    let rays: Int
    let runs: Int
    let polygonVertices: Int
    let largestPolygon: Int
    let hitShare: Double
    let planekitRaysPerSecond: Double
    var open3dVersion: String?
    var open3dThreads: Int?
    var triangles: Int?
    var open3dRaysPerSecond: Double?
    var agreement: Double?

    var table: String {
        var lines = [
            "\(planes) detected planes (\(polygonVertices) polygon vertices, largest \(largestPolygon)), \(rays) rays, \(String(format: "%.1f", 100 * hitShare))% hit",
            String(format: "PlaneKit existingPlaneGeometry  %8.2f M rays/s  (1 thread, median of %d)", planekitRaysPerSecond / 1e6, runs),
        ]
        if let theirs = open3dRaysPerSecond {
            lines.append(String(format: "Open3D %@ cast_rays  %8.2f M rays/s  (%@, %d triangles)", open3dVersion ?? "?", theirs / 1e6,
                                open3dThreads == 1 ? "nthreads=1" : "thread env vars = 1", triangles ?? 0))
            lines.append(String(format: "speed-up %.1f×, agreement on hit/miss and distance (1 mm) %.4f%%",
                                planekitRaysPerSecond / theirs, 100 * (agreement ?? 0)))
        } else {
            lines.append("Open3D: not compared")
        }
        if BuildConfiguration.isDebug { lines.append("NOT a release build: figures are meaningless") }
        return lines.joined(separator: "\n")
    }
}
