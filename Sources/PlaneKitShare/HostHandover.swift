import NIOCore
import PlaneKitStream
import PlaneKitMaps

/// A peer that can take over as host: its entry and where its standby listener is.
public struct Successor: Sendable, Equatable {
    /// The peer's number and name.
    public var entry: PeerEntry
    /// The address the host reaches it at (the far end of its connection to the host).
    public var address: String
    /// Its standby listener's port (TLS and UDP, like a host's).
    public var port: UInt16

    /// A successor from its parts.
    public init(entry: PeerEntry, address: String, port: UInt16) {
        self.entry = entry
        self.address = address
        self.port = port
    }
}

/// A joiner's part in a host hand-over (docs/protocol.md, "Host hand-over").
///
/// At join time the joiner opens a standby listener — a ``ShareHost`` with the space's pose key
/// and this peer's own number, inactive — on the address it reaches the host from, and tells the
/// host its port (`standby`). The host sends every peer the order of succession (`succession`):
/// the peers with a standby listener, by number, that is by the order they joined. When the
/// host goes (a `bye`, or its connection drops), every joiner walks that order the same way:
/// the first remaining peer takes over (its standby listener becomes the host, with its
/// objects and its number, so identifiers stay unique), the others `rejoin` it with their
/// numbers and no map, and each side resends its objects' states (the versions resolve them).
final class HostHandover {
    /// How long a joiner tries to reach a successor before it takes over itself.
    static let seconds = 10

    /// The stderr line every peer gives when `newHost` took over from `oldHost`.
    static func announcement(newHost: String, oldHost: String) -> String {
        "share: \(newHost) hosts the space now (\(oldHost) left)"
    }

    private let credentials: SpaceCredentials
    /// This peer's standby listener (the host it becomes if it takes over).
    let standby: ShareHost
    /// The host's latest order of succession.
    var successors: [Successor] = []

    /// Opens the standby listener of `joiner` on the address it reaches the host from and tells
    /// the host its port.
    init(joiner: ShareJoiner, credentials: SpaceCredentials) throws {
        self.credentials = credentials
        let local = joiner.tcp.localAddress?.ipAddress ?? "0.0.0.0"
        standby = try ShareHost(address: ListenAddress(host: local, port: 0), credentials: credentials, name: joiner.me.name,
                                maxPeers: ShareLimits.maximumMaxPeers, inbox: joiner.inbox, standby: (joiner.me, joiner.poseKey))
        joiner.send(.standby(port: UInt16(standby.port)))
    }

    /// The host of `old` is gone: the first remaining peer of the succession is rejoined (a new
    /// joiner, which has told it this peer's standby port), or, when that is this peer (or no one
    /// earlier answers within ``seconds``), this peer takes over. `warn` gets a line for each
    /// successor that did not answer. Returns the new node and the new host's entry.
    func succeed(_ old: ShareJoiner, highestPeer: UInt16, warn: (String) -> Void) -> (node: ShareLink.Node, host: PeerEntry) {
        old.close()
        // Peers before this one in the order: the earliest that answers is the host.
        let earlier = successors.filter { $0.entry.id != old.host.id && $0.entry.id < old.me.id }.sorted { $0.entry.id < $1.entry.id }
        if let (joiner, host) = Self.rejoin(earlier, as: old, role: .device, credentials: credentials, warn: warn) {
            joiner.send(.standby(port: UInt16(standby.port)))
            return (.joiner(joiner), host)
        }
        return (.host(promote(highestPeer: highestPeer)), old.me)
    }

    /// Rejoins the first of `candidates` (in their order) that answers within ``seconds`` in
    /// all, as `old`'s peer in `role` (its number kept, no map): the new connection and the new
    /// host's entry, or `nil` when none answered. `warn` gets a line for each that did not.
    static func rejoin(_ candidates: [Successor], as old: ShareJoiner, role: PeerRole, credentials: SpaceCredentials,
                       warn: (String) -> Void) -> (joiner: ShareJoiner, host: PeerEntry)? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        for candidate in candidates {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                warn("share: no successor answered within \(seconds) s")
                return nil
            }
            do {
                let joiner = try ShareJoiner(
                    address: ListenAddress(host: candidate.address, port: Int(candidate.port)), credentials: credentials,
                    name: old.me.name, role: role, inbox: old.inbox, progress: { _, _ in },
                    timeout: Double(left.components.seconds) + Double(left.components.attoseconds) * 1e-18,
                    rejoining: ShareJoiner.Rejoin(me: old.me, host: candidate.entry, map: old.map, mapBytes: old.mapBytes))
                return (joiner, candidate.entry)
            } catch {
                warn("share: \(candidate.entry.name) (\(candidate.address):\(candidate.port)) did not take over: \(error)")
            }
        }
        return nil
    }

    /// This peer takes over: its standby listener becomes the space's host, numbering new peers
    /// after `highestPeer` (the highest number this peer knows of).
    func promote(highestPeer: UInt16) -> ShareHost {
        standby.state.withLock { s in
            s.active = true
            s.nextPeer = max(s.nextPeer, highestPeer &+ 1, standby.me.id &+ 1)
        }
        return standby
    }
}

extension ShareJoiner {
    /// What a joiner brings back to its new host after a hand-over.
    struct Rejoin: Sendable {
        /// Its entry (it keeps its number).
        var me: PeerEntry
        /// The new host's entry.
        var host: PeerEntry
        /// The world map it joined with (it is already in that world).
        var map: WorldMap
        /// The map's size in bytes.
        var mapBytes: Int
    }
}

extension ShareHost {
    /// A `rejoin` from `channel`: a peer of the space back after a hand-over, with its number
    /// and role. Let in (welcome and succession sent, no map, the stream told) unless the number
    /// or name is taken or the space is full. A standby listener that has not taken over yet
    /// lets it in too: the peer saw the host go, and this peer will see it as well.
    func rejoin(name: String, peer: UInt16, role: PeerRole, channel: Channel) -> UInt16? {
        let outcome: Result<[PeerEntry], ShareError> = state.withLock { s in
            if peer == me.id || peer == UInt16.max || s.peers[peer] != nil {
                return .failure(.refused("peer number \(peer) is taken in this space"))
            }
            return admit(PeerEntry(id: peer, name: name), role: role, channel: channel, into: &s).map { others in
                s.nextPeer = max(s.nextPeer, peer + 1)
                return others
            }
        }
        switch outcome {
        case .success(let others):
            welcome(PeerEntry(id: peer, name: name), others: others, on: channel)
            inbox.post(.rejoined(PeerEntry(id: peer, name: name)))
            return peer
        case .failure(let error):
            refuse(name, on: channel, error)
            return nil
        }
    }

    /// Peer `id`'s standby listener is on `port` of `address` (where its connection comes from):
    /// the order of succession changed.
    func standby(_ id: UInt16, address: String?, port: UInt16) {
        guard let address else { return }
        let known = state.withLock { s in
            guard let peer = s.peers[id] else { return false }
            s.successors[id] = Successor(entry: PeerEntry(id: id, name: peer.name), address: address, port: port)
            return true
        }
        if known {
            broadcastSuccession()
            releaseWelcomes()
        }
    }

    /// Sends every peer the order of succession.
    func broadcastSuccession() {
        broadcast(.succession(successorsInOrder))
    }

    /// The order of succession: the peers with a standby listener, by number.
    var successorsInOrder: [Successor] {
        state.withLock { $0.successors.values.sorted { $0.entry.id < $1.entry.id } }
    }
}

extension ShareWire {
    /// The fields of `standby`, `succession` and `rejoin`.
    static func encodeHandover(_ message: ShareMessage, into w: inout MapByteWriter) {
        switch message {
        case .standby(let port):
            w.u16(port)
        case .succession(let successors):
            w.count(successors.count)
            for s in successors {
                w.u16(s.entry.id)
                w.string(s.entry.name)
                w.string(s.address)
                w.u16(s.port)
            }
        case .rejoin(let name, let peer, let role):
            w.string(name)
            w.u16(peer)
            w.u8(role.rawValue)
        default:
            break
        }
    }

    /// A `standby` (9), `succession` (10) or `rejoin` (11) message's fields.
    static func decodeHandover(_ type: UInt8, _ r: inout MapByteReader) throws -> ShareMessage {
        switch type {
        case 9:
            return .standby(port: try port(&r, "the standby port"))
        case 10:
            let count = try r.count("successors", itemBytes: 8, limit: ShareLimits.maximumPeers)
            var successors: [Successor] = []
            for i in 0..<count {
                let entry = PeerEntry(id: try r.u16("successor \(i)'s number"), name: try name(&r, "successor \(i)'s name"))
                let address = try name(&r, "successor \(i)'s address")
                successors.append(Successor(entry: entry, address: address, port: try port(&r, "successor \(i)'s port")))
            }
            return .succession(successors)
        default:
            let peerName = try name(&r, "the peer's name"), peer = try r.u16("the peer number")
            return .rejoin(name: peerName, peer: peer, role: try role(&r))
        }
    }

    private static func port(_ r: inout MapByteReader, _ what: String) throws -> UInt16 {
        let port = try r.u16(what)
        guard port > 0 else { throw ShareError.malformed("\(what) is 0") }
        return port
    }
}
