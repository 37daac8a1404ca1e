import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import PlaneKitMaps

/// An event of a shared space (`planekit stream --host/--join`, docs/protocol.md): a peer came or
/// went, a peer's camera pose, an object change another peer made, or a peer or packet refused.
public struct PeerEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// A peer joined the space (`peerJoined`).
        case joined
        /// A peer left, was dropped or its connection broke (`peerLeft`, with why).
        case left(reason: String)
        /// A peer's camera, world-from-camera in this peer's world (`participant`).
        case participant(Transform)
        /// An object change made by the peer, applied here: `objectAdded`, `objectMoved` or
        /// `objectRemoved` with the same identifier as at that peer.
        case object(SessionEvent)
        /// A connection or packets refused before they reached the space (`peerRefused`): a wrong
        /// secret, a stranger, garbage or oversized messages, a full space.
        case refused(reason: String)
        /// A pointer's ray (`pointer`): from `origin` along `direction` in this peer's world,
        /// and what it hit, nearest first.
        case pointer(origin: SIMD3<Float>, direction: SIMD3<Float>, hits: [HitTestResult])
        /// One of the host's plane anchors, as the host shared it (`anchorAdded`,
        /// `anchorUpdated`, `anchorRemoved`).
        case anchor(AnchorChange, WorldMap.Anchor)
        /// Counts of dropped datagrams and messages so far (`shareStatistics`, at the end).
        case statistics(ShareCounts)
        /// The host left and this peer (`peer`) hosts the space now (`hostChanged`).
        case hostChanged
    }

    /// The latest frame (−1 before the first).
    public var frame: Int
    /// Its timestamp (s).
    public var timestamp: Double
    /// The peer's name (for `refused`, the remote address when no name is known).
    public var peer: String
    /// What happened.
    public var kind: Kind

    /// An event from its parts.
    public init(frame: Int, timestamp: Double, peer: String, kind: Kind) {
        self.frame = frame
        self.timestamp = timestamp
        self.peer = peer
        self.kind = kind
    }

    /// The event's `event` field.
    public var name: String {
        switch kind {
        case .joined: "peerJoined"
        case .left: "peerLeft"
        case .participant: "participant"
        case .object(let e): e.name
        case .refused: "peerRefused"
        case .statistics: "shareStatistics"
        case .pointer: "pointer"
        case .anchor(.added, _): "anchorAdded"
        case .anchor(.updated, _): "anchorUpdated"
        case .anchor(.removed, _): "anchorRemoved"
        case .hostChanged: "hostChanged"
        }
    }

    /// What happened to a shared plane anchor.
    public enum AnchorChange: Sendable {
        /// First heard of.
        case added
        /// Changed since.
        case updated
        /// Removed by the peer that detected it.
        case removed
    }
}

/// What a shared space dropped, counted from the start.
public struct ShareCounts: Sendable, Hashable {
    /// Pose datagrams accepted.
    public var datagramsAccepted = 0
    /// Datagrams that failed authentication (tampered, wrong key, garbage).
    public var datagramsTampered = 0
    /// Datagrams with a sequence number already seen or older than the newest (replayed, stale).
    public var datagramsStale = 0
    /// Connections refused or dropped (wrong secret, garbage, oversized, full space).
    public var peersRefused = 0
    /// Object changes that lost to a newer version (concurrent edits resolved).
    public var changesSuperseded = 0

    /// All zero.
    public init() {}
}
