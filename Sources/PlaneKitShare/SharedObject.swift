import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import PlaneKitPlanes

/// One object's state as the space replicates it: the anchor (or its removal) with a version.
///
/// Every change an author makes raises the version by one; of two states of one object the
/// one with the higher `(version, author)` wins, so concurrent changes resolve the same way at
/// every peer and all end with the same state. A removal stays as a tombstone so that an older
/// move arriving later cannot bring the object back.
public struct SharedObject: Sendable, Equatable {
    /// The object's identifier, the same at every peer.
    public var identifier: PlacedObjectIdentifier
    /// How many changes led here.
    public var version: UInt64
    /// The peer that made the latest change.
    public var author: String
    /// Whether the latest change removed it.
    public var removed: Bool
    /// What it is (its `name`).
    public var name: String
    /// Its bounding box's size (m).
    public var size: SIMD3<Float>
    /// World transform in the space's (the host's map's) world.
    public var transform: Transform
    /// The plane it stands on, if any.
    public var planeIdentifier: PlaneIdentifier?
    /// Which planes it may stand on.
    public var alignment: PlaneAlignment

    /// The state of `anchor` after a change by `author` at `version`.
    public init(_ anchor: ObjectAnchor, version: UInt64, author: String, removed: Bool) {
        identifier = anchor.identifier
        self.version = version
        self.author = author
        self.removed = removed
        name = anchor.name
        size = anchor.size
        transform = anchor.transform
        planeIdentifier = anchor.planeIdentifier
        alignment = anchor.alignment
    }

    /// Whether this state wins over `other` (same object): higher version, then higher author name.
    public func supersedes(_ other: SharedObject) -> Bool {
        (version, author) > (other.version, other.author)
    }

    /// The anchor for a session (its anchor number is the session's to give).
    public var anchor: ObjectAnchor {
        ObjectAnchor(identifier: identifier, anchorNumber: 0, name: name, size: size, transform: transform,
                     planeIdentifier: planeIdentifier, alignment: alignment)
    }
}
