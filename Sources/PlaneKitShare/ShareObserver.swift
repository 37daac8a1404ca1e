import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitMaps

/// A watcher of a shared space (`planekit view --join`): a peer in the `observer` role that gets
/// the host's world map, then every object change, peer coming and going and camera pose of the
/// space, as the stream's own events, and never places an object or sends a pose of its own.
///
/// It is a peer like any other for the host: counted for `--max-peers`, announced to the others
/// with `peerJoined` under its name. The host sends poses to where a peer's datagrams come
/// from; as an observer has no pose to send, ``poll()`` sends an ``EndpointDatagram`` every
/// second instead (UDP may lose one), which the host takes as the observer's address and relays
/// to no one. When the host goes, the observer rejoins its successor (`HostFollower`), says so
/// with a `hostChanged` event and goes on watching.
///
/// Objects resolve as at every peer: the state with the higher (version, author) wins, and the
/// events say `objectAdded` for an object first seen (or back after a removal), `objectMoved`
/// for a change to one already shown, `objectRemoved` for a removal. Events carry frame 0 (an
/// observer has no frames of its own) and the seconds since the observer joined.
public final class ShareObserver {
    private var joiner: ShareJoiner
    private var follower: HostFollower
    private let inbox: ShareInbox
    private let warn: (String) -> Void
    private let joinedAt = ContinuousClock.now
    private var objects: [PlacedObjectIdentifier: SharedObject] = [:]
    /// Pointers and the host's anchors they are cast into.
    private var pointers = SpacePointers()
    private var endpointSequence: UInt64 = 0
    private var lastEndpoint: ContinuousClock.Instant?
    private var closed = false

    /// How often the observer tells the host where its poses go.
    static let endpointInterval = Duration.seconds(1)

    /// Joins the space at `address` as the observer `name`, waiting at most `timeout` seconds for
    /// the host's world map (``map``); `progress(received, total)` after each map chunk. `warn`
    /// gets one line for each refusal. Throws ``ShareError`` when refused, on a wrong secret, or
    /// when the host does not answer in time.
    public init(joining address: ListenAddress, secret: [UInt8], name: String, timeout: Double = 30,
                progress: @escaping @Sendable (Int, Int) -> Void, warn: @escaping (String) -> Void) throws {
        let inbox = ShareInbox()
        self.inbox = inbox
        self.warn = warn
        let credentials = try SpaceCredentials(secret: secret)
        joiner = try ShareJoiner(address: address, credentials: credentials, name: name, role: .observer,
                                 inbox: inbox, progress: progress, timeout: timeout)
        follower = HostFollower(credentials: credentials, role: .observer)
        pointers.startHostAnchors(from: joiner.map)
        sendEndpoint()
    }

    /// The host's world map as it was when the observer joined.
    public var map: WorldMap { joiner.map }
    /// The map's size in bytes.
    public var mapBytes: Int { joiner.mapBytes }
    /// The host's name.
    public var hostName: String { joiner.host.name }
    /// This observer's name and number in the space.
    public var peer: (name: String, number: UInt16) { (joiner.me.name, joiner.me.id) }

    /// What arrived since the last call, as the stream's events (`peerJoined`, `peerLeft`,
    /// `participant`, object events with `peer`, `peerRefused`, `hostChanged`), and whether the
    /// host has gone and no successor took the observer in (then nothing more comes). Sends the
    /// endpoint datagram when it is due. Waits only while it rejoins a successor (at most
    /// `HostHandover.seconds`).
    public func poll() -> (events: [StreamEvent], hostGone: Bool) {
        let now = ContinuousClock.now
        if lastEndpoint.map({ now - $0 >= Self.endpointInterval }) ?? true { sendEndpoint() }
        let timestamp = (now - joinedAt).milliseconds / 1000
        let (inputs, poses) = inbox.take()
        var events: [StreamEvent] = []
        var hostGone = false
        func emit(_ peer: String, _ kind: PeerEvent.Kind) {
            events.append(.peer(PeerEvent(frame: 0, timestamp: timestamp, peer: peer, kind: kind)))
        }
        for input in inputs {
            switch input {
            case .admitted, .rejoined:
                continue  // a host's inputs
            case .succession(let successors):
                follower.successors = successors
            case .joined(let entry):
                emit(entry.name, .joined)
            case .left(let entry, let reason, _):
                emit(entry.name, .left(reason: reason))
                guard entry.id == joiner.host.id else { continue }
                guard let (next, host) = follower.follow(joiner, warn: warn) else {
                    hostGone = true
                    continue
                }
                joiner = next
                emit(host.name, .hostChanged)
                // The new host sends the space's poses where this observer says.
                sendEndpoint()
            case .object(let state, _):
                if let change = take(state, timestamp: timestamp) { emit(state.author, .object(change)) }
            case .refused(let who, let reason):
                warn("share: \(who): \(reason)")
                emit(who, .refused(reason: reason))
            case .pointerPlaced(let peer, let origin, let forward):
                _ = pointers.place(PeerEntry(id: peer, name: name(of: peer)), origin: origin, forward: forward)
            case .planeAnchor(let anchor):
                emit(hostName, .anchor(pointers.hostAnchor(anchor), anchor))
            case .planeAnchorRemoved(let identifier):
                if let anchor = pointers.hostAnchorRemoved(identifier) { emit(hostName, .anchor(.removed, anchor)) }
            }
        }
        for pose in poses where pose.sender != joiner.me.id {
            emit(name(of: pose.sender), .participant(pose.transform))
        }
        // Pointers are cast into the host's anchors (the map's, then as shared), as the peers do.
        for attitude in inbox.takeAttitudes() {
            guard let cast = pointers.cast(attitude, name: name(of: attitude.sender), session: nil) else { continue }
            emit(name(of: attitude.sender), .pointer(origin: cast.ray.origin, direction: cast.ray.direction, hits: cast.hits))
        }
        return (events, hostGone)
    }

    private func name(of peer: UInt16) -> String { joiner.name(of: peer) ?? "peer \(peer)" }

    /// Leaves the space (a goodbye to the host); once.
    public func close() {
        guard !closed else { return }
        closed = true
        joiner.close()
    }

    /// Tells the host (again) where this observer's poses go.
    private func sendEndpoint() {
        endpointSequence += 1
        lastEndpoint = ContinuousClock.now
        joiner.sendEndpoint(sequence: endpointSequence)
    }

    /// An object's state from the host: kept when it wins, and the change it makes to what the
    /// observer shows; `nil` when it loses or changes nothing shown.
    private func take(_ state: SharedObject, timestamp: Double) -> SessionEvent? {
        let current = objects[state.identifier]
        if let current, !state.supersedes(current) { return nil }
        objects[state.identifier] = state
        let kind: SessionEvent.Kind
        if state.removed {
            // A tombstone of an object never shown (removed before the observer came) changes nothing.
            guard let current, !current.removed else { return nil }
            kind = .objectRemoved(state.anchor)
        } else if let current, !current.removed {
            kind = .objectMoved(state.anchor)
        } else {
            kind = .objectAdded(state.anchor)
        }
        return SessionEvent(frame: 0, timestamp: timestamp, kind: kind)
    }
}
