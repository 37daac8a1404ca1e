import Crypto
import PlaneKitGeometry
import PlaneKitStream
import PlaneKitStreamFormat

/// `planekit pointer`'s part in a shared space: joins as a pointer peer (no world map), says
/// where it stands, then sends each attitude as a sealed datagram the host passes on to every
/// device peer (docs/protocol.md, "Pointers"). When the host goes, it rejoins its successor
/// (`HostFollower`) and goes on pointing.
public final class PointerLink {
    private var joiner: ShareJoiner
    private var follower: HostFollower
    private let warn: (String) -> Void
    private var sequence: UInt64 = 0
    private var closed = false

    private init(joiner: ShareJoiner, follower: HostFollower, warn: @escaping (String) -> Void) {
        self.joiner = joiner
        self.follower = follower
        self.warn = warn
    }

    /// Joins the space at `address` as pointer `name`, waiting at most `timeout` seconds for the
    /// host's welcome, and sends the placement: rays start at `origin` and the first attitude
    /// aims along `forward`'s heading (shared-world coordinates). `warn` gets one line for each
    /// step of a host hand-over.
    public static func join(_ address: ListenAddress, secret: [UInt8], name: String, origin: SIMD3<Float>, forward: SIMD3<Float>,
                            timeout: Double = 30, warn: @escaping (String) -> Void = { _ in }) throws -> PointerLink {
        let credentials = try SpaceCredentials(secret: secret)
        let joiner = try ShareJoiner(address: address, credentials: credentials, name: name, role: .pointer,
                                     inbox: ShareInbox(), progress: { _, _ in }, timeout: timeout)
        joiner.send(.pointerPlacement(peer: joiner.me.id, origin: origin, forward: forward))
        return PointerLink(joiner: joiner, follower: HostFollower(credentials: credentials, role: .pointer), warn: warn)
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

    /// Why the space is gone (the host left or dropped this peer and no successor took it in),
    /// or `nil` while it is there. When the host has gone, this rejoins its successor first
    /// (waiting at most `HostHandover.seconds`); the placement stays with the space's peers.
    public var ended: String? {
        var refusal: String?
        for input in joiner.inbox.take().inputs {
            switch input {
            case .succession(let successors):
                follower.successors = successors
            case .refused(_, let reason):
                refusal = reason
            case .left(let entry, let reason, _) where entry.id == joiner.host.id:
                guard let (next, _) = follower.follow(joiner, warn: warn) else { return refusal ?? reason }
                joiner = next
            default:
                continue
            }
        }
        return nil
    }

    /// Leaves the space (once): its goodbye names its last attitude, which the peers wait for
    /// (`DepartingPeers`) before they forget this pointer.
    public func close() {
        guard !closed else { return }
        closed = true
        joiner.close()
    }
}
