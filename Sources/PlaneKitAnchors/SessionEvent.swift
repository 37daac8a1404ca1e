import PlaneKitGeometry
import PlaneKitHitTesting

/// Something that changed in a session's world, stamped with the frame it belongs to.
///
/// Encodes as one flat JSON object — `{"frame": 12, "timestamp": 0.4, "event": "planeAdded",
/// "plane": {…}}` — ready to be written one per line (NDJSON). Commands (place, drag, rotate,
/// remove) carry the number and timestamp of the latest frame.
public struct SessionEvent: Sendable, Encodable {
    /// What happened.
    public enum Kind: Sendable {
        /// A plane anchor was added.
        case planeAdded(PlaneAnchor)
        /// A plane anchor's description changed beyond the update tolerances.
        case planeUpdated(PlaneAnchor)
        /// A plane anchor was removed (merged into ``SessionEvent/mergedInto``, or vanished).
        case planeRemoved(PlaneAnchor)
        /// An object was placed.
        case objectAdded(ObjectAnchor)
        /// An object's anchor was replaced: dragged, rotated, or a snap step.
        case objectMoved(ObjectAnchor)
        /// An object started snapping onto a plane (its ``ObjectAnchor/snap`` says where to).
        case objectSnapped(ObjectAnchor)
        /// An object was removed.
        case objectRemoved(ObjectAnchor)
        /// The focus indicator's state changed.
        case focus(from: FocusState, to: FocusState)
        /// The mapping status changed.
        case mapping(from: MappingStatus, to: MappingStatus)
    }

    /// The frame number (0-based) the event belongs to.
    public var frame: Int
    /// That frame's timestamp (s).
    public var timestamp: Double
    /// What happened.
    public var kind: Kind
    /// For a plane removed by merging: the plane that absorbed it.
    public var mergedInto: PlaneIdentifier?

    /// An event from its parts.
    public init(frame: Int, timestamp: Double, kind: Kind, mergedInto: PlaneIdentifier? = nil) {
        self.frame = frame
        self.timestamp = timestamp
        self.kind = kind
        self.mergedInto = mergedInto
    }

    /// The event's name: `planeAdded`, `objectMoved`, `focus`, ….
    public var name: String {
        switch kind {
        case .planeAdded: "planeAdded"
        case .planeUpdated: "planeUpdated"
        case .planeRemoved: "planeRemoved"
        case .objectAdded: "objectAdded"
        case .objectMoved: "objectMoved"
        case .objectSnapped: "objectSnapped"
        case .objectRemoved: "objectRemoved"
        case .focus: "focus"
        case .mapping: "mapping"
        }
    }

    /// The plane anchor concerned, for plane events.
    public var plane: PlaneAnchor? {
        switch kind {
        case .planeAdded(let p), .planeUpdated(let p), .planeRemoved(let p): p
        default: nil
        }
    }

    /// The object anchor concerned, for object events.
    public var object: ObjectAnchor? {
        switch kind {
        case .objectAdded(let o), .objectMoved(let o), .objectSnapped(let o), .objectRemoved(let o): o
        default: nil
        }
    }

    private enum CodingKeys: String, CodingKey { case frame, timestamp, event, plane, object, mergedInto, from, to }

    /// Encodes as a flat object: frame, timestamp, event name, then `plane` / `object` /
    /// `from` + `to` as the kind has them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frame, forKey: .frame)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encode(name, forKey: .event)
        if let plane { try c.encode(plane, forKey: .plane) }
        if let object { try c.encode(object, forKey: .object) }
        try c.encodeIfPresent(mergedInto, forKey: .mergedInto)
        switch kind {
        case .focus(let from, let to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case .mapping(let from, let to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        default:
            break
        }
    }
}
