import Crypto
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
@testable import PlaneKitShare
import PlaneKitAnchors
import Testing

@Suite("Shared spaces: messages, datagrams, credentials")
struct ShareWireTests {
    static let object = SharedObject(
        ObjectAnchor(identifier: PlacedObjectIdentifier(1_000_002), anchorNumber: 9, name: "chair", size: SIMD3(0.5, 0.8, 0.5),
                     transform: Transform(rotation: Quaternion(angle: 0.7, axis: SIMD3(0, 1, 0)), translation: SIMD3(1, 0, -2)),
                     planeIdentifier: PlaneIdentifier(3), alignment: .horizontal),
        version: 4, author: "kitchen", removed: false)

    static let messages: [ShareMessage] = [
        .hello(name: "phone", role: .pointer),
        .hello(name: "phone", role: .device),
        .hello(name: "wall screen", role: .observer),
        .welcome(peer: 3, host: "host", poseKey: Array(repeating: 7, count: 32), peers: [PeerEntry(id: 0, name: "host"), PeerEntry(id: 1, name: "tablet")]),
        .refuse(reason: "the space is full"),
        .mapChunk(total: 10, offset: 4, bytes: [1, 2, 3]),
        .object(object),
        .peerJoined(PeerEntry(id: 2, name: "tablet")),
        .peerLeft(peer: 2, reason: "left", last: []),
        .peerLeft(peer: 2, reason: "left", last: [LastDatagram(kind: 2, sequence: 41)]),
        .bye(last: []),
        .bye(last: [LastDatagram(kind: 1, sequence: 7), LastDatagram(kind: 2, sequence: 1 << 40)]),
        .succession([Successor(entry: PeerEntry(id: 1, name: "anna"), address: "127.0.0.1", port: 7401)]),
        .rejoin(name: "phone", peer: 4, role: .pointer),
        .rejoin(name: "wall screen", peer: 5, role: .observer),
    ]

    /// The body of an encoded message (its length prefix checked and removed).
    static func body(_ message: ShareMessage) throws -> [UInt8] {
        let bytes = ShareWire.encode(message)
        let length = try ShareWire.announcedLength((bytes[0], bytes[1], bytes[2], bytes[3]))
        #expect(length == bytes.count - 4)
        return Array(bytes[4...])
    }

    @Test func everyMessageRoundTrips() throws {
        for message in Self.messages {
            #expect(try ShareWire.decode(try Self.body(message)) == message)
        }
    }

    @Test func everyTruncationIsRefusedNotCrashed() throws {
        var refused = 0, total = 0
        for message in Self.messages {
            let body = try Self.body(message)
            for cut in 0..<body.count {
                total += 1
                if (try? ShareWire.decode(Array(body[..<cut]))) == nil { refused += 1 }
            }
        }
        #expect(refused == total)
    }

    @Test func limitsVersionsAndValuesAreChecked() throws {
        // An announced 4 GB and anything over 1 MiB: refused from the prefix alone.
        #expect(throws: ShareError.self) { try ShareWire.announcedLength((0xFF, 0xFF, 0xFF, 0xFF)) }
        #expect(throws: ShareError.self) { try ShareWire.announcedLength((0, 0x10, 0, 0)) }
        #expect(try ShareWire.announcedLength((0, 0x0F, 0xFF, 0xFC)) == ShareLimits.maximumMessage - 4)
        var body = try Self.body(.bye(last: []))
        body[0] = ShareLimits.version + 1
        #expect(throws: ShareError.self) { try ShareWire.decode(body) }
        body = try Self.body(.bye(last: [])) + [0]
        #expect(throws: ShareError.self) { try ShareWire.decode(body) }
        #expect(throws: ShareError.self) { try ShareWire.decode([ShareLimits.version, 99]) }
        // A goodbye's last datagrams: poses and attitudes only, each kind once.
        #expect(throws: ShareError.self) { try ShareWire.decode([ShareLimits.version, 8, 1, 3] + [UInt8](repeating: 0, count: 8)) }
        #expect(throws: ShareError.self) { try ShareWire.decode([ShareLimits.version, 8, 2, 1] + [UInt8](repeating: 0, count: 8) + [1] + [UInt8](repeating: 0, count: 8)) }
        #expect(try ShareWire.decode([ShareLimits.version, 8, 1, 2, 5, 0, 0, 0, 0, 0, 0, 0]) == .bye(last: [LastDatagram(kind: 2, sequence: 5)]))
        // A NaN in the object's transform (first rotation element, after id, version, author, flag, name, size).
        var object = try Self.body(.object(Self.object))
        let at = 2 + 8 + 8 + 2 + "kitchen".utf8.count + 1 + 2 + "chair".utf8.count + 12
        object.replaceSubrange(at..<at + 4, with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian, Array.init))
        #expect(throws: ShareError.self) { try ShareWire.decode(object) }
        // A map chunk reaching past its map, and a map over the limit.
        #expect(throws: ShareError.self) { try ShareWire.decode(try Self.body(.mapChunk(total: 4, offset: 3, bytes: [1, 2]))) }
        #expect(throws: ShareError.self) {
            try ShareWire.decode(try Self.body(.mapChunk(total: UInt64(ShareLimits.maximumMap) + 1, offset: 0, bytes: [1])))
        }
        // An empty peer name.
        #expect(throws: ShareError.self) { try ShareWire.decode(try Self.body(.hello(name: "", role: .device))) }
    }

    @Test func concurrentChangesResolveTheSameWayEverywhere() {
        var a = Self.object, b = Self.object
        a.author = "anna"
        b.author = "bert"
        #expect(b.supersedes(a) && !a.supersedes(b))
        a.version = 5
        #expect(a.supersedes(b) && !b.supersedes(a))
        #expect(!a.supersedes(a))
    }

    @Test func posesAreSealedAndTamperingOrReplayIsRefused() throws {
        let key = SymmetricKey(size: .bits256)
        let pose = PoseDatagram(sender: 2, sequence: 41, timestamp: 1.5, transform: Self.object.transform)
        let sealed = try pose.sealed(with: key)
        #expect(sealed.count == PoseDatagram.length)
        let opened = try PoseDatagram.open(sealed, with: key)
        #expect(opened.sender == 2 && opened.sequence == 41 && opened.timestamp == 1.5)
        #expect(distance(opened.transform.translation, pose.transform.translation) < 1e-6)
        // Every single flipped bit, header or body, fails authentication.
        var refused = 0
        for i in 0..<sealed.count {
            var tampered = sealed
            tampered[i] ^= 0x10
            if (try? PoseDatagram.open(tampered, with: key)) == nil { refused += 1 }
        }
        #expect(refused == sealed.count)
        #expect((try? PoseDatagram.open(sealed, with: SymmetricKey(size: .bits256))) == nil)
        #expect((try? PoseDatagram.open(Array(sealed.dropLast()), with: key)) == nil)

        var guardian = ReplayGuard()
        let accepted = [(2, 41), (2, 41), (2, 40), (3, 1), (2, 42)].map { guardian.accept(sender: UInt16($0.0), sequence: UInt64($0.1)) }
        #expect(accepted == [true, false, false, true, true])
    }

    @Test func endpointDatagramsAreSealedAndNeverMistakenForPoses() throws {
        let key = SymmetricKey(size: .bits256)
        let sealed = try EndpointDatagram(sender: 5, sequence: 3).sealed(with: key)
        #expect(sealed.count == EndpointDatagram.length)
        #expect(EndpointDatagram.open(sealed, with: key) == EndpointDatagram(sender: 5, sequence: 3))
        #expect(EndpointDatagram.open(sealed, with: SymmetricKey(size: .bits256)) == nil)
        var refused = 0
        for i in 0..<sealed.count {
            var tampered = sealed
            tampered[i] ^= 0x01
            if EndpointDatagram.open(tampered, with: key) == nil { refused += 1 }
        }
        #expect(refused == sealed.count)
        #expect((try? PoseDatagram.open(sealed, with: key)) == nil)
        // A pose's header made an endpoint's (its kind, same length cut) does not authenticate.
        let pose = try PoseDatagram(sender: 5, sequence: 3, timestamp: 0, transform: Self.object.transform).sealed(with: key)
        var forged = Array(pose.prefix(EndpointDatagram.length))
        forged[1] = EndpointDatagram.kind
        #expect(EndpointDatagram.open(forged, with: key) == nil)
        // An unknown role in a hello is malformed.
        var hello = try Self.body(.hello(name: "phone", role: .observer))
        hello[hello.count - 1] = 9
        #expect(throws: ShareError.self) { try ShareWire.decode(hello) }
    }

    @Test func theSecretDecidesTheKey() throws {
        let a = try SpaceCredentials(secret: Array("kitchen table 42".utf8))
        let b = try SpaceCredentials(secret: Array("kitchen table 42".utf8))
        let c = try SpaceCredentials(secret: Array("kitchen table 43".utf8))
        #expect(a.pinnedKey == b.pinnedKey)
        #expect(a.pinnedKey != c.pinnedKey)
        #expect(throws: ShareError.self) { try SpaceCredentials(secret: Array("short".utf8)) }
    }

    @Test func longNamesAreClippedAtACharacter() {
        let name = String(repeating: "é", count: 200)
        let clipped = ShareLink.clipped(name)
        #expect(clipped.utf8.count == 256)
        #expect(clipped == String(repeating: "é", count: 128))
    }
}
