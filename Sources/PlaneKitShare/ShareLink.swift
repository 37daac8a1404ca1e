import Crypto
#if canImport(Glibc)
import Glibc
#endif
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitMaps
import Synchronization

/// Set by SIGINT or SIGTERM: the peer stops reading its input and leaves the space properly
/// (its statistics, a goodbye to the others) instead of dying mid-message.
private let interrupted = Atomic<Bool>(false)

/// A stream's part in a shared space: the `StreamPeerLink` that `planekit stream --host` and
/// `--join` give the runner. On the stream's thread, between records, it sends this peer's
/// camera pose and object changes and applies what the other peers sent.
///
/// Objects: each peer numbers its objects in its own range (peer number × 1 000 000 + 1 …), so
/// identifiers never collide and are the same at every peer. The space keeps one
/// ``SharedObject`` per object; a change wins when its (version, author) is higher, so every
/// peer ends with the same state whatever order the changes arrive in. A peer shares every
/// change to its own objects (placing, dragging, turning, removing, snapping, the move into the
/// map's world when it relocalizes) and the commands (drag, rotate, remove) it applies to
/// others' objects. A joiner shares nothing until it has relocalized into the host's map, and
/// applies others' objects from then on: before that its world is not the space's.
public final class ShareLink: StreamPeerLink {
    /// The network side.
    enum Node {
        case host(ShareHost)
        case joiner(ShareJoiner)
    }

    private var node: Node
    /// A joiner's standby listener and order of succession; `nil` for the first host.
    private var handover: HostHandover?
    /// Hosts that left this peer's space (their `peerLeft` is this peer's own, not relayed).
    private var formerHosts: Set<UInt16> = []
    private let inbox: ShareInbox
    private let me: PeerEntry
    private let poseKey: SymmetricKey
    private let warn: (String) -> Void
    private var objects: [PlacedObjectIdentifier: SharedObject] = [:]
    private var sequence: UInt64 = 0
    /// Endpoint datagrams sent (one to each new host after a hand-over).
    private var endpointSequence: UInt64 = 0
    private var numbered = false
    private var inMapWorld = false
    private var lingerDeadline: ContinuousClock.Instant?
    private let linger: Duration?
    private var finished = false
    private var closed = false
    /// The space's pointers and the planes they are cast into that are not the session's own.
    private var pointers = SpacePointers()

    init(node: Node, inbox: ShareInbox, linger: Double?, warn: @escaping (String) -> Void) {
        self.node = node
        self.inbox = inbox
        self.warn = warn
        self.linger = linger.map { .milliseconds(Int64(($0 * 1000).rounded())) }
        // SIGINT and SIGTERM end the input at the next record (or the linger at once), so the
        // peer leaves properly: its statistics, a goodbye to the others.
        signal(SIGINT) { _ in interrupted.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in interrupted.store(true, ordering: .relaxed) }
        // A parent may have started this process with them blocked (the mask survives exec).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        switch node {
        case .host(let host):
            me = host.me
            poseKey = host.poseKey
        case .joiner(let joiner):
            me = joiner.me
            poseKey = joiner.poseKey
        }
    }

    /// Hosts a space on `address` (port 0: any free port; ``port`` says which) for peers
    /// knowing `secret`, as `name`, with at most `maxPeers` peers (the host included). After the
    /// end of the input the host serves on until its space has been empty for `linger` seconds
    /// (`nil`: until interrupted). `warn`
    /// gets one line for each refusal.
    public static func host(on address: ListenAddress, secret: [UInt8], name: String, maxPeers: Int, linger: Double?,
                             warn: @escaping (String) -> Void) throws -> ShareLink {
        guard (2...ShareLimits.maximumMaxPeers).contains(maxPeers) else {
            throw ShareError.connection("--max-peers must be from 2 to \(ShareLimits.maximumMaxPeers), got \(maxPeers)")
        }
        let inbox = ShareInbox()
        let host = try ShareHost(address: address, credentials: try SpaceCredentials(secret: secret), name: name,
                                 maxPeers: maxPeers, inbox: inbox)
        return ShareLink(node: .host(host), inbox: inbox, linger: linger, warn: warn)
    }

    /// Joins the space hosted at `address` as `name`, waiting at most `timeout` seconds for the
    /// host's world map (``joinedMap``); `progress(received, total)` after each map chunk. After
    /// the end of the input the joiner stays `linger` seconds (`nil`: 0) to take in the others' changes.
    public static func join(_ address: ListenAddress, secret: [UInt8], name: String, linger: Double?, timeout: Double = 30,
                            progress: @escaping @Sendable (Int, Int) -> Void, warn: @escaping (String) -> Void) throws -> ShareLink {
        let inbox = ShareInbox()
        let credentials = try SpaceCredentials(secret: secret)
        let joiner = try ShareJoiner(address: address, credentials: credentials, name: name,
                                     inbox: inbox, progress: progress, timeout: timeout)
        let link = ShareLink(node: .joiner(joiner), inbox: inbox, linger: linger ?? 0, warn: warn)
        do {
            link.handover = try HostHandover(joiner: joiner, credentials: credentials)
        } catch {
            warn("share: no standby listener, so this peer cannot take over if the host leaves: \(error)")
        }
        return link
    }

    /// The port the host listens on (TCP and UDP); for a joiner, 0.
    public var port: Int {
        if case .host(let host) = node { return host.port }
        return 0
    }

    /// For a joiner: the host's world map as it was when this peer joined, its size in bytes and
    /// the host's name; `nil` for a host.
    public var joinedMap: (map: WorldMap, bytes: Int, host: String)? {
        if case .joiner(let joiner) = node { return (joiner.map, joiner.mapBytes, joiner.host.name) }
        return nil
    }

    /// This peer's name and number.
    public var peer: (name: String, number: UInt16) { (me.name, me.id) }

    /// The first number of this peer's object range.
    var firstObjectNumber: UInt64 { UInt64(me.id) * ShareLimits.objectRange + 1 }

    /// Sends this peer's changes after a record and takes in what peers sent (`StreamPeerLink`).
    public func exchange(after events: [StreamEvent], processor: inout StreamProcessor, into incoming: inout [StreamEvent]) -> Bool {
        if !numbered {
            numbered = true
            processor.numberObjects(from: firstObjectNumber)
        }
        // A frame's events begin with its camera; anything else came from a command.
        let commanded: Bool
        if case .camera? = events.first { commanded = false } else { commanded = true }
        for event in events {
            switch event {
            case .camera(let camera) where processor.isInMapWorld:
                sendPose(timestamp: camera.timestamp, transform: camera.transform)
            case .session(let change) where processor.isInMapWorld:
                share(change, commanded: commanded)
                if case .host = node { pointers.hostChanged(change) }
            default:
                break
            }
        }
        if case .host(let host) = node { pointers.sendAnchors(host) }
        if processor.isInMapWorld, !inMapWorld {
            inMapWorld = true
            applyAll(processor: &processor, into: &incoming)
        }
        takeIn(processor: &processor, into: &incoming)
        return !interrupted.load(ordering: .relaxed)
    }

    /// Serves peers a little longer after the input has ended (`StreamPeerLink`).
    public func linger(processor: inout StreamProcessor, into incoming: inout [StreamEvent]) -> Bool {
        guard !finished else { return false }
        let now = ContinuousClock.now
        // A host's time counts while its space is empty: it closes once no peer came for that long.
        if case .host(let host) = node, host.peerCount > 0 {
            lingerDeadline = nil
        } else if lingerDeadline == nil, let linger {
            lingerDeadline = now + linger
        }
        if interrupted.load(ordering: .relaxed) || lingerDeadline.map({ now >= $0 }) ?? false {
            finished = true
            takeIn(processor: &processor, into: &incoming)
            incoming.append(.peer(PeerEvent(frame: processor.session.frameIndex, timestamp: processor.session.timestamp,
                                            peer: me.name, kind: .statistics(inbox.counts))))
            close()
            return false
        }
        if inbox.isEmpty { usleep(10_000) }
        takeIn(processor: &processor, into: &incoming)
        if case .host(let host) = node { pointers.sendAnchors(host) }
        return true
    }

    /// Leaves the space (a joiner says goodbye; a host closes it); once.
    public func close() {
        guard !closed else { return }
        closed = true
        switch node {
        case .host(let host): host.close()
        case .joiner(let joiner):
            joiner.close()
            handover?.standby.close()
        }
    }

    // MARK: Sending

    private func sendPose(timestamp: Double, transform: Transform) {
        sequence += 1
        guard let sealed = try? PoseDatagram(sender: me.id, sequence: sequence, timestamp: timestamp, transform: transform)
            .sealed(with: poseKey) else { return }
        switch node {
        case .host(let host): host.sendPose(sealed)
        case .joiner(let joiner): joiner.sendPose(sealed)
        }
    }

    /// A change this peer's session made: recorded with the next version and sent, when it is
    /// this peer's to share (its own object, or a command on another's).
    private func share(_ change: SessionEvent, commanded: Bool) {
        let anchor: ObjectAnchor, removed: Bool
        switch change.kind {
        case .objectAdded(let a), .objectMoved(let a), .objectSnapped(let a): (anchor, removed) = (a, false)
        case .objectRemoved(let a): (anchor, removed) = (a, true)
        default: return
        }
        let own = anchor.identifier.rawValue / ShareLimits.objectRange == UInt64(me.id)
        guard own || commanded else { return }
        var state = SharedObject(anchor, version: (objects[anchor.identifier]?.version ?? 0) + 1, author: me.name, removed: removed)
        // Where a snap is heading is where the object will be: send the target, once.
        if let snap = anchor.snap { state.transform.translation = snap.target }
        state.name = Self.clipped(state.name)
        objects[anchor.identifier] = state
        switch node {
        case .host(let host): host.broadcast(.object(state))
        case .joiner(let joiner): joiner.send(.object(state))
        }
    }

    /// `name` cut to at most ``ShareLimits/maximumName`` bytes at a character boundary.
    static func clipped(_ name: String) -> String {
        guard name.utf8.count > ShareLimits.maximumName else { return name }
        var result = ""
        for c in name where result.utf8.count + String(c).utf8.count <= ShareLimits.maximumName { result.append(c) }
        return result
    }

    // MARK: Receiving

    private func takeIn(processor: inout StreamProcessor, into incoming: inout [StreamEvent]) {
        let (inputs, poses) = inbox.take()
        let frame = processor.session.frameIndex, timestamp = processor.session.timestamp
        func emit(_ peer: String, _ kind: PeerEvent.Kind) {
            incoming.append(.peer(PeerEvent(frame: frame, timestamp: timestamp, peer: peer, kind: kind)))
        }
        // A pointer that leaves right after its last attitudes still has them cast: peers that
        // left are forgotten only after this call's attitudes.
        var departed: [PeerEntry] = []
        defer { for entry in departed { pointers.forget(entry) } }
        // The host no longer knows a departed peer's name; its last datagrams still carry it.
        func sender(_ id: UInt16) -> String { departed.last { $0.id == id }?.name ?? name(of: id) }
        for input in inputs {
            switch input {
            case .admitted(let entry):
                guard case .host(let host) = node else { continue }
                // A pointer has no frames: it needs neither the map nor the objects.
                if host.role(of: entry.id) != .pointer {
                    host.sendMap(WorldMapCoding.encode(processor.worldMap), to: entry.id)
                    for state in objectsInOrder { host.send(.object(state), to: entry.id) }
                    pointers.sendPlacements(to: entry.id, host)
                }
                host.broadcast(.peerJoined(entry), except: entry.id)
                emit(entry.name, .joined)
            case .joined(let entry):
                emit(entry.name, .joined)
            case .left(let entry, let reason, let last):
                if case .host(let host) = node, !formerHosts.contains(entry.id) {
                    host.broadcast(.peerLeft(peer: entry.id, reason: reason, last: last))
                }
                departed.append(entry)
                emit(entry.name, .left(reason: reason))
                if case .joiner(let joiner) = node, entry.id == joiner.host.id, !closed { handOver(from: joiner, emit: emit) }
            case .rejoined(let entry):
                // A peer rejoining this one's standby listener saw the host go: take over now.
                if case .joiner(let joiner) = node, let handover {
                    node = .host(handover.promote(highestPeer: highestPeer(joiner)))
                    joiner.close()
                    hostChanged(to: me.name, after: joiner, emit: emit)
                }
                // A pointer keeps no objects; a device or an observer gets every state this peer holds.
                guard case .host(let host) = node, host.role(of: entry.id) != .pointer else { continue }
                for state in objectsInOrder { host.send(.object(state), to: entry.id) }
            case .succession(let successors):
                handover?.successors = successors
            case .object(let state, let from):
                receive(state, from: from, processor: &processor, into: &incoming)
            case .refused(let who, let reason):
                warn("share: \(who): \(reason)")
                emit(who, .refused(reason: reason))
            case .pointerPlaced(let peer, let origin, let forward):
                let entry = PeerEntry(id: peer, name: name(of: peer))
                if !pointers.place(entry, origin: origin, forward: forward) {
                    warn("share: \(entry.name): pointer placement forward \(forward) is (nearly) vertical; its attitudes are ignored")
                }
                if case .host(let host) = node {
                    host.broadcast(.pointerPlacement(peer: peer, origin: origin, forward: forward), except: peer)
                }
            case .planeAnchor(let anchor):
                emit(hostName, .anchor(pointers.hostAnchor(anchor), anchor))
            case .planeAnchorRemoved(let identifier):
                if let anchor = pointers.hostAnchorRemoved(identifier) { emit(hostName, .anchor(.removed, anchor)) }
            }
        }
        guard processor.isInMapWorld else { return }
        for pose in poses where pose.sender != me.id {
            emit(sender(pose.sender), .participant(pose.transform))
        }
        for attitude in inbox.takeAttitudes() {
            let who = sender(attitude.sender)
            guard let cast = pointers.cast(attitude, name: who, session: processor.session) else { continue }
            emit(who, .pointer(origin: cast.ray.origin, direction: cast.ray.direction, hits: cast.hits))
        }
    }

    /// The host's name (this peer's, on the host).
    private var hostName: String {
        switch node {
        case .host: me.name
        case .joiner(let joiner): joiner.host.name
        }
    }

    /// The host went: this peer takes over or rejoins the successor (``HostHandover``), resends
    /// its objects' states there, and says who hosts the space now.
    private func handOver(from joiner: ShareJoiner, emit: (String, PeerEvent.Kind) -> Void) {
        guard let handover else { return }
        let (next, host) = handover.succeed(joiner, highestPeer: highestPeer(joiner), warn: warn)
        node = next
        if case .joiner(let rejoined) = next {
            // The new host sends poses where a peer's datagrams come from: say where at once,
            // not only with this peer's next pose (its stream may have no frames left).
            endpointSequence += 1
            rejoined.sendEndpoint(sequence: endpointSequence)
            for state in objectsInOrder { rejoined.send(.object(state)) }
        }
        hostChanged(to: host.name, after: joiner, emit: emit)
    }

    /// `old`'s host left and `newHost` hosts the space now: that host's `peerLeft` stays this
    /// peer's own, and one stderr line and a `hostChanged` event say who hosts it.
    private func hostChanged(to newHost: String, after old: ShareJoiner, emit: (String, PeerEvent.Kind) -> Void) {
        formerHosts.insert(old.host.id)
        warn(HostHandover.announcement(newHost: newHost, oldHost: old.host.name))
        emit(newHost, .hostChanged)
    }

    /// Every object state this peer holds, by identifier.
    private var objectsInOrder: [SharedObject] { objects.values.sorted { $0.identifier < $1.identifier } }

    /// The highest peer number `joiner` has heard of.
    private func highestPeer(_ joiner: ShareJoiner) -> UInt16 {
        joiner.names.table.withLock { $0.keys.max() } ?? joiner.me.id
    }

    private func name(of peer: UInt16) -> String {
        switch node {
        case .host(let host): host.name(of: peer) ?? "peer \(peer)"
        case .joiner(let joiner): joiner.name(of: peer) ?? "peer \(peer)"
        }
    }

    /// Another peer's state of an object: kept when it wins (and, on the host, passed on to the
    /// others), applied to the session when this peer is in the space's world.
    private func receive(_ state: SharedObject, from: UInt16, processor: inout StreamProcessor, into incoming: inout [StreamEvent]) {
        if let current = objects[state.identifier], !state.supersedes(current) {
            if current != state {
                inbox.count { $0.changesSuperseded += 1 }
                // The sender holds a losing state: the host tells it the winner.
                if case .host(let host) = node, from != 0 { host.send(.object(current), to: from) }
            }
            return
        }
        objects[state.identifier] = state
        if case .host(let host) = node { host.broadcast(.object(state), except: from) }
        guard processor.isInMapWorld else { return }
        apply(state, processor: &processor, into: &incoming)
    }

    private func apply(_ state: SharedObject, processor: inout StreamProcessor, into incoming: inout [StreamEvent]) {
        let change = state.removed ? processor.removeShared(state.identifier) : processor.applyShared(state.anchor)
        guard let change else { return }
        incoming.append(.peer(PeerEvent(frame: change.frame, timestamp: change.timestamp, peer: state.author, kind: .object(change))))
    }

    /// On arriving in the space's world: every object others shared so far.
    private func applyAll(processor: inout StreamProcessor, into incoming: inout [StreamEvent]) {
        for state in objectsInOrder where state.author != me.name {
            apply(state, processor: &processor, into: &incoming)
        }
    }
}
