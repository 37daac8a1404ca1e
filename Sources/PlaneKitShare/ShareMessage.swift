import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import PlaneKitMaps
import PlaneKitPlanes

/// A peer of the space as messages name it: the number the host gave it and its name.
public struct PeerEntry: Sendable, Equatable {
    /// The peer's number: 0 for the host, then 1, 2, … in the order peers were let in (never reused).
    public var id: UInt16
    /// The peer's name (unique in the space).
    public var name: String

    /// An entry from its parts.
    public init(id: UInt16, name: String) {
        self.id = id
        self.name = name
    }
}

/// A message of the reliable channel (docs/protocol.md, "Messages").
public enum ShareMessage: Sendable, Equatable {
    /// Joiner → host, first: the joiner's name and what kind of peer it is.
    case hello(name: String, role: PeerRole)
    /// Host → joiner: let in as `peer`, the host's name, the pose channel's key and who else is in.
    case welcome(peer: UInt16, host: String, poseKey: [UInt8], peers: [PeerEntry])
    /// Host → joiner: not let in, and why; the host closes the connection.
    case refuse(reason: String)
    /// Host → joiner: bytes `offset ..< offset + bytes.count` of the `total`-byte world map.
    case mapChunk(total: UInt64, offset: UInt64, bytes: [UInt8])
    /// Either way: an object's new state (host → everyone, joiner → host).
    case object(SharedObject)
    /// Host → joiners: a peer came in.
    case peerJoined(PeerEntry)
    /// Host → joiners: a peer left, and why, after the newest datagrams of it the host relayed
    /// (a receiver waits a moment for them: `DepartingPeers`).
    case peerLeft(peer: UInt16, reason: String, last: [LastDatagram])
    /// Either way: the sender is leaving, after the newest datagrams it sent (per kind).
    case bye(last: [LastDatagram])
    /// Pointer → host (`peer` ignored, the host knows who sent it), then host → devices: where
    /// pointer `peer` stands in the shared world and the heading its first attitude aims along.
    case pointerPlacement(peer: UInt16, origin: SIMD3<Float>, forward: SIMD3<Float>)
    /// Host → joiners: one of the host's plane anchors, new or changed, coded as in world maps.
    case planeAnchor(WorldMap.Anchor)
    /// Host → joiners: the host removed this plane anchor.
    case planeAnchorRemoved(PlaneIdentifier)
    /// Joiner → host, once joined: the port of this peer's standby listener (`HostHandover`).
    case standby(port: UInt16)
    /// Host → joiners: the order of succession, every peer that can take over, earliest first.
    case succession([Successor])
    /// Joiner → its new host, first (instead of `hello`) after a hand-over: back in as `peer`, in `role`.
    case rejoin(name: String, peer: UInt16, role: PeerRole)

    /// The type byte.
    var type: UInt8 {
        switch self {
        case .hello: 1
        case .welcome: 2
        case .refuse: 3
        case .mapChunk: 4
        case .object: 5
        case .peerJoined: 6
        case .peerLeft: 7
        case .bye: 8
        case .pointerPlacement: 12
        case .planeAnchor: 13
        case .planeAnchorRemoved: 14
        case .standby: 9
        case .succession: 10
        case .rejoin: 11
        }
    }
}

/// The reliable channel's framing: each message is a 4-byte big-endian length (of what follows),
/// the protocol version, the type, then the type's fields, little-endian. Decoding is defensive:
/// lengths are checked against ``ShareLimits`` before anything is buffered for them, numbers must
/// be finite, transforms rigid, names non-empty UTF-8 within ``ShareLimits/maximumName``.
public enum ShareWire {
    /// The bytes of `message`, its length prefix included.
    public static func encode(_ message: ShareMessage) -> [UInt8] {
        var w = MapByteWriter()
        w.u8(ShareLimits.version)
        w.u8(message.type)
        switch message {
        case .hello(let name, let role):
            w.string(name)
            w.u8(role.rawValue)
        case .welcome(let peer, let host, let key, let peers):
            w.u16(peer)
            w.string(host)
            w.count(key.count)
            w.raw(key)
            w.count(peers.count)
            for entry in peers { w.u16(entry.id); w.string(entry.name) }
        case .refuse(let reason):
            w.string(reason)
        case .mapChunk(let total, let offset, let bytes):
            w.u64(total)
            w.u64(offset)
            w.count(bytes.count)
            w.raw(bytes)
        case .object(let o):
            w.u64(o.identifier.rawValue)
            w.u64(o.version)
            w.string(o.author)
            w.u8(o.removed ? 1 : 0)
            w.string(o.name)
            w.vector(o.size)
            w.transform(o.transform)
            w.u64(o.planeIdentifier?.rawValue ?? 0)
            w.u8(Self.alignmentCode(o.alignment))
        case .peerJoined(let entry):
            w.u16(entry.id)
            w.string(entry.name)
        case .peerLeft(let peer, let reason, let last):
            w.u16(peer)
            w.string(reason)
            Self.write(last, into: &w)
        case .bye(let last):
            Self.write(last, into: &w)
        case .pointerPlacement(let peer, let origin, let forward):
            w.u16(peer)
            w.vector(origin)
            w.vector(forward)
        case .planeAnchor(let anchor):
            WorldMapCoding.write(anchor, into: &w)
        case .planeAnchorRemoved(let identifier):
            w.u64(identifier.rawValue)
        case .standby, .succession, .rejoin:
            encodeHandover(message, into: &w)
        }
        let body = w.bytes
        let n = UInt32(body.count)
        return [UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)] + body
    }

    /// The length a 4-byte prefix announces, refused when it is above the limit or too short
    /// to hold a version and a type.
    public static func announcedLength(_ prefix: (UInt8, UInt8, UInt8, UInt8)) throws(ShareError) -> Int {
        let n = Int(prefix.0) << 24 | Int(prefix.1) << 16 | Int(prefix.2) << 8 | Int(prefix.3)
        guard n + 4 <= ShareLimits.maximumMessage else { throw .oversized(n + 4) }
        guard n >= 2 else { throw .malformed("a message of \(n) bytes has no version and type") }
        return n
    }

    /// The message in `body` (what follows the length prefix).
    public static func decode(_ body: [UInt8]) throws(ShareError) -> ShareMessage {
        var r = MapByteReader(body)
        do {
            let version = try r.u8("the version")
            guard version == ShareLimits.version else {
                throw ShareError.malformed("protocol version \(version), this build speaks \(ShareLimits.version)")
            }
            let type = try r.u8("the type")
            let message: ShareMessage
            switch type {
            case 1:
                let peerName = try name(&r, "the peer's name")
                message = .hello(name: peerName, role: try role(&r))
            case 2:
                let peer = try r.u16("the peer number")
                let host = try name(&r, "the host's name")
                let keyLength = try r.count("the key length", itemBytes: 1, limit: 32)
                guard keyLength == 32 else { throw ShareError.malformed("a pose key of \(keyLength) bytes, not 32") }
                let key = try raw(&r, keyLength, "the pose key")
                let count = try r.count("peers", itemBytes: 3, limit: ShareLimits.maximumPeers)
                var peers: [PeerEntry] = []
                for i in 0..<count { peers.append(PeerEntry(id: try r.u16("peer \(i)'s number"), name: try name(&r, "peer \(i)'s name"))) }
                message = .welcome(peer: peer, host: host, poseKey: key, peers: peers)
            case 3:
                message = .refuse(reason: try r.string("the reason"))
            case 4:
                let total = try r.u64("the map's size"), offset = try r.u64("the chunk's offset")
                let count = try r.count("the chunk's length", itemBytes: 1, limit: ShareLimits.mapChunk)
                guard total <= UInt64(ShareLimits.maximumMap), offset <= total, UInt64(count) <= total - offset else {
                    throw ShareError.malformed("map chunk \(offset)+\(count) of \(total) bytes is out of range (maps up to \(ShareLimits.maximumMap) bytes)")
                }
                message = .mapChunk(total: total, offset: offset, bytes: try raw(&r, count, "the chunk"))
            case 5:
                message = .object(try object(&r))
            case 6:
                message = .peerJoined(PeerEntry(id: try r.u16("the peer number"), name: try name(&r, "the peer's name")))
            case 7:
                message = .peerLeft(peer: try r.u16("the peer number"), reason: try r.string("the reason"), last: try lastDatagrams(&r))
            case 8:
                message = .bye(last: try lastDatagrams(&r))
            case 12:
                let peer = try r.u16("the pointer's number")
                let origin = try r.vector("the pointer's origin"), forward = try r.vector("the pointer's forward")
                guard max(abs(origin.x), abs(origin.y), abs(origin.z)) <= 1e6, forward.isFinite, forward.length > 0 else {
                    throw ShareError.malformed("pointer placement origin \(origin) forward \(forward) is not a place and a direction")
                }
                message = .pointerPlacement(peer: peer, origin: origin, forward: forward)
            case 13:
                message = .planeAnchor(try WorldMapCoding.readAnchor(&r, index: 0))
            case 14:
                let id = try r.u64("the anchor identifier")
                guard id > 0 else { throw ShareError.malformed("anchor identifier 0") }
                message = .planeAnchorRemoved(PlaneIdentifier(id))
            case 9, 10, 11:
                message = try decodeHandover(type, &r)
            default:
                throw ShareError.malformed("unknown message type \(type)")
            }
            guard r.remaining == 0 else { throw ShareError.malformed("\(r.remaining) bytes after a message of type \(type)") }
            return message
        } catch let error as ShareError {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
    }

    /// The newest datagrams a `bye` or `peerLeft` announces: `u8` count, then per kind `u8`
    /// kind and `u64` sequence number.
    private static func write(_ last: [LastDatagram], into w: inout MapByteWriter) {
        w.u8(UInt8(last.count))
        for mark in last {
            w.u8(mark.kind)
            w.u64(mark.sequence)
        }
    }

    /// Reads what ``write(_:into:)`` wrote: each kind a pose or an attitude, at most once.
    private static func lastDatagrams(_ r: inout MapByteReader) throws -> [LastDatagram] {
        let count = Int(try r.u8("the count of last datagrams"))
        var last: [LastDatagram] = []
        for i in 0..<count {
            let kind = try r.u8("last datagram \(i)'s kind")
            guard kind == PoseDatagram.kind || kind == AttitudeDatagram.kind, !last.contains(where: { $0.kind == kind }) else {
                throw ShareError.malformed("last datagram kind \(kind) is not a pose or an attitude, or repeated")
            }
            last.append(LastDatagram(kind: kind, sequence: try r.u64("last datagram \(i)'s sequence number")))
        }
        return last
    }

    /// `n` bytes as they are (`n` already checked against the bytes left by the count before them).
    private static func raw(_ r: inout MapByteReader, _ n: Int, _ what: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(n)
        for _ in 0..<n { bytes.append(try r.u8(what)) }
        return bytes
    }

    /// A peer's role (`hello`, `rejoin`).
    static func role(_ r: inout MapByteReader) throws -> PeerRole {
        let code = try r.u8("the peer's role")
        guard let role = PeerRole(rawValue: code) else { throw ShareError.malformed("peer role \(code) is unknown") }
        return role
    }

    /// A peer or object name: non-empty, at most ``ShareLimits/maximumName`` bytes.
    static func name(_ r: inout MapByteReader, _ what: String) throws -> String {
        let s = try r.string(what)
        guard !s.isEmpty, s.utf8.count <= ShareLimits.maximumName else {
            throw ShareError.malformed("\(what) must have 1 to \(ShareLimits.maximumName) bytes")
        }
        return s
    }

    private static func object(_ r: inout MapByteReader) throws -> SharedObject {
        let id = try r.u64("the object identifier")
        guard id > 0 else { throw ShareError.malformed("object identifier 0") }
        let version = try r.u64("the object's version")
        let author = try name(&r, "the object's author")
        let removed = try r.u8("the removed flag")
        guard removed <= 1 else { throw ShareError.malformed("removed flag \(removed)") }
        let objectName = try r.string("the object's name")
        let size = try r.vector("the object's size")
        guard size.x > 0, size.y > 0, size.z > 0, size.max() <= 1000 else {
            throw ShareError.malformed("object size \(size) is not positive (at most 1 km)")
        }
        let transform = try r.transform("the object's transform")
        let t = transform.translation
        guard max(abs(t.x), abs(t.y), abs(t.z)) <= 1e6 else { throw ShareError.malformed("object position beyond 1000 km") }
        let plane = try r.u64("the object's plane")
        let alignment = try Self.alignment(try r.u8("the object's alignment"))
        let anchor = ObjectAnchor(identifier: PlacedObjectIdentifier(id), anchorNumber: 0, name: objectName, size: size,
                                  transform: transform, planeIdentifier: plane == 0 ? nil : PlaneIdentifier(plane),
                                  alignment: alignment)
        return SharedObject(anchor, version: version, author: author, removed: removed == 1)
    }

    private static func alignmentCode(_ a: PlaneAlignment) -> UInt8 {
        switch a {
        case .horizontal: 0
        case .vertical: 1
        case .any: 2
        }
    }

    private static func alignment(_ code: UInt8) throws -> PlaneAlignment {
        switch code {
        case 0: .horizontal
        case 1: .vertical
        case 2: .any
        default: throw ShareError.malformed("alignment code \(code)")
        }
    }
}
