import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors

/// One line of `planekit stream`'s output (see `docs/stream-format.md`, "Events"): a change in
/// the session's world, the focus indicator after a frame, the answer to a raycast, or a bad
/// record. Every event belongs to a frame: the latest one when it answers a command, −1 before
/// the first.
public enum StreamEvent: Sendable {
    /// The camera's pose and tracking state, first for every frame.
    case camera(CameraEvent)
    /// A plane, object or mapping change reported by the session.
    case session(SessionEvent)
    /// The focus indicator after a frame.
    case focus(FocusEvent)
    /// The hits of a raycast record.
    case hit(HitEvent)
    /// A record that could not be carried out.
    case error(StreamErrorEvent)
    /// A world map saved or loaded, or the session relocalized into one.
    case map(MapEvent)
    /// A shared space's event: peers, their poses and object changes.
    case peer(PeerEvent)

    /// The event's `event` field: `planeAdded`, `focus`, `hit`, `error`, ….
    public var name: String {
        switch self {
        case .camera: "camera"
        case .session(let e): e.name
        case .focus: "focus"
        case .hit: "hit"
        case .error: "error"
        case .map(let e): e.name
        case .peer(let e): e.name
        }
    }

    /// The frame it belongs to (0-based; −1 before the first frame).
    public var frame: Int {
        switch self {
        case .camera(let e): e.frame
        case .session(let e): e.frame
        case .focus(let e): e.frame
        case .hit(let e): e.frame
        case .error(let e): e.frame
        case .map(let e): e.frame
        case .peer(let e): e.frame
        }
    }

    /// That frame's timestamp (s).
    public var timestamp: Double {
        switch self {
        case .camera(let e): e.timestamp
        case .session(let e): e.timestamp
        case .focus(let e): e.timestamp
        case .hit(let e): e.timestamp
        case .error(let e): e.timestamp
        case .map(let e): e.timestamp
        case .peer(let e): e.timestamp
        }
    }
}

/// The focus indicator after a frame: state, smoothed position and orientation, and the state
/// it left when it changed this frame.
public struct FocusEvent: Sendable, Hashable {
    /// The frame (0-based).
    public var frame: Int
    /// The frame's timestamp (s).
    public var timestamp: Double
    /// The indicator's state after the frame.
    public var state: FocusState
    /// The state it left, when it changed during this frame.
    public var changedFrom: FocusState?
    /// Its smoothed pose (+Y along the surface normal), when it has one.
    public var transform: Transform?
    /// The plane it rests on, if any.
    public var plane: PlaneIdentifier?

    /// The focus indicator of `session` after its latest frame.
    public init(session: Session, changedFrom: FocusState?) {
        frame = session.frameIndex
        timestamp = session.timestamp
        state = session.focus.state
        self.changedFrom = changedFrom
        transform = session.focus.transform
        plane = session.focus.planeIdentifier
    }
}

/// The answer to a raycast record: every hit, nearest first.
public struct HitEvent: Sendable, Hashable {
    /// The latest frame when the raycast came (−1 before the first).
    public var frame: Int
    /// Its timestamp (s).
    public var timestamp: Double
    /// The hits, nearest first.
    public var hits: [HitTestResult]

    /// An answer from its parts.
    public init(frame: Int, timestamp: Double, hits: [HitTestResult]) {
        self.frame = frame
        self.timestamp = timestamp
        self.hits = hits
    }
}

/// A bad record: which one and what was wrong, as also written to stderr.
public struct StreamErrorEvent: Sendable, Hashable {
    /// The latest frame when the record came (−1 before the first).
    public var frame: Int
    /// Its timestamp (s).
    public var timestamp: Double
    /// The record's 1-based number (0 for a problem with the stream itself).
    public var record: Int
    /// The one-line message, `record N: problem`.
    public var message: String

    /// An error event from its parts.
    public init(frame: Int, timestamp: Double, record: Int, message: String) {
        self.frame = frame
        self.timestamp = timestamp
        self.record = record
        self.message = message
    }
}
