import NIOCore
import Synchronization

/// The newest datagram of one kind a peer sent (or the host relayed) before it left: what a
/// `bye` or a `peerLeft` announces (docs/protocol.md, "Leaving").
public struct LastDatagram: Sendable, Equatable {
    /// The datagram kind (1 pose, 2 attitude).
    public var kind: UInt8
    /// Its sequence number.
    public var sequence: UInt64

    /// A mark from its parts.
    public init(kind: UInt8, sequence: UInt64) {
        self.kind = kind
        self.sequence = sequence
    }
}

/// Peers that said goodbye while their last datagrams may still be on the way. UDP is not
/// ordered with TLS: a pointer's last attitude can arrive after its `bye`, a peer's last pose
/// after the host's `peerLeft`. So a receiver does not let a departing peer go at once: it
/// keeps accepting its datagrams until it has seen the sequence numbers the goodbye announced
/// (per kind) or ``grace`` has passed, and only then runs the departure (`peerLeft`, forgetting
/// the peer). It also remembers the newest datagram it accepted of each peer and kind, which a
/// host announces in its `peerLeft`.
final class DepartingPeers: Sendable {
    /// How long a receiver waits at most for a departed peer's last datagrams.
    static let grace = TimeAmount.milliseconds(250)

    private struct Waiting {
        var last: [LastDatagram]
        var leave: @Sendable () -> Void
    }

    private struct State {
        /// The newest sequence number accepted, by sender and kind.
        var newest: [UInt16: [UInt8: UInt64]] = [:]
        /// Peers that said goodbye and whose last datagrams have not all come.
        var waiting: [UInt16: Waiting] = [:]
    }

    private let state = Mutex(State())
    /// This receiver's grace period.
    let grace: TimeAmount

    /// A receiver that waits at most `grace` for a departed peer's last datagrams.
    init(grace: TimeAmount = DepartingPeers.grace) { self.grace = grace }

    /// A datagram of `kind` numbered `sequence` from `sender` was accepted (and posted): if
    /// `sender` is departing and this was the last one it announced, it leaves now.
    func saw(_ sender: UInt16, kind: UInt8, sequence: UInt64) {
        let leave: (@Sendable () -> Void)? = state.withLock { s in
            s.newest[sender, default: [:]][kind] = max(sequence, s.newest[sender]?[kind] ?? 0)
            guard let waiting = s.waiting[sender], Self.complete(waiting.last, s.newest[sender]) else { return nil }
            s.waiting[sender] = nil
            return waiting.leave
        }
        leave?()
    }

    /// `sender` said goodbye after the datagrams `last`: `leave` runs once, at once when they
    /// have all been seen, else when the last of them comes or after ``grace`` on `loop`.
    func depart(_ sender: UInt16, after last: [LastDatagram], on loop: EventLoop, leave: @escaping @Sendable () -> Void) {
        let now = state.withLock { s in
            if Self.complete(last, s.newest[sender]) { return true }
            s.waiting[sender] = Waiting(last: last, leave: leave)
            return false
        }
        if now { return leave() }
        loop.scheduleTask(in: grace) { [self] in
            state.withLock { $0.waiting.removeValue(forKey: sender) }?.leave()
        }
    }

    /// Forgets `sender` (it has left); the newest datagram of each kind accepted from it.
    func forget(_ sender: UInt16) -> [LastDatagram] {
        let newest = state.withLock { s in
            s.waiting[sender] = nil
            return s.newest.removeValue(forKey: sender) ?? [:]
        }
        return newest.map { LastDatagram(kind: $0.key, sequence: $0.value) }.sorted { $0.kind < $1.kind }
    }

    private static func complete(_ last: [LastDatagram], _ newest: [UInt8: UInt64]?) -> Bool {
        last.allSatisfy { ($0.sequence == 0) || (newest?[$0.kind] ?? 0) >= $0.sequence }
    }
}

/// The newest datagram of each kind a peer has sent (poses and attitudes; endpoint datagrams
/// are not relayed and not announced), for its `bye`.
final class SentDatagrams: Sendable {
    private let newest = Mutex<[UInt8: UInt64]>([:])

    /// Notes the sealed datagram `bytes` as sent.
    func note(_ bytes: [UInt8]) {
        guard let (kind, _, sequence) = DatagramSeal.header(of: bytes), kind != EndpointDatagram.kind else { return }
        newest.withLock { $0[kind] = max(sequence, $0[kind] ?? 0) }
    }

    /// The newest of each kind, by kind.
    var last: [LastDatagram] {
        newest.withLock { $0.map { LastDatagram(kind: $0.key, sequence: $0.value) } }.sorted { $0.kind < $1.kind }
    }
}
