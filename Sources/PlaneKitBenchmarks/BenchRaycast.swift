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
import PlaneKitSeededRandom
import PlaneKitSyntheticWalks
import PlaneKitPlanes

/// `planekit bench raycast`: PlaneKit's `existingPlaneGeometry` ray kernel against Open3D's
/// Embree-backed `RaycastingScene.cast_rays` on the same planes, one thread each, same run.
struct BenchRaycast: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raycast",
        abstract: "Time ray casts against 20 detected planes next to Open3D (Embree).",
        discussion: """
            The scene is ONE generated room (SyntheticSequence seeds 1, 2, … until a room has \
            --planes surfaces): 12 frames spread around its camera loop, planes detected in each \
            by PlaneKit's organized detector and moved to world coordinates with the frame's \
            pose, each real surface kept once (its detection with most points; a detection \
            belongs to the ground-truth surface of most of its pixels), the --planes largest \
            taken with their outline polygons. --rays rays go from those 12 cameras (an equal \
            run of consecutive rays from each, as frames would bring them) through random pixels \
            (seeded), so they start inside the room as a device's would. PlaneKit's batch kernel casts them (existingPlaneGeometry: nearest hit inside \
            a plane's polygon); rays per second on one thread, the median of --runs runs. The \
            output names the room, the planes and their total polygon vertices.

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

    @Option(help: ArgumentHelp("Write the scene (planes and cameras, as JSON) here, to time it again later with --scene.",
                               valueName: "PATH"))
    var saveScene: String?

    @Option(help: ArgumentHelp("Read the scene from this file (written by --save-scene) instead of detecting it: for quick "
                               + "repeated measurements, e.g. instruction counts under callgrind.", valueName: "PATH"))
    var scene: String?

    @Flag(help: "Time PlaneKit alone.")
    var noOpen3d = false

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    mutating func run() throws {
        guard planes > 0, rays > 0, runs > 0 else { throw ValidationError("--planes, --rays and --runs must be positive") }
        if BuildConfiguration.isDebug {
            Diagnostics.warn("this is a debug build; build with -c release for meaningful figures")
        }
        let scene: Scene
        if let path = self.scene {
            scene = try JSONDecoder().decode(Scene.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } else {
            scene = try BenchRaycast.detectedPlanes(count: planes)
        }
        if let path = saveScene {
            try JSONEncoder().encode(scene).write(to: URL(fileURLWithPath: path))
        }
        let detected = scene.planes
        let kernel = PlaneRaycastKernel(planes: detected)
        var rng = SeededRandom(seed: seed)
        var origins = [SIMD3<Float>](), directions = [SIMD3<Float>]()
        origins.reserveCapacity(rays)
        directions.reserveCapacity(rays)
        for _ in 0..<rays {
            // A batch from one camera after another, as frames would bring them.
            let camera = scene.cameras[origins.count * scene.cameras.count / rays]
            let k = camera.intrinsics
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
        var report = RaycastBenchReport(roomSeed: scene.seed, frames: scene.cameras.count, planes: detected.count, rays: rays, runs: runs,
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

    /// The benchmark's scene: planes detected in ONE generated room, in world coordinates, and
    /// the cameras that saw them.
    struct Scene: Codable {
        /// The room's seed.
        var seed: UInt64
        /// The planes, largest first: one per real surface of the room.
        var planes: [DetectedPlane]
        /// The camera of every frame the planes were detected in.
        var cameras: [PinholeCamera]
    }

    /// Frames detected per room, spread evenly around its camera loop.
    static let framesPerRoom = 12

    /// `count` planes detected in one generated room: for room seeds 1, 2, …, renders
    /// ``framesPerRoom`` frames spread evenly around the room's camera loop
    /// (`SyntheticSequence`), detects planes in each, moves them to world coordinates with the
    /// frame's pose, and keeps each real surface once (a detection's surface is the ground-truth
    /// label of most of its pixels; of several detections of one surface the one with most points
    /// is kept). The first room with at least `count` surfaces gives its `count` largest.
    static func detectedPlanes(count: Int) throws -> Scene {
        var mostFound = 0
        for seed in UInt64(1)...200 {
            let sequence = SyntheticSequence(seed: seed)
            let loopSeconds = Double(sequence.path.length / max(sequence.path.speed, 1e-3))
            var bestBySurface: [UInt16: DetectedPlane] = [:]
            var cameras: [PinholeCamera] = []
            for k in 0..<framesPerRoom {
                let index = Int((Double(k) / Double(framesPerRoom) * loopSeconds * sequence.frameRate).rounded())
                let frame = sequence.frame(at: index)
                cameras.append(PinholeCamera(intrinsics: frame.intrinsics, pose: frame.pose))
                var configuration = OrganizedPlaneDetector.Configuration()
                configuration.up = frame.cloud.defaultUp
                let found = try OrganizedPlaneDetector(configuration: configuration).detect(in: frame.cloud)
                // Truth labels under each detected plane's pixels.
                var votes = [[UInt16: Int]](repeating: [:], count: found.planes.count)
                for (label, truth) in zip(found.labels, frame.labels) where label > 0 && truth > 0 {
                    votes[Int(label) - 1][truth, default: 0] += 1
                }
                let world = HitTestPlane.from(found.planes, worldFromCloud: frame.pose).map(\.plane)
                for (plane, vote) in zip(world, votes) where plane.boundary.vertices.count >= 3 {
                    guard let (surface, pixels) = vote.max(by: { $0.value < $1.value }), 2 * pixels > plane.pointCount else { continue }
                    if plane.pointCount > bestBySurface[surface]?.pointCount ?? 0 { bestBySurface[surface] = plane }
                }
            }
            mostFound = max(mostFound, bestBySurface.count)
            if bestBySurface.count >= count {
                let planes = bestBySurface.values.sorted { ($0.pointCount, $0.label) > ($1.pointCount, $1.label) }
                return Scene(seed: seed, planes: Array(planes.prefix(count)), cameras: cameras)
            }
        }
        throw ValidationError("no generated room (seeds 1–200) has \(count) detected surfaces; the most was \(mostFound)")
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

        let outcome = try ChildProcess.run(python, [script, folder.path, String(runs)], overrides: ChildProcess.singleThreaded)
        guard outcome.status == 0 else { throw ValidationError("\(script) exited with status \(outcome.status)") }
        let line = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
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
    let roomSeed: UInt64
    let frames: Int
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
            "room \(roomSeed): \(planes) detected planes (one per surface, from \(frames) frames; \(polygonVertices) polygon vertices, largest \(largestPolygon))",
            "\(rays) rays from those \(frames) cameras (one after another) through random pixels, \(CFormat.string("%.1f", 100 * hitShare))% hit",
            CFormat.string("PlaneKit existingPlaneGeometry  %8.2f M rays/s  (1 thread, median of %d)", planekitRaysPerSecond / 1e6, runs),
        ]
        if let theirs = open3dRaysPerSecond {
            lines.append("Open3D \(open3dVersion ?? "?") cast_rays  " + CFormat.string("%8.2f M rays/s", theirs / 1e6)
                         + "  (\(open3dThreads == 1 ? "nthreads=1" : "thread env vars = 1"), \(triangles ?? 0) triangles)")
            lines.append(CFormat.string("speed-up %.1f×, agreement on hit/miss and distance (1 mm) %.4f%%",
                                planekitRaysPerSecond / theirs, 100 * (agreement ?? 0)))
        } else {
            lines.append("Open3D: not compared")
        }
        if BuildConfiguration.isDebug { lines.append("NOT a release build: figures are meaningless") }
        return lines.joined(separator: "\n")
    }
}
