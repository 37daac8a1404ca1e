/// The nearest plane hit of one ray in a batch cast: a plain struct, so a batch of them is one
/// flat buffer.
public struct PlaneRayHit: Sendable, Hashable {
    /// The distance along the ray (in units of the direction's length: metres for unit
    /// directions), or `+infinity` for a miss.
    public var distance: Float
    /// The index of the plane hit in the kernel's plane list, or −1 for a miss.
    public var planeIndex: Int32

    /// A hit from its parts.
    @inlinable public init(distance: Float, planeIndex: Int32) {
        self.distance = distance
        self.planeIndex = planeIndex
    }

    /// No hit.
    public static let miss = PlaneRayHit(distance: .infinity, planeIndex: -1)

    /// `true` when the ray hit a plane.
    @inlinable public var isHit: Bool { planeIndex >= 0 }
}
