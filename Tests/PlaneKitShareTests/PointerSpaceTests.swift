import Foundation
import PlaneKitGeometry
import Testing

/// `planekit pointer` against real `stream --host/--join` processes on loopback. Every wait is
/// bounded; hosts are stopped with SIGTERM when the test is done with them.
@Suite("Pointers and the host's anchors over loopback", .serialized)
struct PointerSpaceTests {
    /// A plane as the events last described it.
    struct PlaneState {
        var identifier: String
        var classification: String
        var normal: SIMD3<Double>
        var offset: Double
        var centroid: SIMD3<Double>
        var area: Double
    }

    /// The planes of `events` named `names` (their last state; removed ones dropped), by identifier.
    static func planes(_ events: [[String: Any]], names: Set<String>, removal: String) -> [String: PlaneState] {
        var planes: [String: PlaneState] = [:]
        for event in events {
            guard let name = event["event"] as? String, names.contains(name) || name == removal,
                  let anchor = event["plane"] as? [String: Any], let id = anchor["identifier"] as? String,
                  let plane = anchor["plane"] as? [String: Any] else { continue }
            if name == removal { planes[id] = nil; continue }
            guard let hessian = plane["plane"] as? [String: Any], let n = hessian["normal"] as? [Double], n.count == 3,
                  let offset = hessian["offset"] as? Double, let c = plane["centroid"] as? [Double], c.count == 3 else { continue }
            planes[id] = PlaneState(identifier: id, classification: plane["classification"] as? String ?? "", normal: SIMD3(n[0], n[1], n[2]),
                                    offset: offset, centroid: SIMD3(c[0], c[1], c[2]), area: plane["area"] as? Double ?? 0)
        }
        return planes
    }

    /// A `pointer` event's ray and its first hit (plane and position).
    static func ray(_ event: [String: Any]) -> (origin: SIMD3<Double>, direction: SIMD3<Double>, plane: String?, hit: SIMD3<Double>?)? {
        guard let o = event["origin"] as? [Double], o.count == 3, let d = event["direction"] as? [Double], d.count == 3,
              let hits = event["hits"] as? [[String: Any]] else { return nil }
        return (SIMD3(o[0], o[1], o[2]), SIMD3(d[0], d[1], d[2]), hits.first?["planeIdentifier"] as? String, hits.first.flatMap(Self.position))
    }

    /// A hit's position (its `worldTransform`'s translation).
    static func position(_ hit: [String: Any]) -> SIMD3<Double>? {
        guard let transform = hit["worldTransform"] as? [String: Any], let m = transform["columnMajor"] as? [Double], m.count == 16 else { return nil }
        return SIMD3(m[12], m[13], m[14])
    }

    /// Where the ray meets `plane` (`nil` when parallel or behind).
    static func intersection(_ origin: SIMD3<Double>, _ direction: SIMD3<Double>, _ plane: PlaneState) -> SIMD3<Double>? {
        let along = dot3(plane.normal, direction)
        guard abs(along) > 1e-6 else { return nil }
        let t = -(dot3(plane.normal, origin) + plane.offset) / along
        return t > 0 ? origin + t * direction : nil
    }

    /// Attitude records: the phone's top edge pitched `degrees` (negative: down) from level, at 60 Hz from `start`.
    static func attitudes(pitch degrees: Double, count: Int, from start: Double) -> [String] {
        let half = degrees * .pi / 360
        return (0..<count).map { k in
            "{\"type\":\"attitude\",\"quaternion\":[\(sin(half)),0,0,\(cos(half))],\"timestamp\":\(start + Double(k) / 60)}"
        }
    }

    /// Writes the attitude file for a pointer calibrated level along `forward`: `floorCount`
    /// records pitched 80° down, the three bad records, then `wallCount` level ones.
    static func attitudeFile(in directory: URL, floorCount: Int, wallCount: Int) throws -> URL {
        var lines = attitudes(pitch: -80, count: floorCount, from: 100)
        let last = 100 + Double(floorCount - 1) / 60
        lines += [
            "{\"type\":\"attitude\",\"quaternion\":[NaN,0,0,1],\"timestamp\":\(last + 0.001)}",
            "{\"type\":\"attitude\",\"quaternion\":[0,0,0,2],\"timestamp\":\(last + 0.002)}",
            "{\"type\":\"attitude\",\"quaternion\":[0,0,0,1],\"timestamp\":\(last - 1)}",
        ]
        lines += attitudes(pitch: 0, count: wallCount, from: last + 0.1)
        let url = directory.appendingPathComponent("attitudes.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A pointer standing above the middle of `floor`, at `wall`'s centroid's height, facing the wall.
    static func placement(floor: PlaneState, wall: PlaneState) -> (origin: SIMD3<Double>, forward: SIMD3<Double>) {
        let origin = SIMD3(floor.centroid.x, wall.centroid.y, floor.centroid.z)
        var forward = wall.centroid - origin
        forward.y = 0
        return (origin, unit(forward))
    }

    /// `planekit pointer` named `phone`, reading `file`.
    static func pointer(port: Int, origin: SIMD3<Double>, forward: SIMD3<Double>, file: URL, in directory: URL) throws -> SpaceProcess {
        func argument(_ v: SIMD3<Double>) -> String { "\(v.x),\(v.y),\(v.z)" }
        return try SpaceProcess(
            "exec \"$PK\" pointer --join 127.0.0.1:\(port) --secret '\(SharedSpaceTests.secret)' --name phone --origin=\(argument(origin)) --forward=\(argument(forward)) < '\(file.path)'",
            name: "pointer", in: directory)
    }

    @Test func aPointerHitsTheHostsFloorThenAWallAndBadRecordsAreSkipped() throws {
        let directory = try SharedSpaceTests.directory("pointer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (host, port) = try SharedSpaceTests.host(frames: 60, taps: 0, in: directory)
        defer { host.interrupt(); host.wait(seconds: 30) }
        let planes = Self.planes(host.events, names: ["planeAdded", "planeUpdated"], removal: "planeRemoved")
        let floor = try #require(planes.values.filter { $0.classification == "floor" }.max { $0.area < $1.area }, "no floor: \(planes.count) planes")
        let wall = try #require(planes.values.filter { $0.classification == "wall" }.max { $0.area < $1.area }, "no wall")
        let (origin, forward) = Self.placement(floor: floor, wall: wall)
        let file = try Self.attitudeFile(in: directory, floorCount: 20, wallCount: 20)
        let pointer = try Self.pointer(port: port, origin: origin, forward: forward, file: file, in: directory)
        #expect(pointer.wait(seconds: 30) == 0, "\(pointer.errorText)")
        // Each bad record: one line naming it (records 21, 22, 23), and the good ones all sent.
        let lines = pointer.errorText.split(separator: "\n")
        for record in 21...23 { #expect(lines.filter { $0.contains("record \(record):") }.count == 1, "\(pointer.errorText)") }
        #expect(lines.filter { $0.contains("record ") }.count == 3)
        #expect(pointer.errorText.contains("sent 40 attitudes, 1 refused"), "\(pointer.errorText)")

        #expect(host.waitForEvent(seconds: 20) { ($0["event"] as? String == "pointer") && Self.ray($0)?.plane == wall.identifier })
        let events = host.events.named("pointer")
        #expect(events.allSatisfy { $0["peer"] as? String == "phone" })
        var floorHits = 0, wallHits = 0
        for event in events {
            let ray = try #require(Self.ray(event))
            #expect(gap(ray.origin, origin) < 1e-4)
            let level = abs(ray.direction.y) < 1e-3
            // Calibrated on the first attitude: its heading is --forward's, so level rays aim along it and down rays 80° below it.
            let expected = level ? forward : unit(forward * cos(80 * .pi / 180) + SIMD3(0, -sin(80 * .pi / 180), 0))
            #expect(gap(ray.direction, expected) < 1e-3, "\(ray.direction) vs \(expected)")
            let target = level ? wall : floor
            #expect(ray.plane == target.identifier, "a \(level ? "level" : "down") ray hit \(ray.plane ?? "nothing")")
            let hit = try #require(ray.hit), truth = try #require(Self.intersection(ray.origin, ray.direction, target))
            #expect(gap(hit, truth) < 0.02, "hit \(hit), intersection \(truth)")
            if level { wallHits += 1 } else { floorHits += 1 }
        }
        #expect(floorHits > 0 && wallHits > 0, "\(floorHits) floor hits, \(wallHits) wall hits")
        #expect(host.events.named("peerJoined").contains { $0["peer"] as? String == "phone" })
    }

    @Test func aJoinerGetsTheHostsAnchorsLiveAndItsPointerHitsThem() throws {
        let directory = try SharedSpaceTests.directory("anchors")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The host walks 90 frames in two halves with a pause between: the joiner comes in the
        // pause and sees the second half's plane changes live.
        let walk = directory.appendingPathComponent("walk.ndjson").path
        let host = try SpaceProcess(
            """
            "$PK" synth --seed 10 --frames 90 --stream-output '\(walk)' && size=$(wc -c < '\(walk)') && \
            { head -c $((size / 2)) '\(walk)'; sleep 8; tail -c +$((size / 2 + 1)) '\(walk)'; } | \
            exec "$PK" stream --host 127.0.0.1:0 --secret '\(SharedSpaceTests.secret)' --name host --linger 60
            """, name: "host", in: directory)
        defer { host.interrupt(); host.wait(seconds: 30) }
        let port = try #require(host.hostPort(seconds: 60), "the host printed no port: \(host.errorText)")
        let joiner = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 40 --world-offset 90,2,0,-1 | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret '\(SharedSpaceTests.secret)' --name joiner --linger 20",
            name: "joiner", in: directory)
        #expect(joiner.waitForEvent(seconds: 60) { $0["event"] as? String == "relocalized" }, "\(joiner.errorText)")
        // The host's anchors, as they reach the joiner.
        #expect(joiner.waitForEvent(seconds: 60) { ($0["event"] as? String)?.hasPrefix("anchor") == true && $0["peer"] as? String == "host" },
                "\(joiner.errorText)")
        // A pointer once the host has finished its walk: aimed at the shared floor from above its middle.
        #expect(host.waitForEvent(seconds: 60) { $0["event"] as? String == "focus" && $0["frame"] as? Int == 89 })
        let shared = Self.planes(joiner.events, names: ["anchorAdded", "anchorUpdated"], removal: "anchorRemoved")
        let floor = try #require(shared.values.filter { $0.classification == "floor" }.max { $0.area < $1.area },
                                 "no floor among the \(shared.count) anchors the host shared")
        let wall = try #require(Self.planes(host.events, names: ["planeAdded", "planeUpdated"], removal: "planeRemoved").values
            .filter { $0.classification == "wall" }.max { $0.area < $1.area })
        let (origin, forward) = Self.placement(floor: floor, wall: wall)
        let file = try Self.attitudeFile(in: directory, floorCount: 60, wallCount: 0)
        let pointer = try Self.pointer(port: port, origin: origin, forward: forward, file: file, in: directory)
        #expect(pointer.wait(seconds: 30) == 0, "\(pointer.errorText)")
        #expect(joiner.waitForEvent(seconds: 20) { $0["event"] as? String == "pointer" }, "\(joiner.errorText)")
        // Done with the joiner: SIGTERM ends its linger at once (status 0).
        joiner.interrupt()
        #expect(joiner.wait(seconds: 30) == 0, "\(joiner.errorText)")

        let events = joiner.events
        #expect(events.filter { ($0["event"] as? String)?.hasPrefix("anchor") == true }.allSatisfy { $0["peer"] as? String == "host" })
        let pointerEvents = events.named("pointer")
        #expect(!pointerEvents.isEmpty)
        // Each ray meets the floor the host shared (the joiner may also know it as its own, a little apart).
        for event in pointerEvents {
            let ray = try #require(Self.ray(event))
            let hits = try #require(event["hits"] as? [[String: Any]])
            let truth = try #require(Self.intersection(ray.origin, ray.direction, floor))
            let onFloor = hits.filter { $0["planeIdentifier"] as? String == floor.identifier }.compactMap(Self.position)
            #expect(onFloor.contains { gap($0, truth) < 0.02 }, "hits \(hits.map { $0["planeIdentifier"] ?? "-" }) miss the shared floor \(floor.identifier) at \(truth)")
        }
    }
}

private func dot3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
private func gap(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { dot3(a - b, a - b).squareRoot() }
private func unit(_ v: SIMD3<Double>) -> SIMD3<Double> { v / dot3(v, v).squareRoot() }
