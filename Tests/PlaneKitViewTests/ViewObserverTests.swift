import Foundation
import PlaneKitGeometry
import PlaneKitStream
import PlaneKitTestSupport
import PlaneKitView
import Testing

/// `planekit view --join`: real `stream --host`, `stream --join` and `view --join` processes on
/// loopback, the view followed by a WebSocket client. Every wait is bounded.
@Suite("view --join: a shared space observed", .serialized)
struct ViewObserverTests {
    static let secret = "kitchen table 42"

    static func events(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// The translation of a `transform` object (its column-major `columnMajor` numbers).
    static func translation(_ transform: Any?) -> SIMD3<Float>? {
        guard let m = (transform as? [String: Any])?["columnMajor"] as? [Double], m.count == 16 else { return nil }
        return SIMD3(Float(m[12]), Float(m[13]), Float(m[14]))
    }

    /// The final position of every object in `events` (its last event), by identifier.
    static func finalObjects(_ events: [[String: Any]]) -> [String: SIMD3<Float>] {
        var positions: [String: SIMD3<Float>] = [:]
        for event in events where (event["event"] as? String)?.hasPrefix("object") == true {
            guard let object = event["object"] as? [String: Any], let id = object["identifier"] as? String else { continue }
            positions[id] = event["event"] as? String == "objectRemoved" ? nil : translation(object["transform"])
        }
        return positions
    }

    /// The plane anchors alive at the end of `events`, by identifier.
    static func finalPlanes(_ events: [[String: Any]]) -> Set<String> {
        var planes: Set<String> = []
        for event in events {
            guard let id = (event["plane"] as? [String: Any])?["identifier"] as? String else { continue }
            if event["event"] as? String == "planeRemoved" { planes.remove(id) } else { planes.insert(id) }
        }
        return planes
    }

    /// A `planekit` command with its input from `input` (`exec`: the process is the command, so
    /// stopping it stops the command).
    static func planekit(_ arguments: String, input: String, in directory: URL) throws -> TestProcess {
        try TestProcess(["/bin/sh", "-c", "exec \"$PK\" \(arguments) < \"$IN\""],
                        environment: ["PK": TestProcess.product("planekit"), "IN": input], directory: directory)
    }

    /// `planekit stream --host` on a loopback port of its choosing, as peer `host`, walking
    /// `input` and lingering 60 s after it; the process (stop it when done) and its port, once it
    /// hosts.
    static func host(walking input: String, in directory: URL) throws -> (process: TestProcess, port: Int) {
        let host = try planekit("stream --host 127.0.0.1:0 --secret '\(secret)' --name host --linger 60", input: input, in: directory)
        #expect(host.waitForOutput(containing: "hosting a shared space on", timeout: .seconds(60)))
        let hostPort = try #require(port(after: "hosting a shared space on 127.0.0.1:", in: host.errorOutput), "\(host.errorOutput)")
        return (host, hostPort)
    }

    /// A WebSocket client of `view` (a `view --join` process), once it serves.
    static func client(of view: TestProcess) throws -> RawWebSocket {
        #expect(view.waitForOutput(containing: "until interrupted", timeout: .seconds(60)), "\(view.errorOutput)")
        let viewPort = try #require(port(after: "view at http://127.0.0.1:", in: view.errorOutput), "\(view.errorOutput)")
        let client = try RawWebSocket(port: viewPort, timeout: 30)
        try client.handshake()
        return client
    }

    /// The number after `prefix` in `text`.
    static func port(after prefix: String, in text: String) -> Int? {
        guard let range = text.range(of: prefix) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }

    @Test("a snapshot holds each other peer's latest camera until it leaves")
    func participantsInSnapshots() throws {
        let hub = ViewHub()
        func pose(_ peer: String, _ x: Float) -> StreamEvent {
            .peer(PeerEvent(frame: 0, timestamp: Double(x), peer: peer, kind: .participant(Transform(translation: SIMD3(x, 0, 0)))))
        }
        hub.observe([pose("anna", 1), pose("bert", 2), pose("anna", 3)])
        var shown = hub.snapshot().filter { $0.contains(#""event":"participant""#) }.map(Self.events).compactMap(\.first)
        #expect(shown.map { $0["peer"] as? String } == ["anna", "bert"])
        #expect(shown.map { Self.translation($0["transform"])?.x } == [3, 2])
        hub.observe([.peer(PeerEvent(frame: 0, timestamp: 4, peer: "anna", kind: .left(reason: "left")))])
        shown = hub.snapshot().filter { $0.contains(#""event":"participant""#) }.map(Self.events).compactMap(\.first)
        #expect(shown.map { $0["peer"] as? String } == ["bert"])
    }

    @Test func theObserverShowsTheMapEveryParticipantAndTheirObjects() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-observer-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let planekit = TestProcess.product("planekit")
        // The host walks the room and places one object; the joiner, in a world of its own
        // (turned 90° and shifted 2 m), walks it again and places two.
        let walks = try [("host", "--taps 1"), ("joiner", "--taps 2 --world-offset 90,2,0,-1")].map { name, extra in
            try TestProcess(["/bin/sh", "-c", "exec \"$PK\" synth --seed 10 --frames 60 \(extra) > \"$OUT\""],
                            environment: ["PK": planekit, "OUT": directory.appendingPathComponent("\(name).stream").path],
                            directory: directory)
        }
        for walk in walks { #expect(walk.waitForExit(timeout: .seconds(60)) == 0) }

        let (host, hostPort) = try Self.host(walking: directory.appendingPathComponent("host.stream").path, in: directory)
        defer { host.stop() }
        // The observer comes once the host has walked the room: the map it gets is the whole walk's.
        let walked = ContinuousClock.now + .seconds(60)
        while !Self.events(host.output).contains(where: { $0["event"] as? String == "focus" && $0["frame"] as? Int == 59 }),
              host.isRunning, ContinuousClock.now < walked { usleep(20_000) }

        let view = try TestProcess([planekit, "view", "--join", "127.0.0.1:\(hostPort)", "--secret", Self.secret,
                                    "--name", "observer", "--listen", "127.0.0.1:0"], directory: directory)
        defer { view.stop() }
        let client = try Self.client(of: view)

        let joiner = try Self.planekit("stream --join 127.0.0.1:\(hostPort) --secret '\(Self.secret)' --name joiner --linger 1",
                                       input: directory.appendingPathComponent("joiner.stream").path, in: directory)
        defer { joiner.stop() }
        // Everything the view pushes until the joiner has left (or 90 s, or 100 000 lines).
        var lines: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(90)
        _ = client.readLines { line in
            if let event = Self.events(line).first { lines.append(event) }
            let left = lines.last.map { $0["event"] as? String == "peerLeft" && $0["peer"] as? String == "joiner" } ?? false
            return left || lines.count >= 100_000 || ContinuousClock.now > deadline
        }
        #expect(joiner.waitForExit(timeout: .seconds(60)) == 0, "\(joiner.errorOutput)")
        let hostEvents = Self.events(host.output), joinerEvents = Self.events(joiner.output)

        // The host's map: exactly the planes the host's walk ended with.
        let shownPlanes = Self.finalPlanes(lines)
        #expect(shownPlanes.count >= 3)
        #expect(shownPlanes == Self.finalPlanes(hostEvents))
        // The observer is a peer for the others; the joiner comes and goes.
        #expect(hostEvents.contains { $0["event"] as? String == "peerJoined" && $0["peer"] as? String == "observer" })
        #expect(lines.contains { $0["event"] as? String == "peerJoined" && $0["peer"] as? String == "joiner" })
        #expect(lines.last?["event"] as? String == "peerLeft")

        // The joiner's camera, live: every participant pose is one of the joiner's own camera
        // poses in the shared world (within 1 cm).
        let participants = lines.filter { $0["event"] as? String == "participant" && $0["peer"] as? String == "joiner" }
            .compactMap { Self.translation($0["transform"]) }
        let cameras = joinerEvents.filter { $0["event"] as? String == "camera" }.compactMap { Self.translation($0["transform"]) }
        #expect(participants.count >= 5, "\(participants.count) participant events for the joiner")
        let far = participants.filter { p in !cameras.contains { distance($0, p) < 0.01 } }
        #expect(far.isEmpty, "\(far.count) of \(participants.count) participant poses match none of the joiner's cameras")

        // The joiner's objects (numbered in its range, above the host's restored from the map),
        // with `peer`, where the joiner has them (within 1 cm).
        let placed = Self.finalObjects(joinerEvents.filter { $0["peer"] == nil })
            .filter { (Int($0.key.dropFirst("object-".count)) ?? 0) > 1_000_000 }
        let shown = Self.finalObjects(lines.filter { $0["peer"] as? String == "joiner" })
        #expect(placed.count == 2)
        #expect(Set(shown.keys) == Set(placed.keys), "shown \(shown.keys), placed \(placed.keys)")
        for (id, position) in placed {
            if let seen = shown[id] { #expect(distance(seen, position) < 0.01, "\(id) at \(seen), placed at \(position)") }
        }
        // The host's object, too (from the map and the object messages).
        #expect(lines.contains { $0["event"] as? String == "objectAdded" && ($0["object"] as? [String: Any])?["identifier"] as? String == "object-1" })
    }

    @Test func theObserverFollowsAHostHandOver() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-observer-handover-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let planekit = TestProcess.product("planekit")
        let walk = directory.appendingPathComponent("walk.stream").path
        let synth = try TestProcess(["/bin/sh", "-c", "exec \"$PK\" synth --seed 10 --frames 30 > \"$OUT\""],
                                    environment: ["PK": planekit, "OUT": walk], directory: directory)
        #expect(synth.waitForExit(timeout: .seconds(60)) == 0)

        let (host, hostPort) = try Self.host(walking: walk, in: directory)
        defer { host.stop() }
        // Anna walks the same room and stays: she is the host's successor.
        let anna = try Self.planekit("stream --join 127.0.0.1:\(hostPort) --secret '\(Self.secret)' --name anna --linger 60", input: walk, in: directory)
        defer { anna.stop() }
        let relocalized = ContinuousClock.now + .seconds(60)
        while !Self.events(anna.output).contains(where: { $0["event"] as? String == "relocalized" }), anna.isRunning,
              ContinuousClock.now < relocalized { usleep(20_000) }

        let view = try TestProcess([planekit, "view", "--join", "127.0.0.1:\(hostPort)", "--secret", Self.secret,
                                    "--name", "observer", "--listen", "127.0.0.1:0"], directory: directory)
        defer { view.stop() }
        let client = try Self.client(of: view)

        // The host dies without a word: the observer rejoins Anna and says so.
        kill(host.processIdentifier, SIGKILL)
        #expect(host.waitForExit(timeout: .seconds(10)) != 0)
        var lines: [[String: Any]] = []
        let deadline = ContinuousClock.now + .seconds(30)
        _ = client.readLines { line in
            if let event = Self.events(line).first { lines.append(event) }
            return lines.last?["event"] as? String == "hostChanged" || lines.count >= 100_000 || ContinuousClock.now > deadline
        }
        #expect(lines.last?["event"] as? String == "hostChanged")
        #expect(lines.last?["peer"] as? String == "anna")
        #expect(lines.contains { $0["event"] as? String == "peerLeft" && $0["peer"] as? String == "host" })
        #expect(view.waitForOutput(containing: "anna hosts the space now", timeout: .seconds(10)), "\(view.errorOutput)")
        #expect(view.isRunning)
        #expect(!view.errorOutput.contains("the host closed the space"), "\(view.errorOutput)")
    }
}
