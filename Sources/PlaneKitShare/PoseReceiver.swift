import Crypto
import NIOCore

/// The pose socket's reader, host and joiner alike: opens each datagram (a pose, or a
/// pointer's attitude, by its kind), drops the tampered
/// (failed authentication) and the replayed or stale (not newer than the sender's newest), counts
/// both, and posts the rest to the inbox after `accept` (the host relays it there) agrees.
/// The first datagram of each kind dropped is also reported (one stderr line and event); the
/// rest are only counted, so a flood cannot flood the output.
final class PoseReceiver: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>

    private let key: SymmetricKey
    private let inbox: ShareInbox
    private let accept: @Sendable (ByteBuffer, UInt16, SocketAddress) -> Bool
    private var replay = ReplayGuard()
    private var reportedTampered = false
    private var reportedStale = false

    init(key: SymmetricKey, inbox: ShareInbox, accept: @escaping @Sendable (ByteBuffer, UInt16, SocketAddress) -> Bool) {
        self.key = key
        self.inbox = inbox
        self.accept = accept
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let who = "\(envelope.remoteAddress.ipAddress ?? "?"):\(envelope.remoteAddress.port ?? 0)"
        let bytes = envelope.data.getBytes(at: envelope.data.readerIndex, length: envelope.data.readableBytes) ?? []
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
            inbox.count { $0.datagramsTampered += 1 }
            if !reportedTampered {
                reportedTampered = true
                inbox.post(.refused(who: who, reason: "a pose datagram failed authentication (tampered, or not from this space); dropped, and further ones only counted"))
            }
            return
        }
        guard replay.accept(sender: sender, sequence: sequence) else {
            inbox.count { $0.datagramsStale += 1 }
            if !reportedStale {
                reportedStale = true
                inbox.post(.refused(who: who, reason: "a replayed or stale pose datagram (sequence \(sequence) of peer \(sender)); dropped, and further ones only counted"))
            }
            return
        }
        guard accept(envelope.data, sender, envelope.remoteAddress) else { return }
        if let pose { inbox.post(pose) }
        if let attitude { inbox.post(attitude) }
    }
}
