import Crypto
import NIOCore
import NIOPosix
import NIOSSL
import PlaneKitStream
import PlaneKitMaps
import Synchronization

/// A joiner's network side: a TLS 1.3 connection to the host and a UDP socket for poses.
/// ``join(_:credentials:name:inbox:progress:timeout:)`` returns once the host's world map has
/// arrived; from then on what the host sends goes to the ``ShareInbox``.
final class ShareJoiner: Sendable {
    /// This peer's entry, as the host numbered it.
    let me: PeerEntry
    /// The host's entry (number 0).
    let host: PeerEntry
    /// The host's world map as it was when this peer joined.
    let map: WorldMap
    /// The map's size in bytes.
    let mapBytes: Int
    let inbox: ShareInbox
    let poseKey: SymmetricKey
    private let group: MultiThreadedEventLoopGroup
    let tcp: Channel
    private let udp: Channel
    private let hostAddress: SocketAddress
    let names: PeerNames
    /// This peer's newest pose or attitude, for its goodbye.
    private let sent = SentDatagrams()

    /// What the connection handler has gathered before the map is complete.
    struct Welcome: Sendable {
        var me: PeerEntry
        var host: PeerEntry
        var key: [UInt8]
        var peers: [PeerEntry]
        var map: WorldMap
        var mapBytes: Int
    }

    /// Connects to the host at `address`, says hello as `name` in `role` and waits (at most `timeout`
    /// seconds) for the welcome and the whole world map; `progress(received, total)` after each
    /// chunk. Throws ``ShareError`` when refused, when the handshake fails (a wrong secret) or
    /// when the host does not answer in time. A pointer (`role` `.pointer`) gets no map: the join
    /// completes with the welcome, and ``map`` is empty. With `rejoining`, it comes back after a
    /// hand-over instead: `rejoin` with its number, and the welcome alone completes it (no map).
    init(address: ListenAddress, credentials: SpaceCredentials, name: String, role: PeerRole = .device, inbox: ShareInbox,
         progress: @escaping @Sendable (Int, Int) -> Void, timeout: Double, rejoining: Rejoin? = nil) throws {
        self.inbox = inbox
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let context = try credentials.context(server: false)
        let loop = group.next()
        let welcome = loop.makePromise(of: Welcome.self)
        let names = PeerNames()
        self.names = names
        // Peers the host says left (and the host saying goodbye) leave once their last datagrams came.
        let departures = DepartingPeers()
        do {
            hostAddress = try SocketAddress.makeAddressResolvingHost(address.host, port: address.port)
            tcp = try ClientBootstrap(group: loop)
                .connectTimeout(.seconds(Int64(max(1, timeout))))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let tls = try NIOSSLClientHandler(context: context, serverHostname: nil,
                                                          customVerificationCallback: credentials.verify)
                        try channel.pipeline.syncOperations.addHandler(tls)
                        try channel.pipeline.syncOperations.addHandler(
                            JoinerConnectionHandler(name: name, role: role, welcome: welcome, inbox: inbox, names: names,
                                                    departures: departures, progress: progress, rejoining: rejoining))
                    }
                }
                .connect(to: hostAddress).wait()
            let deadline = loop.scheduleTask(in: .milliseconds(Int64(timeout * 1000))) {
                welcome.fail(ShareError.connection("the host sent no world map within \(Int(timeout)) s"))
            }
            let joined: Welcome
            do {
                joined = try welcome.futureResult.wait()
                deadline.cancel()
            } catch {
                deadline.cancel()
                try? tcp.close().wait()
                throw error
            }
            me = joined.me
            host = joined.host
            map = joined.map
            mapBytes = joined.mapBytes
            let key = SymmetricKey(data: joined.key)
            poseKey = key
            let bindHost = hostAddress.protocol == .inet6 ? "::" : "0.0.0.0"
            udp = try DatagramBootstrap(group: loop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(PoseReceiver(key: key, inbox: inbox, departures: departures) { _, _, _ in true })
                    }
                }
                .bind(host: bindHost, port: 0).wait()
        } catch let error as ShareError {
            try? group.syncShutdownGracefully()
            throw error
        } catch {
            try? group.syncShutdownGracefully()
            throw ShareError.connection(TLSProblem.describe(error))
        }
    }

    /// Sends `message` to the host.
    func send(_ message: ShareMessage) { tcp.send(message) }

    /// Sends this peer's sealed datagram (a pose, a pointer's attitude, or an observer's
    /// ``EndpointDatagram``) to the host, which relays poses and attitudes.
    func sendPose(_ sealed: [UInt8]) {
        sent.note(sealed)
        var buffer = udp.allocator.buffer(capacity: sealed.count)
        buffer.writeBytes(sealed)
        udp.writeAndFlush(AddressedEnvelope(remoteAddress: hostAddress, data: buffer), promise: nil)
    }

    /// Tells the host where this peer's poses go with the endpoint datagram `sequence` (counting
    /// up from 1 for each host): for a peer that has no pose of its own to send, or none yet.
    func sendEndpoint(sequence: UInt64) {
        guard let sealed = try? EndpointDatagram(sender: me.id, sequence: sequence).sealed(with: poseKey) else { return }
        sendPose(sealed)
    }

    /// The name of peer `id`, if known.
    func name(of id: UInt16) -> String? { names.table.withLock { $0[id] } }

    /// Says goodbye (after the newest datagrams it sent) and stops the event loop.
    func close() {
        tcp.send(.bye(last: sent.last))
        try? tcp.close().wait()
        try? udp.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The joiner's connection to the host: hello, then the welcome and the map (assembled and
/// decoded, which completes the join), then peers and objects for the stream.
final class JoinerConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let name: String
    private let role: PeerRole
    private let welcome: EventLoopPromise<ShareJoiner.Welcome>
    private let inbox: ShareInbox
    private let names: PeerNames
    private let departures: DepartingPeers
    private let progress: @Sendable (Int, Int) -> Void
    private let rejoining: ShareJoiner.Rejoin?
    private var framer = MessageFramer()
    private var greeted: (me: PeerEntry, host: PeerEntry, key: [UInt8], peers: [PeerEntry])?
    private var mapBytes: [UInt8] = []
    private var joined = false
    private var closing = false

    init(name: String, role: PeerRole, welcome: EventLoopPromise<ShareJoiner.Welcome>, inbox: ShareInbox, names: PeerNames,
         departures: DepartingPeers, progress: @escaping @Sendable (Int, Int) -> Void, rejoining: ShareJoiner.Rejoin?) {
        self.departures = departures
        self.name = name
        self.role = role
        self.rejoining = rejoining
        self.welcome = welcome
        self.inbox = inbox
        self.names = names
        self.progress = progress
    }

    func channelActive(context: ChannelHandlerContext) {
        context.channel.send(rejoining.map { .rejoin(name: name, peer: $0.me.id, role: role) } ?? .hello(name: name, role: role))
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        var bytes = unwrapInboundIn(data)
        do throws(ShareError) {
            for message in try framer.feed(&bytes) where !closing { try handle(message, context) }
        } catch {
            fail(context, error)
        }
    }

    private func handle(_ message: ShareMessage, _ context: ChannelHandlerContext) throws(ShareError) {
        switch message {
        case .welcome(let peer, let host, let key, let peers) where greeted == nil:
            let me = PeerEntry(id: peer, name: name), hostEntry = PeerEntry(id: rejoining?.host.id ?? 0, name: host)
            greeted = (me, hostEntry, key, peers)
            names.table.withLock { table in for entry in peers + [me, hostEntry] { table[entry.id] = entry.name } }
            if let rejoining {
                // Back in the space it was already in: its world and map are the ones it has.
                guard peer == rejoining.me.id else { throw .malformed("rejoined as peer \(peer), not \(rejoining.me.id)") }
                joined = true
                welcome.succeed(ShareJoiner.Welcome(me: me, host: hostEntry, key: key, peers: peers, map: rejoining.map,
                                                    mapBytes: rejoining.mapBytes))
            } else if role == .pointer {
                // A pointer has no frames to relocalize: it is in once welcomed.
                joined = true
                let empty = WorldMap(anchors: [], objects: [], keyframes: [], points: [], normals: [], mappingStatus: .notAvailable,
                                     nextPlaneNumber: 1, nextObjectNumber: 1)
                welcome.succeed(ShareJoiner.Welcome(me: me, host: hostEntry, key: key, peers: peers, map: empty, mapBytes: 0))
            }
        case .refuse(let reason):
            throw .refused(reason)
        case .mapChunk(let total, let offset, let chunk) where greeted != nil && !joined:
            guard offset == UInt64(mapBytes.count) else { throw .malformed("map chunk at \(offset), expected \(mapBytes.count)") }
            if mapBytes.isEmpty { mapBytes.reserveCapacity(Int(total)) }
            mapBytes += chunk
            progress(mapBytes.count, Int(total))
            if UInt64(mapBytes.count) == total, let greeted {
                let map: WorldMap
                do { map = try WorldMapCoding.decode(mapBytes) } catch { throw .malformed("the host's world map: \(error)") }
                joined = true
                welcome.succeed(ShareJoiner.Welcome(me: greeted.me, host: greeted.host, key: greeted.key, peers: greeted.peers,
                                                    map: map, mapBytes: mapBytes.count))
                mapBytes = []
            }
        case .object(let object) where greeted != nil:
            inbox.post(.object(object, from: 0))
        case .peerJoined(let entry) where greeted != nil:
            names.table.withLock { $0[entry.id] = entry.name }
            inbox.post(.joined(entry))
        case .succession(let successors) where greeted != nil:
            inbox.post(.succession(successors))
        case .peerLeft(let peer, let reason, let last) where greeted != nil:
            let entry = PeerEntry(id: peer, name: names.table.withLock { $0[peer] } ?? "peer \(peer)")
            let (inbox, departures) = (inbox, departures)
            // Its last datagrams, which the host relayed before this, may still be on the way.
            departures.depart(peer, after: last, on: context.eventLoop) {
                _ = departures.forget(peer)
                inbox.post(.left(entry, reason: reason, last: []))
            }
        case .pointerPlacement(let peer, let origin, let forward) where greeted != nil:
            inbox.post(.pointerPlaced(peer: peer, origin: origin, forward: forward))
        case .planeAnchor(let anchor) where greeted != nil:
            inbox.post(.planeAnchor(anchor))
        case .planeAnchorRemoved(let identifier) where greeted != nil:
            inbox.post(.planeAnchorRemoved(identifier))
        case .bye(let last):
            closing = true
            if let host = greeted?.host {
                let inbox = inbox
                departures.depart(host.id, after: last, on: context.eventLoop) {
                    inbox.post(.left(host, reason: "the host closed the space", last: []))
                }
            }
            welcome.fail(ShareError.connection("the host closed the space"))
            context.close(promise: nil)
        default:
            throw .malformed("unexpected message of type \(message.type) from the host")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, error as? ShareError ?? .connection(TLSProblem.describe(error)))
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !closing {
            closing = true
            welcome.fail(ShareError.connection("the host closed the connection before the world map was sent"))
            if joined, let host = greeted?.host { inbox.post(.left(host, reason: "connection closed", last: [])) }
        }
    }

    /// Ends the connection for `error`: before the join it fails the join, after it the host is gone.
    private func fail(_ context: ChannelHandlerContext, _ error: ShareError) {
        guard !closing else { return }
        closing = true
        welcome.fail(error)
        if joined {
            inbox.count { $0.peersRefused += 1 }
            inbox.post(.refused(who: greeted?.host.name ?? "the host", reason: error.description))
            if let host = greeted?.host { inbox.post(.left(host, reason: "dropped: \(error.description)", last: [])) }
        }
        context.close(promise: nil)
    }
}

/// The names of the space's peers by number, as the joiner's connection learns them.
final class PeerNames: Sendable {
    let table = Mutex<[UInt16: String]>([:])
}
