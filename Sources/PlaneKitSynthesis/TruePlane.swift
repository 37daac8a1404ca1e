import PlaneKitGeometry

/// One planar face of a synthetic scene: a rectangle in the world with a stable identifier, or
/// a polygon inside such a rectangle (the triangle of a wedge's end, a pyramid's side, the
/// L-shaped end of a stepped block) when ``polygon`` is set.
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
    /// Half the rectangle's size along local X (`x`) and local Z (`y`); for a polygon face,
    /// of the smallest rectangle around the polygon.
    public var halfSize: SIMD2<Float>
    /// The face's outline in its own `(x, z)` coordinates when it is not the whole rectangle
    /// (any simple polygon, convex or not, inside ``extent``); `nil` for a rectangle.
    ///
    /// ``SyntheticRenderer`` draws rectangles only; render scenes with polygon faces with
    /// ``SimulatedSensorRenderer``.
    public var polygon: Polygon2D?

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

    /// A polygon face through the world points `vertices` (in order around the outline, at
    /// least three, lying in one plane) with unit `normal` pointing out of the solid. Its frame
    /// has local X along the first edge and its origin at the centre of the polygon's bounding
    /// rectangle, so ``extent`` is that rectangle.
    public init(id: UInt16, kind: SurfaceKind, vertices: [SIMD3<Float>], normal: SIMD3<Float>) {
        precondition(vertices.count >= 3, "a polygon face needs at least three vertices")
        let start = Transform(origin: vertices[0], yAxis: normal, xHint: vertices[1] - vertices[0])
        let x = start.xAxis, z = start.zAxis
        let local = vertices.map { SIMD2(dot($0 - vertices[0], x), dot($0 - vertices[0], z)) }
        var lower = local[0], upper = local[0]
        for q in local {
            lower = pointwiseMin(lower, q)
            upper = pointwiseMax(upper, q)
        }
        let middle = (lower + upper) / 2
        self.init(id: id, kind: kind, center: vertices[0] + middle.x * x + middle.y * z, normal: start.yAxis, xAxis: x,
                  size: upper - lower)
        polygon = Polygon2D(local.map { $0 - middle })
    }

    /// The face's outline in its own `(x, z)` coordinates: ``polygon`` when set, else the
    /// rectangle counter-clockwise.
    public var outline: Polygon2D {
        polygon ?? PlaneExtent(width: 2 * halfSize.x, length: 2 * halfSize.y).corners.asPolygon
    }

    /// The rectangle's extent in its own `(x, z)` coordinates, centred on the origin.
    public var extent: PlaneExtent { PlaneExtent(width: 2 * halfSize.x, length: 2 * halfSize.y) }

    /// The corners in world coordinates, in the order of ``outline`` (four for a rectangle).
    public var corners: [SIMD3<Float>] {
        (polygon?.vertices ?? extent.corners).map { frame.apply(toPoint: SIMD3($0.x, 0, $0.y)) }
    }

    /// The rectangle's centre in world coordinates.
    public var center: SIMD3<Float> { frame.translation }

    /// The area in m².
    public var area: Float { polygon?.area ?? 4 * halfSize.x * halfSize.y }

    /// `true` when the world point `p` lies on the face within `tolerance` (distance from the
    /// plane and from the rectangle's edges; a polygon's edges are tested exactly).
    public func contains(_ p: SIMD3<Float>, tolerance: Float = 1e-4) -> Bool {
        let local = frame.inverse.apply(toPoint: p)
        guard abs(local.y) <= tolerance && abs(local.x) <= halfSize.x + tolerance && abs(local.z) <= halfSize.y + tolerance else {
            return false
        }
        return polygon?.contains(SIMD2(local.x, local.z)) ?? true
    }
}

extension Array where Element == SIMD2<Float> {
    fileprivate var asPolygon: Polygon2D { Polygon2D(self) }
}
