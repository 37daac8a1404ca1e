import Crypto
import NIOCore
import NIOPosix
import NIOSSL
import PlaneKitStream
import Synchronization

/// The host's network side: a TLS 1.3 listener for joiners and a UDP socket on the same port
/// for poses. It runs on its own event loop; the stream's thread reads the ``ShareInbox`` and
/// calls ``send(_:to:)``, ``broadcast(_:except:)`` and ``sendPose(_:)``.
final class ShareHost: Sendable {
    /// The host's own entry (number 0; a successor keeps the number it joined with).
    let me: PeerEntry
    /// The most peers in the space, the host included.
    let maxPeers: Int
    let inbox: ShareInbox
    let poseKey: SymmetricKey
    let poseKeyBytes: [UInt8]
    /// Peers that said goodbye, until their last datagrams came (or the grace period passed).
    let departures: DepartingPeers
    /// The host's own newest pose, for its goodbye.
    private let sent = SentDatagrams()
    private let group: MultiThreadedEventLoopGroup
    let state = Mutex(State())
    /// Set once both sockets are bound.
    private let channels = Mutex<(tcp: Channel?, udp: Channel?)>((nil, nil))

    struct State {
        /// Admitted peers and their connections.
        var peers: [UInt16: (name: String, channel: Channel)] = [:]
        /// Where each peer's poses come from (learnt from its first authentic datagram).
        var endpoints: [UInt16: SocketAddress] = [:]
        /// What each admitted peer is (pointers get no map, no poses and no broadcasts).
        var roles: [UInt16: PeerRole] = [:]
        var nextPeer: UInt16 = 1
        /// False while this is a joiner's standby listener: it lets in only peers that rejoin.
        var active = true
        /// The peers that can take over, by number (``HostHandover``).
        var successors: [UInt16: Successor] = [:]
        /// Admitted peers whose welcome is held (``holdsWelcome(of:in:)``), with the peers that
        /// were in when they were let in.
        var heldWelcomes: [UInt16: [PeerEntry]] = [:]
    }

    /// The longest a new peer's welcome waits for the standby ports of the devices let in
    /// before it (``holdsWelcome(of:in:)``): a device whose standby listener could not open
    /// never sends one.
    static let welcomeHold: TimeAmount = .seconds(1)

    /// The port both sockets are bound to.
    let port: Int

    /// Binds the TLS listener and the UDP socket to `address` and starts serving. With
    /// `standby` (a joiner's entry and the space's pose key) it is that joiner's standby
    /// listener: inactive until it takes over (``HostHandover``). A peer that says goodbye stays
    /// in the space at most `grace` for its last datagrams (``DepartingPeers``).
    init(address: ListenAddress, credentials: SpaceCredentials, name: String, maxPeers: Int, inbox: ShareInbox,
         standby: (me: PeerEntry, key: SymmetricKey)? = nil, grace: TimeAmount = DepartingPeers.grace) throws {
        me = standby?.me ?? PeerEntry(id: 0, name: name)
        self.maxPeers = maxPeers
        self.inbox = inbox
        let departures = DepartingPeers(grace: grace)
        self.departures = departures
        let key = standby?.key ?? SymmetricKey(size: .bits256)
        poseKey = key
        poseKeyBytes = key.withUnsafeBytes { Array($0) }
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let context = try credentials.context(server: true)
        // The handlers reach the host through this box, filled in below (they run only after bind).
        let hostBox = HostReference()
        let tcp = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let tls = NIOSSLServerHandler(context: context, customVerificationCallback: credentials.verify)
                    try channel.pipeline.syncOperations.addHandler(tls)
                    // A connection that says nothing must not hold a socket forever.
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: .seconds(ShareLimits.helloSeconds)))
                    try channel.pipeline.syncOperations.addHandler(HostConnectionHandler(host: hostBox))
                }
            }
            .bind(host: address.host, port: address.port).wait()
        port = tcp.localAddress?.port ?? address.port
        do {
            let udp = try DatagramBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let receiver = PoseReceiver(key: key, inbox: inbox, departures: departures, register: { sender, address in
                            hostBox.value?.register(sender, at: address)
                        }) { datagram, sender, address in
                            hostBox.value?.relay(datagram, from: sender, at: address) ?? false
                        }
                        try channel.pipeline.syncOperations.addHandler(receiver)
                    }
                }
                .bind(host: address.host, port: port).wait()
            channels.withLock { $0 = (tcp, udp) }
        } catch {
            try? tcp.close().wait()
            try? group.syncShutdownGracefully()
            throw error
        }
        if standby != nil { state.withLock { $0.active = false } }
        hostBox.host.withLock { $0 = self }
    }

    /// A hello from `channel`: admitted (welcome sent, the stream told) or refused.
    func hello(name: String, role: PeerRole, channel: Channel) -> UInt16? {
        let outcome: Result<(entry: PeerEntry, others: [PeerEntry], held: Bool), ShareError> = state.withLock { s in
            guard s.active else { return .failure(.refused("'\(me.name)' is not the space's host")) }
            let entry = PeerEntry(id: s.nextPeer, name: name)
            return admit(entry, role: role, channel: channel, into: &s).map { others in
                s.nextPeer += 1
                // Decided under the same lock as the admission, so that no broadcast from the
                // stream's thread reaches a held peer before its welcome.
                let held = Self.holdsWelcome(of: entry.id, in: s)
                if held { s.heldWelcomes[entry.id] = others }
                return (entry, others, held)
            }
        }
        switch outcome {
        case .success(let (entry, others, held)):
            if held {
                channel.eventLoop.scheduleTask(in: Self.welcomeHold) { [self] in releaseWelcomes(andAnyway: entry.id) }
            } else {
                welcome(entry, others: others, on: channel)
                inbox.post(.admitted(entry))
            }
            return entry.id
        case .failure(let error):
            refuse(name, on: channel, error)
            return nil
        }
    }

    /// `true` while a device let in before peer `id` has not said where its standby listener
    /// is. Peer `id`'s welcome, which carries the order of succession, then waits (at most
    /// ``welcomeHold``): were this host to go in between, `id` would not know that device,
    /// would take over too, and the space would split in two.
    static func holdsWelcome(of id: UInt16, in s: State) -> Bool {
        s.peers.keys.contains { $0 < id && s.roles[$0] == .device && s.successors[$0] == nil }
    }

    /// Welcomes the held peers whose earlier devices' standby ports are all known now, and
    /// `forced` whatever it still waits for (its hold ran out), in the order they came.
    func releaseWelcomes(andAnyway forced: UInt16? = nil) {
        let released: [(entry: PeerEntry, others: [PeerEntry], channel: Channel)] = state.withLock { s in
            var ready: [(PeerEntry, [PeerEntry], Channel)] = []
            for id in s.heldWelcomes.keys.sorted() {
                guard let peer = s.peers[id], let others = s.heldWelcomes[id] else { continue }
                // A peer waiting for an earlier one that is held itself waits on it, however long.
                guard id == forced || !Self.holdsWelcome(of: id, in: s) else { continue }
                s.heldWelcomes[id] = nil
                ready.append((PeerEntry(id: id, name: peer.name), others, peer.channel))
            }
            return ready
        }
        for (entry, others, channel) in released {
            welcome(entry, others: others, on: channel)
            inbox.post(.admitted(entry))
        }
    }

    /// Under the state's lock: lets `entry` in on `channel` as a `role` unless its name is taken
    /// or the space is full; the peers already in (for its welcome).
    func admit(_ entry: PeerEntry, role: PeerRole, channel: Channel, into s: inout State) -> Result<[PeerEntry], ShareError> {
        if entry.name == me.name || s.peers.values.contains(where: { $0.name == entry.name }) {
            return .failure(.refused("the name '\(entry.name)' is taken in this space; give another --name"))
        }
        guard s.peers.count + 1 < maxPeers else {
            return .failure(.refused("the space is full (\(maxPeers) peers, --max-peers)"))
        }
        let others = [me] + s.peers.map { PeerEntry(id: $0.key, name: $0.value.name) }.sorted { $0.id < $1.id }
        s.peers[entry.id] = (entry.name, channel)
        s.roles[entry.id] = role
        return .success(others)
    }

    /// Lets `entry` in on `channel`: its `welcome` (`others`: the peers already in), then at once
    /// the order of succession, so that no admitted peer lacks it if this host goes before
    /// anything else is sent.
    func welcome(_ entry: PeerEntry, others: [PeerEntry], on channel: Channel) {
        channel.send(.welcome(peer: entry.id, host: me.name, poseKey: poseKeyBytes, peers: others))
        channel.send(.succession(successorsInOrder))
    }

    /// Refuses `name`'s connection: a `refuse` message, the close, a count and an event.
    func refuse(_ name: String, on channel: Channel, _ error: ShareError) {
        if case .refused(let reason) = error { channel.send(.refuse(reason: reason)) }
        channel.close(promise: nil)
        inbox.count { $0.peersRefused += 1 }
        inbox.post(.refused(who: name, reason: "\(error)"))
    }

    /// Peer `id`'s connection closed or was dropped (or it said goodbye and its last datagrams came).
    func left(_ id: UInt16, reason: String) {
        let name: String? = state.withLock { s in
            s.endpoints[id] = nil
            s.roles[id] = nil
            s.successors[id] = nil
            let name = s.peers.removeValue(forKey: id)?.name
            // A peer that goes while its welcome is held was never in the space for the stream.
            return s.heldWelcomes.removeValue(forKey: id) == nil ? name : nil
        }
        let last = departures.forget(id)
        if let name {
            inbox.post(.left(PeerEntry(id: id, name: name), reason: reason, last: last))
            broadcastSuccession()
        }
        // The peers held for it need not wait any more.
        releaseWelcomes()
    }

    /// Peer `id` said goodbye after the datagrams `last`: it stays in the space (its datagrams
    /// accepted and relayed) until they came or the grace period passed, then leaves.
    func depart(_ id: UInt16, after last: [LastDatagram], on loop: EventLoop) {
        departures.depart(id, after: last, on: loop) { [self] in left(id, reason: "left") }
    }

    /// Sends `message` to peer `id` (if still connected).
    func send(_ message: ShareMessage, to id: UInt16) {
        state.withLock { $0.peers[id]?.channel }?.send(message)
    }

    /// Sends `message` to every peer but `except`; pointers get only the goodbye and the order
    /// of succession (they have no world to keep in step, but follow a hand-over).
    func broadcast(_ message: ShareMessage, except: UInt16? = nil) {
        let forPointers: Bool
        switch message {
        case .bye, .succession: forPointers = true
        default: forPointers = false
        }
        let targets = state.withLock { s in
            s.peers.filter { $0.key != except && s.heldWelcomes[$0.key] == nil && (s.roles[$0.key] != .pointer || forPointers) }
                .map(\.value.channel)
        }
        for channel in targets { channel.send(message) }
    }

    /// Sends the world map to peer `id`, in chunks.
    func sendMap(_ bytes: [UInt8], to id: UInt16) {
        guard let channel = state.withLock({ $0.peers[id]?.channel }) else { return }
        var offset = 0
        repeat {
            let end = min(bytes.count, offset + ShareLimits.mapChunk)
            channel.send(.mapChunk(total: UInt64(bytes.count), offset: UInt64(offset), bytes: Array(bytes[offset..<end])))
            offset = end
        } while offset < bytes.count
    }

    /// An authentic pose from `sender` at `address`: remembered as its endpoint and relayed, as
    /// it came, to every other peer whose endpoint is known. `false` for a sender not in the space.
    func relay(_ datagram: ByteBuffer, from sender: UInt16, at address: SocketAddress) -> Bool {
        let targets: [SocketAddress]? = state.withLock { s in
            guard s.peers[sender] != nil else { return nil }
            // A pointer only sends: nothing is sent back to it.
            if s.roles[sender] != .pointer { s.endpoints[sender] = address }
            return s.endpoints.filter { $0.key != sender }.map(\.value)
        }
        guard let targets, let udp = channels.withLock({ $0.udp }) else { return targets != nil }
        Self.write(datagram, to: targets, on: udp)
        return true
    }

    /// An authentic ``EndpointDatagram`` from `sender` at `address`: the poses of the space go
    /// there from now on (a peer that sends none of its own, an observer, gets them too).
    func register(_ sender: UInt16, at address: SocketAddress) {
        state.withLock { s in
            if s.peers[sender] != nil { s.endpoints[sender] = address }
        }
    }

    /// Writes `datagram` to every target and flushes once: NIO then sends them in one
    /// `sendmmsg` call, not one system call (and one wake-up of the loop) per peer.
    private static func write(_ datagram: ByteBuffer, to targets: [SocketAddress], on udp: Channel) {
        let send: @Sendable () -> Void = {
            for target in targets { udp.write(AddressedEnvelope(remoteAddress: target, data: datagram), promise: nil) }
            udp.flush()
        }
        if udp.eventLoop.inEventLoop { send() } else { udp.eventLoop.execute(send) }
    }

    /// Sends the host's own sealed pose to every peer whose endpoint is known.
    func sendPose(_ sealed: [UInt8]) {
        sent.note(sealed)
        let targets = state.withLock { Array($0.endpoints.values) }
        guard !targets.isEmpty, let udp = channels.withLock({ $0.udp }) else { return }
        var buffer = udp.allocator.buffer(capacity: sealed.count)
        buffer.writeBytes(sealed)
        Self.write(buffer, to: targets, on: udp)
    }

    /// The name of peer `id`, if it is in the space.
    func name(of id: UInt16) -> String? {
        id == me.id ? me.name : state.withLock { $0.peers[id]?.name }
    }

    /// What peer `id` is (the host is a device).
    func role(of id: UInt16) -> PeerRole {
        id == me.id ? .device : state.withLock { $0.roles[id] } ?? .device
    }

    /// How many peers are connected (the host not counted).
    var peerCount: Int { state.withLock { $0.peers.count } }

    /// Says goodbye to every peer and stops the event loop.
    func close() {
        broadcast(.bye(last: sent.last))
        let (tcp, udp) = channels.withLock { $0 }
        let connections = state.withLock { $0.peers.values.map(\.channel) }
        for channel in connections { try? channel.close().wait() }
        try? udp?.close().wait()
        try? tcp?.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The host, for handlers created before it is complete.
final class HostReference: Sendable {
    let host = Mutex<ShareHost?>(nil)
    var value: ShareHost? { host.withLock { $0 } }
}

/// One joiner's connection, on the host: frames its messages, admits it on `hello`, hands its
/// object changes to the stream (an observer's are refused), drops it on anything else.
final class HostConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let host: HostReference
    private var framer = MessageFramer()
    private var peer: UInt16?
    private var role = PeerRole.device
    private var closing = false

    init(host: HostReference) { self.host = host }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing, let host = host.value else { return }
        var bytes = unwrapInboundIn(data)
        let messages: [ShareMessage]
        do {
            messages = try framer.feed(&bytes)
        } catch {
            drop(context, host, reason: "\(error)")
            return
        }
        for message in messages where !closing {
            switch (message, peer) {
            case (.hello(let name, let role), nil):
                peer = host.hello(name: name, role: role, channel: context.channel)
                if peer == nil { closing = true }
            case (.pointerPlacement(_, let origin, let forward), let id?) where host.role(of: id) == .pointer:
                host.inbox.post(.pointerPlaced(peer: id, origin: origin, forward: forward))
            case (.object, let id?) where host.role(of: id) != .device:
                drop(context, host, reason: "a peer in the \(host.role(of: id)) role sent an object change")
            case (.object(let object), let id?):
                host.inbox.post(.object(object, from: id))
            case (.rejoin(let name, let number, let role), nil):
                peer = host.rejoin(name: name, peer: number, role: role, channel: context.channel)
                if peer == nil { closing = true }
            case (.standby(let port), let id?):
                host.standby(id, address: context.channel.remoteAddress?.ipAddress, port: port)
            case (.bye(let last), _):
                closing = true
                // It leaves once its last datagrams came (they may be behind the goodbye).
                if let id = peer { host.depart(id, after: last, on: context.eventLoop) }
                peer = nil
                context.close(promise: nil)
            default:
                drop(context, host, reason: "unexpected message of type \(message.type)")
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !closing, let host = host.value else { return }
        if peer == nil {
            closing = true
            host.inbox.count { $0.peersRefused += 1 }
            host.inbox.post(.refused(who: Self.address(context), reason: TLSProblem.describe(error)))
            context.close(promise: nil)
        } else {
            drop(context, host, reason: TLSProblem.describe(error))
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Only a connection that has not said hello yet is dropped for being quiet: an admitted
        // peer may have nothing to say for a long time.
        if event is IdleStateHandler.IdleStateEvent, peer == nil, !closing, let host = host.value {
            closing = true
            host.inbox.count { $0.peersRefused += 1 }
            host.inbox.post(.refused(who: Self.address(context), reason: "no hello within \(ShareLimits.helloSeconds) s"))
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let peer, let host = host.value { host.left(peer, reason: closing ? "left" : "connection closed") }
        peer = nil
    }

    /// Drops the connection for `reason`: a refusal (one stderr line and event) and, for an
    /// admitted peer, its `peerLeft`.
    private func drop(_ context: ChannelHandlerContext, _ host: ShareHost, reason: String) {
        closing = true
        host.inbox.count { $0.peersRefused += 1 }
        let who = peer.flatMap(host.name(of:)) ?? Self.address(context)
        host.inbox.post(.refused(who: who, reason: reason))
        if let peer { host.left(peer, reason: "dropped: \(reason)") }
        peer = nil
        context.close(promise: nil)
    }

    static func address(_ context: ChannelHandlerContext) -> String {
        context.channel.remoteAddress.map { "\($0.ipAddress ?? "?"):\($0.port ?? 0)" } ?? "a stranger"
    }
}

/// Turns NIO's and BoringSSL's errors into one phrase a user can act on.
enum TLSProblem {
    static func describe(_ error: any Error) -> String {
        if error is NIOSSLError || error is BoringSSLError {
            return "TLS handshake failed (a wrong space secret, or not a PlaneKit peer): \(error)"
        }
        if let share = error as? ShareError { return share.description }
        return "\(error)"
    }
}
