import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitMaps
import PlaneKitCommandSupport
import PlaneKitSeededRandom
import PlaneKitSyntheticWalks

/// `planekit bench relocalization`: relocalization into generated rooms' maps — success rate,
/// frames, error, false relocalizations in unrelated rooms, and the time of one attempt —
/// next to Open3D's FPFH + RANSAC + ICP global registration on the same pairs.
struct BenchRelocalization: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relocalization",
        abstract: "Relocalize into generated rooms' maps; compare one attempt with Open3D's FPFH + RANSAC + ICP.",
        discussion: """
            For each of --walks rooms (seeds from --first-room, 1 by default): a mapping walk (--mapping-frames frames, every \
            second frame of the room's generated sequence) makes a map; a query walk comes back \
            along the mapped path with its own noise and its poses offset by a random turn about \
            +Y and shift (RevisitWalk), through a session that loaded the map, for up to 30 frames. \
            Reported: how many relocalized within 10 frames with ≤ 1 cm / 0.5° error (at the \
            camera), the frame, the error, and the median time of one registration attempt (every \
            attempt of every walk, one thread). Then --unrelated query walks in rooms the maps were \
            not made from (map i, room 1000 + k) count false relocalizations.

            With --python, every same-room pair (the map's points and normals; the frame the \
            session relocalized in, sampled as PlaneKit samples it, in its own world) is written \
            to a temporary folder and scripts/bench_open3d_relocalization.py runs Open3D's \
            global registration on it (5 cm voxels, FPFH, RANSAC on feature matches, then \
            point-to-plane ICP), timed per pair on one thread, its error measured the same way.

            With --sequence DIR, a recorded walk instead (a TUM RGB-D folder or a 7-Scenes \
            sequence, see bench tracking): a map of its first --mapping-frames frames (600 by \
            default) under their reference poses, then its last --query-frames frames (300 by \
            default) with their poses moved by an unknown rigid offset (seeded: a turn about +Y, a \
            shift of up to 3 m, and --tilt) through a session that loaded the map. Reported: the \
            frame it relocalized in and the error at the camera against the offset (goal: \
            ≤ 3 cm / 1°), how many of --unrelated generated walks (30 frames each, rooms 1000 \
            on) relocalized into the recorded walk's map (goal: none), the time of one attempt \
            and, unless --no-open3d, Open3D's global registration of the same frame against the \
            map.

            Build in release mode first (scripts/bench-relocalization.sh does it all).
            """)

    @Option(help: "Rooms mapped and revisited.")
    var walks = 20

    @Option(name: .customLong("first-room"), help: "Seed of the first room mapped (rooms first-room…first-room+walks−1), to replay one room.")
    var firstRoom: UInt64 = 1

    @Option(help: "Query walks in unrelated rooms (with --sequence: generated walks into the recorded walk's map).")
    var unrelated = 100

    @Option(name: .customLong("mapping-frames"), help: "Frames of each mapping walk (default 150; 600 with --sequence).")
    var mappingFrames: Int?

    @Option(help: "Query frames before a walk counts as not relocalized (default 30; with --sequence the last 300 frames).")
    var queryFrames: Int?

    @OptionGroup var recording: SequenceOptions

    @Option(help: ArgumentHelp("Tilt the query walks' world by this many degrees about a random horizontal axis (a session that never learnt which way is up): relocalization then searches every rotation, not only turns about +Y.", valueName: "DEGREES"))
    var tilt: Float = 0

    @Option(help: ArgumentHelp("Python with open3d and numpy, for the comparison.", valueName: "PATH"))
    var python = ".build-venv/bin/python3"

    @Option(help: ArgumentHelp("The Open3D side of the benchmark.", valueName: "PATH"))
    var script = "scripts/bench_open3d_relocalization.py"

    @Flag(help: """
        Print one line per registration attempt: planes, candidate pairs, hypotheses, best residual, where it stopped; \
        with --sequence, a second line with the same checks under the true offset, for the planes and for the frame's points \
        (where the known answer fails), and how far the points' registration landed from it.
        """)
    var log = false

    @Flag(name: .customLong("no-open3d"), help: "Report PlaneKit alone.")
    var noOpen3D = false

    /// A same-room pair for Open3D: source = the query frame's samples (session world), target = the map.
    struct Pair {
        var source: [(SIMD3<Float>, SIMD3<Float>)]
        var map: WorldMap
        var truth: Transform
        var camera: SIMD3<Float>
    }

    mutating func run() throws {
        guard walks >= 0, unrelated >= 0, (mappingFrames ?? 1) > 0, (queryFrames ?? 1) > 0, firstRoom < UInt64.max / 2, tilt.isFinite,
              abs(tilt) <= 180 else {
            throw ValidationError("--walks and --unrelated must not be negative, the frame counts positive, --first-room below 2⁶³, --tilt within ±180")
        }
        if BuildConfiguration.isDebug { Diagnostics.warn("this is a debug build; build with -c release for meaningful figures") }
        if let recorded = try recording.recorded() {
            try runRecorded(recorded)
            return
        }
        let mappingFrames = mappingFrames ?? 150, queryFrames = queryFrames ?? 30
        var attemptTimes: [Double] = []
        var maps: [WorldMap] = []
        var pairs: [Pair] = []
        var good = 0, relocalized = 0
        var errors: [(Float, Float)] = []
        for seed in firstRoom..<(firstRoom + UInt64(walks)) {
            let walk = RevisitWalk(seed: seed, mappingFrames: mappingFrames, tilt: tilt * .pi / 180)
            let map = try Self.map(walk)
            maps.append(map)
            let outcome = try Self.query(walk, map: map, frames: queryFrames, times: &attemptTimes, log: log ? "room \(seed)" : nil)
            var line = "room \(seed): \(map.anchors.count) anchors, \(map.points.count) points, "
            if let (frame, found, source, pose) = outcome {
                relocalized += 1
                let truth = walk.expectedMapFromQuery
                let (position, angle) = Self.error(found.mapFromSession, truth, at: pose.translation)
                errors.append((position, angle))
                if frame < 10, position <= 0.01, angle <= 0.5 * .pi / 180 { good += 1 }
                line += "relocalized in frame \(frame), error \(CFormat.string("%.2f mm, %.3f°", position * 1000, angle * 180 / .pi))"
                pairs.append(Pair(source: source, map: map, truth: truth, camera: pose.translation))
            } else {
                line += "not relocalized in \(queryFrames) frames"
            }
            print(line)
        }
        var falseCount = 0
        for k in 0..<unrelated where !maps.isEmpty {
            let m = k % maps.count
            let walk = RevisitWalk(seed: firstRoom + UInt64(m), queryRoomSeed: 1000 + UInt64(k), mappingFrames: mappingFrames,
                                   tilt: tilt * .pi / 180)
            let label = log ? "map \(firstRoom + UInt64(m)) in room \(1000 + k)" : nil
            if try Self.query(walk, map: maps[m], frames: queryFrames, times: &attemptTimes, log: label) != nil {
                falseCount += 1
                print("FALSE relocalization: map of room \(firstRoom + UInt64(m)) in room \(1000 + k)")
            }
        }
        attemptTimes.sort()
        func quantile(_ q: Double) -> Double { attemptTimes.isEmpty ? .nan : attemptTimes[min(attemptTimes.count - 1, Int(q * Double(attemptTimes.count)))] }
        print("PlaneKit: relocalized \(relocalized) of \(walks) walks, \(good) within 10 frames at ≤ 1 cm / 0.5°; false relocalizations \(falseCount) of \(unrelated) unrelated walks")
        if !errors.isEmpty {
            let p = errors.map(\.0).sorted(), a = errors.map(\.1).sorted()
            print(CFormat.string("PlaneKit: error median %.2f mm / %.3f°, worst %.2f mm / %.3f°", p[p.count / 2] * 1000,
                         a[a.count / 2] * 180 / .pi, p.last! * 1000, a.last! * 180 / .pi))
        }
        print(CFormat.string("PlaneKit: one attempt median %.2f ms, p90 %.2f ms, max %.2f ms over %d attempts", quantile(0.5), quantile(0.9),
                     attemptTimes.last ?? .nan, attemptTimes.count))
        guard !noOpen3D, !pairs.isEmpty else { return }
        do {
            try compareWithOpen3D(pairs)
        } catch {
            Diagnostics.warn("Open3D comparison skipped: \(error)")
        }
    }

    /// A depth frame with the pose the session is given and its time.
    typealias PosedFrame = (cloud: PointCloud, intrinsics: PinholeIntrinsics, pose: Transform, timestamp: Double)

    /// The map of a walk's mapping frames.
    static func map(_ walk: RevisitWalk) throws -> WorldMap {
        var workspace = RenderWorkspace()
        return try map(frames: walk.mappingFrames) { k in
            let f = walk.mappingFrame(k, workspace: &workspace)
            return (f.cloud, f.intrinsics, f.pose, f.timestamp)
        }
    }

    /// The map of `frames` frames through a session given their poses (a frame that is `nil`
    /// could not be read and is left out).
    static func map(frames: Int, _ frame: (Int) -> PosedFrame?) throws -> WorldMap {
        var session = Session(), mapping = MapTracking()
        for k in 0..<frames {
            guard let f = frame(k) else { continue }
            _ = try session.update(frame: f.cloud, intrinsics: f.intrinsics, pose: f.pose, timestamp: f.timestamp)
            _ = mapping.frameTracked(session: &session, cloud: f.cloud)
        }
        return mapping.map(of: session)
    }

    /// Query frames of a walk through a session that loaded `map` (``query(frames:map:times:log:_:)``).
    static func query(_ walk: RevisitWalk, map: WorldMap, frames: Int, times: inout [Double], log: String? = nil)
        throws -> (Int, Relocalization, [(SIMD3<Float>, SIMD3<Float>)], Transform)? {
        var workspace = RenderWorkspace()
        return try query(frames: frames, map: map, times: &times, log: log) { k in
            let f = walk.queryFrame(k, workspace: &workspace)
            return (f.cloud, f.intrinsics, f.pose, f.timestamp)
        }
    }

    /// Query frames through a session that loaded `map`; each frame's registration attempt (with
    /// the map sampling beside it) is timed, and printed after `log` when given, followed by the
    /// checks under `truth` (map-from-query) when that is known and the attempt failed. The frame,
    /// registration, samples and pose (query world) of a relocalization.
    static func query(frames: Int, map: WorldMap, times: inout [Double], log: String? = nil, truth: Transform? = nil,
                      _ frame: (Int) -> PosedFrame?)
        throws -> (Int, Relocalization, [(SIMD3<Float>, SIMD3<Float>)], Transform)? {
        var session = Session(), mapping = MapTracking()
        mapping.load(map, into: &session)
        for k in 0..<frames {
            guard let f = frame(k) else { continue }
            _ = try session.update(frame: f.cloud, intrinsics: f.intrinsics, pose: f.pose, timestamp: f.timestamp)
            let start = ContinuousClock.now
            let tracked = mapping.frameTracked(session: &session, cloud: f.cloud)
            times.append((ContinuousClock.now - start).milliseconds)
            if let log, let attempt = mapping.lastAttempt {
                print("  \(log) frame \(k): \(attempt.summary)")
                if let truth, tracked == nil, let check = mapping.check(mapFromSession: truth, session: session, cloud: f.cloud),
                   let points = mapping.checkPoints(mapFromSession: truth, session: session, cloud: f.cloud) {
                    var line = "  \(log) frame \(k) under the true offset: \(check.summary); by points: \(points.summary)"
                    if let found = attempt.pointRegistration {
                        let (position, angle) = error(found, truth, at: f.pose.translation)
                        line += CFormat.string("; the points' registration is %.1f cm, %.2f° off", position * 100, angle * 180 / .pi)
                    }
                    print(line)
                }
            }
            if let (found, _) = tracked {
                let samples = MapPointSampler.samples(of: f.cloud, stride: 4, reach: 4).map { (p, n) in
                    (f.pose.apply(toPoint: p), f.pose.apply(toDirection: n))
                }
                return (k, found, samples, f.pose)
            }
        }
        return nil
    }

    /// A recorded walk: the map of its first frames, then its last frames under an unknown offset.
    private func runRecorded(_ recorded: RecordedSequence) throws {
        let mappingCount = min(mappingFrames ?? 600, recorded.count)
        let queryCount = min(queryFrames ?? 300, recorded.count - mappingCount)
        guard queryCount > 0 else {
            throw ValidationError("\(recorded.name) has \(recorded.count) frames: none left to query after \(mappingCount) mapping frames")
        }
        // A frame that cannot be read is one warning and is left out.
        func frame(_ index: Int, moved offset: Transform = .identity) -> PosedFrame? {
            var cloud: PointCloud
            do {
                cloud = try recorded.cloud(index)
            } catch {
                Diagnostics.warn("\(recorded.name) frame \(index): \(error); left out")
                return nil
            }
            cloud.intrinsics = recorded.intrinsics
            return (cloud, recorded.intrinsics, offset * recorded.poses[index], recorded.timestamps[index])
        }
        let start = ContinuousClock.now
        let map = try Self.map(frames: mappingCount) { frame($0) }
        print("\(recorded.name) (\(recorded.layout.rawValue)): map of frames 0–\(mappingCount - 1): \(map.anchors.count) anchors, "
              + "\(map.points.count) points (" + CFormat.string("%.1f s", (ContinuousClock.now - start).milliseconds / 1000) + ")")
        var random = SeededRandom(seed: SeededRandom.derivedSeed(UInt64(recorded.count), stream: 77))
        let offset = RevisitWalk.randomOffset(&random, tilt: tilt * .pi / 180)
        let first = recorded.count - queryCount
        var times: [Double] = []
        let outcome = try Self.query(frames: queryCount, map: map, times: &times, log: log ? recorded.name : nil, truth: offset.inverse) {
            frame(first + $0, moved: offset)
        }
        var line = "\(recorded.name): query frames \(first)–\(recorded.count - 1) under an offset of "
            + CFormat.string("%.1f°, %.2f m: ", Quaternion(offset.rotation).angle * 180 / .pi, length(offset.translation))
        var pairs: [Pair] = []
        if let (k, found, source, pose) = outcome {
            pairs.append(Pair(source: source, map: map, truth: offset.inverse, camera: pose.translation))
            let (position, angle) = Self.error(found.mapFromSession, offset.inverse, at: pose.translation)
            let met = position <= 0.03 && angle <= .pi / 180
            line += "relocalized in query frame \(k) (frame \(first + k)), error "
                + CFormat.string("%.2f mm, %.3f°", position * 1000, angle * 180 / .pi) + (met ? " (within 3 cm / 1°)" : " (over 3 cm / 1°)")
        } else {
            line += "not relocalized in \(queryCount) frames"
        }
        print(line)
        // Rooms that are not in the map must never relocalize into it.
        var falseCount = 0
        for k in 0..<unrelated {
            let walk = RevisitWalk(seed: 1000 + UInt64(k), mappingFrames: 150)
            if try Self.query(walk, map: map, frames: 30, times: &times, log: log ? "generated room \(1000 + k)" : nil) != nil {
                falseCount += 1
                print("FALSE relocalization: generated room \(1000 + k)")
            }
        }
        print("generated rooms: false relocalizations \(falseCount) of \(unrelated) walks of 30 frames into the map")
        times.sort()
        if !times.isEmpty {
            print(CFormat.string("PlaneKit: one attempt median %.2f ms, max %.2f ms over %d attempts", times[times.count / 2], times.last!, times.count))
        }
        guard !noOpen3D, !pairs.isEmpty else { return }
        do {
            try compareWithOpen3D(pairs)
        } catch {
            Diagnostics.warn("Open3D comparison skipped: \(error)")
        }
    }

    /// Position error at `point` (m) and rotation error (rad) of `found` against `truth`.
    static func error(_ found: Transform, _ truth: Transform, at point: SIMD3<Float>) -> (Float, Float) {
        let position = distance(found.apply(toPoint: point), truth.apply(toPoint: point))
        return (position, Quaternion(found.rotation * truth.rotation.transposed).angle)
    }

    private func compareWithOpen3D(_ pairs: [Pair]) throws {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw ValidationError("no Python at \(python) (run scripts/bench-relocalization.sh, or pass --python)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-reloc-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (k, pair) in pairs.enumerated() {
            func numbers(_ points: [(SIMD3<Float>, SIMD3<Float>)]) -> [Float] { points.flatMap { [$0.0.x, $0.0.y, $0.0.z, $0.1.x, $0.1.y, $0.1.z] } }
            let target = numbers(Array(zip(pair.map.points, pair.map.normals)))
            let truth = pair.truth.columnMajor + [pair.camera.x, pair.camera.y, pair.camera.z]
            for (values, name) in [(numbers(pair.source), "source"), (target, "target"), (truth, "truth")] {
                try values.withUnsafeBytes { try Data($0).write(to: folder.appendingPathComponent("pair\(k)-\(name).f32")) }
            }
        }
        let outcome = try ChildProcess.run(python, [script, folder.path, String(pairs.count)], overrides: ChildProcess.singleThreaded)
        // The script prints its table; pass it on.
        print(String(decoding: outcome.output, as: UTF8.self), terminator: "")
        guard outcome.status == 0 else { throw ValidationError("\(script) exited with status \(outcome.status)") }
    }
}
