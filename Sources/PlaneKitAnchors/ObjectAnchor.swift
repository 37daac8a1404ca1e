import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitPlanes

/// A placed virtual object's anchor.
///
/// Every change — a drag, a rotation, a snap step — replaces the anchor: the object keeps its
/// ``identifier`` (`object-N`) but gets a new ``anchorNumber``, which stands for "the old anchor
/// was removed and this one added".
public struct ObjectAnchor: Sendable, Hashable, Encodable {
    /// The object's stable name, `object-N`.
    public var identifier: PlacedObjectIdentifier
    /// The number of this anchor; a new number every time the anchor is replaced.
    public var anchorNumber: UInt64
    /// The object's name (what it is: "vase", "chair", …).
    public var name: String
    /// The bounding box's size along local X, Y, Z (m).
    public var size: SIMD3<Float>
    /// World transform: origin at the centre of the box's base, on the surface; local +Y along
    /// the surface normal (facing where it was placed from).
    public var transform: Transform
    /// The plane anchor it stands on, or `nil` when placed on an estimated surface.
    public var planeIdentifier: PlaneIdentifier?
    /// Which planes it may stand on (`.any` for both horizontal and vertical).
    public var alignment: PlaneAlignment
    /// The snap in progress, if any.
    public var snap: SnapMotion?

    /// An anchor from its parts.
    public init(identifier: PlacedObjectIdentifier, anchorNumber: UInt64, name: String, size: SIMD3<Float>,
                transform: Transform, planeIdentifier: PlaneIdentifier?, alignment: PlaneAlignment, snap: SnapMotion? = nil) {
        self.identifier = identifier
        self.anchorNumber = anchorNumber
        self.name = name
        self.size = size
        self.transform = transform
        self.planeIdentifier = planeIdentifier
        self.alignment = alignment
        self.snap = snap
    }

    /// Where it stands (world).
    public var position: SIMD3<Float> { transform.translation }

    /// Its bounding box in the world (base on the surface, so the box's centre is half its height
    /// above the position along local +Y).
    public var bounds: OrientedBox {
        OrientedBox(transform: Transform(rotation: transform.rotation, translation: position + transform.yAxis * (size.y / 2)),
                    size: size)
    }

    /// The object as a hit-test target.
    public var placedObject: PlacedObject { PlacedObject(identifier: identifier, bounds: bounds) }
}
