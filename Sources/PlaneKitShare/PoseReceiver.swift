import Crypto
import NIOCore

/// The pose socket's reader, host and joiner alike: opens each datagram (a pose, or a
/// pointer's attitude, by its kind), drops the tampered
/// (failed authentication) and the replayed or stale (not newer than the sender's newest), counts
/// both, and posts the rest to the inbox after `accept` (the host relays it there) agrees.
/// The first datagram of each kind dropped is also reported (one stderr line and event); the
/// rest are only counted, so a flood cannot flood the output. On the host, an authentic
/// ``EndpointDatagram`` (newer than its sender's last) goes to `register` instead. Each
/// datagram posted is noted in `departures`, which lets a departing sender go once its last came.
final class PoseReceiver: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let key: SymmetricKey
    private let inbox: ShareInbox
    private let accept: @Sendable (ByteBuffer, UInt16, SocketAddress) -> Bool
    private let register: (@Sendable (UInt16, SocketAddress) -> Void)?
    private let departures: DepartingPeers
    private var replay = ReplayGuard()
    private var registrations = ReplayGuard()
    private var reportedTampered = false
    private var reportedStale = false

    init(key: SymmetricKey, inbox: ShareInbox, departures: DepartingPeers, register: (@Sendable (UInt16, SocketAddress) -> Void)? = nil,
         accept: @escaping @Sendable (ByteBuffer, UInt16, SocketAddress) -> Bool) {
        self.key = key
        self.inbox = inbox
        self.departures = departures
        self.register = register
        self.accept = accept
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let who = "\(envelope.remoteAddress.ipAddress ?? "?"):\(envelope.remoteAddress.port ?? 0)"
        let bytes = envelope.data.getBytes(at: envelope.data.readerIndex, length: envelope.data.readableBytes) ?? []
        if let register, DatagramSeal.kind(of: bytes) == EndpointDatagram.kind {
            guard let endpoint = EndpointDatagram.open(bytes, with: key) else { return tampered(who) }
            guard registrations.accept(sender: endpoint.sender, sequence: endpoint.sequence) else {
                return stale(who, sender: endpoint.sender, sequence: endpoint.sequence)
            }
            register(endpoint.sender, envelope.remoteAddress)
            return
        }
        let sender: UInt16, sequence: UInt64
        let pose: PoseDatagram?, attitude: AttitudeDatagram?
        do {
            if DatagramSeal.kind(of: bytes) == AttitudeDatagram.kind {
                let a = try AttitudeDatagram.open(bytes, with: key)
                (sender, sequence, pose, attitude) = (a.sender, a.sequence, nil, a)
            } else {
                let p = try PoseDatagram.open(bytes, with: key)
                (sender, sequence, pose, attitude) = (p.sender, p.sequence, p, nil)
            }
        } catch {
            return tampered(who)
        }
        guard replay.accept(sender: sender, sequence: sequence) else {
            return stale(who, sender: sender, sequence: sequence)
        }
        guard accept(envelope.data, sender, envelope.remoteAddress) else { return }
        if let pose { inbox.post(pose) }
        if let attitude { inbox.post(attitude) }
        departures.saw(sender, kind: pose == nil ? AttitudeDatagram.kind : PoseDatagram.kind, sequence: sequence)
    }

    private func tampered(_ who: String) {
        inbox.count { $0.datagramsTampered += 1 }
        if !reportedTampered {
            reportedTampered = true
            inbox.post(.refused(who: who, reason: "a pose datagram failed authentication (tampered, or not from this space); dropped, and further ones only counted"))
        }
    }

    private func stale(_ who: String, sender: UInt16, sequence: UInt64) {
        inbox.count { $0.datagramsStale += 1 }
        if !reportedStale {
            reportedStale = true
            inbox.post(.refused(who: who, reason: "a replayed or stale pose datagram (sequence \(sequence) of peer \(sender)); dropped, and further ones only counted"))
        }
    }
}
