import PlaneKitGeometry

/// One planar face of a synthetic scene: a rectangle in the world with a stable identifier.
///
/// The identifier is the face's value in ground-truth label images (`id ≥ 1`; 0 means "not a
/// plane"). Each physical surface is its own true plane even when it is coplanar with another
/// one (two box tops at the same height are two true planes, because a detector that merges them
/// into one region has not segmented the scene correctly). Conversely one physical surface is one
/// true plane even when an occluder splits it into several patches in an image (the floor seen on
/// both sides of a box is still the floor).
public struct TruePlane: Sendable, Hashable, Codable {
    /// The label of this face in ground-truth images (1-based).
    public var id: UInt16
    /// What the face is.
    public var kind: SurfaceKind
    /// The infinite plane in world coordinates, its normal pointing out of the solid into free
    /// space (into the room for floor, ceiling and walls; away from a box for its faces), so it
    /// faces every camera that can see the face.
    public var plane: Plane
    /// World-from-face transform: origin at the rectangle's centre, local +Y along the normal,
    /// local X and Z along the rectangle's edges.
    public var frame: Transform
    /// Half the rectangle's size along local X (`x`) and local Z (`y`).
    public var halfSize: SIMD2<Float>

    /// A rectangle centred on `center` with unit `normal`, its local X along `xAxis` (made
    /// perpendicular to the normal), and full `size` along local X and Z.
    public init(id: UInt16, kind: SurfaceKind, center: SIMD3<Float>, normal: SIMD3<Float>, xAxis: SIMD3<Float>,
                size: SIMD2<Float>) {
        self.id = id
        self.kind = kind
        frame = Transform(origin: center, yAxis: normal, xHint: xAxis)
        plane = Plane(unitNormal: frame.yAxis, offset: -dot(frame.yAxis, center))
        halfSize = abs(size) / 2
    }

    /// The face's outline in its own `(x, z)` coordinates, counter-clockwise.
    public var outline: Polygon2D {
        PlaneExtent(width: 2 * halfSize.x, length: 2 * halfSize.y).corners.asPolygon
    }

    /// The rectangle's extent in its own `(x, z)` coordinates, centred on the origin.
    public var extent: PlaneExtent { PlaneExtent(width: 2 * halfSize.x, length: 2 * halfSize.y) }

    /// The four corners in world coordinates, in the order of ``outline``.
    public var corners: [SIMD3<Float>] {
        extent.corners.map { frame.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
    }

    /// The rectangle's centre in world coordinates.
    public var center: SIMD3<Float> { frame.translation }

    /// The area in m².
    public var area: Float { 4 * halfSize.x * halfSize.y }

    /// `true` when the world point `p` lies on the rectangle within `tolerance` (distance from
    /// the plane and from the rectangle's edges).
    public func contains(_ p: SIMD3<Float>, tolerance: Float = 1e-4) -> Bool {
        let local = frame.inverse.apply(toPoint: p)
        return abs(local.y) <= tolerance && abs(local.x) <= halfSize.x + tolerance && abs(local.z) <= halfSize.y + tolerance
    }
}

extension Array where Element == SIMD2<Float> {
    fileprivate var asPolygon: Polygon2D { Polygon2D(self) }
}
