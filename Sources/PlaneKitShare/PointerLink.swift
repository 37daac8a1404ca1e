#if canImport(Glibc)
import Glibc
#endif
import Crypto
import PlaneKitGeometry
import PlaneKitStream

/// `planekit pointer`'s part in a shared space: joins as a pointer peer (no world map), says
/// where it stands, then sends each attitude as a sealed datagram the host passes on to every
/// device peer (docs/protocol.md, "Pointers").
public final class PointerLink {
    private let joiner: ShareJoiner
    private var sequence: UInt64 = 0
    private var closed = false

    private init(joiner: ShareJoiner) { self.joiner = joiner }

    /// Joins the space at `address` as pointer `name`, waiting at most `timeout` seconds for the
    /// host's welcome, and sends the placement: rays start at `origin` and the first attitude
    /// aims along `forward`'s heading (shared-world coordinates).
    public static func join(_ address: ListenAddress, secret: [UInt8], name: String, origin: SIMD3<Float>, forward: SIMD3<Float>,
                            timeout: Double = 30) throws -> PointerLink {
        let joiner = try ShareJoiner(address: address, credentials: try SpaceCredentials(secret: secret), name: name, role: .pointer,
                                     inbox: ShareInbox(), progress: { _, _ in }, timeout: timeout)
        joiner.send(.pointerPlacement(peer: joiner.me.id, origin: origin, forward: forward))
        return PointerLink(joiner: joiner)
    }

    /// This peer's name and number, and the host's name.
    public var peer: (name: String, number: UInt16, host: String) { (joiner.me.name, joiner.me.id, joiner.host.name) }

    /// Sends `attitude`, sealed with the space's pose key under the next sequence number.
    public func send(_ attitude: AttitudeRecord) throws {
        sequence += 1
        let datagram = AttitudeDatagram(sender: joiner.me.id, sequence: sequence, timestamp: attitude.timestamp,
                                        orientation: attitude.orientation)
        joiner.sendPose(try datagram.sealed(with: joiner.poseKey))
    }

    /// Why the space is gone (the host left or dropped this peer), or `nil` while it is there.
    public var ended: String? {
        for input in joiner.inbox.take().inputs {
            switch input {
            case .left(let entry, let reason) where entry.id == 0: return reason
            case .refused(_, let reason): return reason
            default: continue
            }
        }
        return nil
    }

    /// Leaves the space (once), a moment after the last attitude: the goodbye goes over TCP and
    /// the attitude over UDP, and a host that took the goodbye first would drop the attitude of
    /// a peer no longer in the space.
    public func close() {
        guard !closed else { return }
        closed = true
        usleep(Self.settle)
        joiner.close()
    }

    /// How long the last attitude gets before the goodbye (µs).
    static let settle: useconds_t = 100_000
}
