import Foundation
import NIOCore
import PlaneKitGeometry
import PlaneKitHitTesting
@testable import PlaneKitShare
import PlaneKitStream
import PlaneKitTestSupport
import PlaneKitAnchors
import Testing

/// Real `planekit stream --host/--join` processes on loopback. Every wait is bounded; the host
/// is stopped with SIGTERM once the test is done with it (it then writes its statistics).
@Suite("Shared spaces over loopback", .serialized)
struct SharedSpaceTests {
    static let secret = "kitchen table 42"

    static func directory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-share-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func host(frames: Int, taps: Int, extra: String = "", in directory: URL) throws -> (SpaceProcess, Int) {
        let host = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames \(frames) --taps \(taps) | exec \"$PK\" stream --host 127.0.0.1:0 --secret '\(secret)' --name host --linger 60 \(extra)",
            name: "host", in: directory)
        let port = try #require(host.hostPort(seconds: 60), "the host printed no port: \(host.errorText)")
        // Joiners come once the host has walked the room: the map they get is the whole walk's.
        #expect(host.waitForEvent(seconds: 120) { $0["event"] as? String == "focus" && $0["frame"] as? Int == frames - 1 })
        return (host, port)
    }

    /// The final position of every object in `events` (its last event), by identifier.
    static func finalPositions(_ events: [[String: Any]]) -> [String: SIMD3<Double>] {
        var positions: [String: SIMD3<Double>] = [:]
        for event in events where (event["event"] as? String)?.hasPrefix("object") == true {
            guard let id = event.objectIdentifier else { continue }
            positions[id] = event["event"] as? String == "objectRemoved" ? nil : event.objectPosition
        }
        return positions
    }

    @Test func aJoinerRelocalizesAndObjectsAppearAtTheSamePlaceEverywhere() throws {
        let directory = try Self.directory("objects")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Where the joiner's taps land in the true world: the same walk, alone and without an offset.
        let truth = try SpaceProcess("\"$PK\" synth --seed 10 --frames 60 --taps 2 | exec \"$PK\" stream", name: "truth", in: directory)
        let (host, port) = try Self.host(frames: 120, taps: 1, in: directory)
        // The joiner's device has a world of its own: turned 90° and shifted 2 m.
        let joiner = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 60 --taps 2 --world-offset 90,2,0,-1 | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret '\(Self.secret)' --name joiner --linger 1",
            name: "joiner", in: directory)
        #expect(joiner.wait(seconds: 120) == 0, "\(joiner.errorText)")
        #expect(truth.wait(seconds: 120) == 0)
        // Let the host take in the joiner's last changes, then stop it.
        _ = host.waitForError(containing: "never", seconds: 1)
        host.interrupt()
        #expect(host.wait(seconds: 30) == 0, "\(host.errorText)")

        let hostEvents = host.events, joinerEvents = joiner.events, truthEvents = truth.events
        #expect(joinerEvents.named("mapLoaded").count == 1)
        #expect(joinerEvents.named("relocalized").count == 1, "the joiner did not relocalize into the host's map")
        #expect(hostEvents.named("peerJoined").contains { $0["peer"] as? String == "joiner" })
        #expect(hostEvents.named("peerLeft").contains { $0["peer"] as? String == "joiner" })

        // The host's object, at the joiner, with the same identifier, from the host, where the host has it.
        let hostObjects = Self.finalPositions(hostEvents.filter { $0["peer"] == nil })
        let hostObject = try #require(hostObjects["object-1"], "the host placed no object")
        let fromHost = joinerEvents.filter { $0["peer"] as? String == "host" && $0.objectIdentifier == "object-1" }
        let atJoiner = try #require(fromHost.last?.objectPosition, "the host's object-1 never reached the joiner")
        #expect(simd_distance(atJoiner, hostObject) < 0.01)

        // The joiner's objects, at the host, numbered in the joiner's range, where they truly are.
        let fromJoiner = Self.finalPositions(hostEvents.filter { $0["peer"] as? String == "joiner" })
        let truthObjects = Self.finalPositions(truthEvents)
        #expect(fromJoiner.count == 2 && truthObjects.count == 2, "\(fromJoiner.keys) \(truthObjects.keys)")
        for (shared, alone) in [("object-1000001", "object-1"), ("object-1000002", "object-2")] {
            let p = try #require(fromJoiner[shared], "\(shared) never reached the host")
            let q = try #require(truthObjects[alone])
            #expect(simd_distance(p, q) < 0.01, "\(shared) at \(p), truly at \(q)")
        }
        // The joiner's camera at the host, in the shared world: one of the joiner's own camera poses.
        let participants = hostEvents.named("participant").filter { $0["peer"] as? String == "joiner" }
        #expect(!participants.isEmpty)
        let joinerCameras = joinerEvents.named("camera").compactMap(\.translation)
        if let seen = participants.last?.translation {
            #expect(joinerCameras.contains { simd_distance($0, seen) < 1e-4 })
        }
    }

    @Test func wrongSecretsGarbageAndFullSpacesAreRefusedAndTheSpaceGoesOn() throws {
        let directory = try Self.directory("refusals")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (host, port) = try Self.host(frames: 20, taps: 0, extra: "--max-peers 2", in: directory)

        // A wrong secret: the joiner fails with one line, the host refuses it.
        let stranger = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 5 | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret 'not the secret' --name stranger",
            name: "stranger", in: directory)
        #expect(stranger.wait(seconds: 60) == 1)
        #expect(stranger.errorText.contains("cannot join the space"), "\(stranger.errorText)")

        // Garbage bytes on the TCP port, and forged datagrams on the UDP port.
        try Self.sendGarbage(tcpPort: port, bytes: 4096)
        for length in [4, 100, 100, 100, 1500] { try Self.sendDatagram(port: port, length: length) }

        // A member fills the space (host + 1); a third is refused as the space is full.
        let member = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 30 | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret '\(Self.secret)' --name member --linger 30",
            name: "member", in: directory)
        _ = try #require(member.waitForError(containing: "joined host's space", seconds: 60), "\(member.errorText)")
        let third = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 5 | exec \"$PK\" stream --join 127.0.0.1:\(port) --secret '\(Self.secret)' --name third",
            name: "third", in: directory)
        #expect(third.wait(seconds: 60) == 1)
        #expect(third.errorText.contains("full"), "\(third.errorText)")

        member.interrupt()
        #expect(member.wait(seconds: 30) == 0, "\(member.errorText)")
        _ = host.waitForError(containing: "never", seconds: 0.5)
        host.interrupt()
        #expect(host.wait(seconds: 30) == 0, "\(host.errorText)")

        let events = host.events
        let refused = events.named("peerRefused").compactMap { $0["reason"] as? String }
        #expect(refused.contains { $0.contains("TLS handshake failed") }, "\(refused)")
        #expect(refused.contains { $0.contains("full") }, "\(refused)")
        #expect(refused.contains { $0.contains("failed authentication") }, "\(refused)")
        // The member was let in and left; nothing else stopped the space.
        #expect(events.named("peerJoined").count == 1)
        let statistics = try #require(events.named("shareStatistics").last)
        #expect(statistics["datagramsTampered"] as? Int == 5)
        #expect((statistics["peersRefused"] as? Int ?? 0) >= 3)
        // One stderr line for each refusal, none for the flood beyond the first datagram.
        let lines = host.errorText.split(separator: "\n").filter { $0.contains("share:") }
        #expect(lines.count == refused.count)
    }

    @Test func replayedStaleAndTamperedPosesAreCountedAndOversizedMessagesDropThePeer() throws {
        let directory = try Self.directory("member")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (host, port) = try Self.host(frames: 20, taps: 0, in: directory)
        // A member of the space, in this process: it knows the pose key, so it can forge nothing
        // but can replay and reorder its own datagrams.
        let probe = try ShareJoiner(address: .loopback(port: port), credentials: try SpaceCredentials(secret: Array(Self.secret.utf8)),
                                    name: "probe", inbox: ShareInbox(), progress: { _, _ in }, timeout: 30)
        func pose(_ sequence: UInt64) throws -> [UInt8] {
            try PoseDatagram(sender: probe.me.id, sequence: sequence, timestamp: 0, transform: .identity).sealed(with: probe.poseKey)
        }
        var tampered = try pose(9)
        tampered[40] ^= 1
        for datagram in [try pose(1), try pose(1), try pose(5), try pose(3), tampered] { probe.sendPose(datagram) }
        #expect(host.waitForEvent(seconds: 30) { ($0["reason"] as? String)?.contains("replayed or stale") == true })
        #expect(host.waitForEvent(seconds: 30) { ($0["reason"] as? String)?.contains("failed authentication") == true })
        // A message announcing 2 MiB: the host drops the peer at the length prefix.
        var oversized = probe.tcp.allocator.buffer(capacity: 16)
        oversized.writeBytes([0, 0x20, 0, 0, ShareLimits.version, 5])
        try probe.tcp.writeAndFlush(oversized).wait()
        #expect(host.waitForEvent(seconds: 30) { $0["event"] as? String == "peerLeft" && $0["peer"] as? String == "probe" })
        probe.close()
        host.interrupt()
        #expect(host.wait(seconds: 30) == 0, "\(host.errorText)")

        let events = host.events
        let left = try #require(events.named("peerLeft").first { $0["peer"] as? String == "probe" })
        #expect((left["reason"] as? String)?.contains("more than the 1048576 allowed") == true, "\(left)")
        let statistics = try #require(events.named("shareStatistics").last)
        #expect(statistics["datagramsAccepted"] as? Int == 2)
        #expect(statistics["datagramsStale"] as? Int == 2)
        #expect(statistics["datagramsTampered"] as? Int == 1)
        #expect(events.named("participant").allSatisfy { $0["peer"] as? String == "probe" })
    }

    @Test func concurrentChangesOfOneObjectConvergeOnTheHighestVersionAndName() throws {
        let directory = try Self.directory("converge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (host, port) = try Self.host(frames: 20, taps: 0, in: directory)
        let credentials = try SpaceCredentials(secret: Array(Self.secret.utf8))
        let annaInbox = ShareInbox(), bertInbox = ShareInbox()
        let anna = try ShareJoiner(address: .loopback(port: port), credentials: credentials, name: "anna", inbox: annaInbox,
                                   progress: { _, _ in }, timeout: 30)
        let bert = try ShareJoiner(address: .loopback(port: port), credentials: credentials, name: "bert", inbox: bertInbox,
                                   progress: { _, _ in }, timeout: 30)
        // Both change anna's object at once, each as its version 3: (3, "bert") must win everywhere.
        func state(_ author: String, x: Float) -> SharedObject {
            SharedObject(ObjectAnchor(identifier: PlacedObjectIdentifier(UInt64(anna.me.id) * ShareLimits.objectRange + 1), anchorNumber: 0,
                                      name: "vase", size: SIMD3(0.2, 0.4, 0.2), transform: Transform(translation: SIMD3(x, 0, 1)),
                                      planeIdentifier: nil, alignment: .horizontal),
                         version: 3, author: author, removed: false)
        }
        anna.send(.object(state("anna", x: 1)))
        bert.send(.object(state("bert", x: 2)))
        // Anna hears of Bert's change: relayed, or sent back as the winner over hers.
        var annaHeard: [SharedObject] = []
        let deadline = Date(timeIntervalSinceNow: 30)
        while !annaHeard.contains(where: { $0.author == "bert" }), Date() < deadline {
            for case .object(let object, _) in annaInbox.take().inputs { annaHeard.append(object) }
            usleep(10_000)
        }
        #expect(annaHeard.last?.author == "bert")
        #expect(annaHeard.last?.transform.translation.x == 2)
        // Bert never hears of a state that beats his.
        let bertHeard = bertInbox.take().inputs.compactMap { input -> SharedObject? in
            if case .object(let object, _) = input { return object }
            return nil
        }
        #expect(bertHeard.allSatisfy { !$0.supersedes(state("bert", x: 2)) })
        anna.close()
        bert.close()
        _ = host.waitForEvent(seconds: 10) { $0["event"] as? String == "peerLeft" && $0["peer"] as? String == "bert" }
        host.interrupt()
        #expect(host.wait(seconds: 30) == 0, "\(host.errorText)")
        // The host's session ends with Bert's state.
        let changes = host.events.filter { ($0.objectIdentifier ?? "").hasPrefix("object-") && $0["peer"] != nil }
        #expect(changes.last?["peer"] as? String == "bert")
        #expect(changes.last?.objectPosition.map { abs($0.x - 2) < 1e-6 } == true)
    }

    static func sendGarbage(tcpPort: Int, bytes: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: tcpPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        var random = SystemRandomNumberGenerator()
        let garbage = (0..<bytes).map { _ in UInt8.random(in: 0...255, using: &random) }
        _ = garbage.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        // Give the host the bytes before the close (bounded: 1 s).
        var buffer = [UInt8](repeating: 0, count: 256)
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = recv(fd, &buffer, buffer.count, 0)
    }

    static func sendDatagram(port: Int, length: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 1) }
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        try #require(sent == length)
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        return address
    }
}

private func simd_distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return (d * d).sum().squareRoot()
}
