import PlaneKitGeometry

/// A static scene to render: planar rectangles (the ground truth) and curved clutter.
///
/// Build one by hand with ``addRectangle(kind:center:normal:xAxis:size:)``,
/// ``addPolygon(kind:vertices:normal:)``, ``addBox(_:topKind:sideKind:)`` and ``addClutter(_:)``,
/// or get a furnished room from ``SyntheticRoom`` or objects on a table from ``TabletopScene``. Identifiers are handed out in order, 1, 2, 3…, so `planes[id − 1].id == id`.
public struct SyntheticScene: Sendable, Hashable, Codable {
    /// The planar faces, `planes[id − 1]` having identifier `id`.
    public private(set) var planes: [TruePlane] = []
    /// The curved objects, which are never labelled as planes.
    public private(set) var clutter: [ClutterShape] = []

    /// An empty scene.
    public init() {}

    /// The face with identifier `id`, or `nil` when there is none.
    public func plane(id: UInt16) -> TruePlane? {
        let index = Int(id) - 1
        return planes.indices.contains(index) ? planes[index] : nil
    }

    /// Adds a rectangle and returns its identifier. `normal` points to the side the face is seen
    /// from; `xAxis` gives the direction of the first edge (projected into the plane); `size` is
    /// the full size along local X and Z. Identifiers run out at 65535 faces; a scene never
    /// needs that many, so this traps rather than wrapping.
    @discardableResult
    public mutating func addRectangle(kind: SurfaceKind, center: SIMD3<Float>, normal: SIMD3<Float>,
                                      xAxis: SIMD3<Float>, size: SIMD2<Float>) -> UInt16 {
        append { TruePlane(id: $0, kind: kind, center: center, normal: normal, xAxis: xAxis, size: size) }
    }

    /// Adds a polygon face through the world points `vertices` (see
    /// ``TruePlane/init(id:kind:vertices:normal:)``) and returns its identifier. Scenes with
    /// polygon faces are rendered by ``SimulatedSensorRenderer``.
    @discardableResult
    public mutating func addPolygon(kind: SurfaceKind, vertices: [SIMD3<Float>], normal: SIMD3<Float>) -> UInt16 {
        append { TruePlane(id: $0, kind: kind, vertices: vertices, normal: normal) }
    }

    /// Appends the face `make` builds for the next identifier, and returns that identifier.
    private mutating func append(_ make: (UInt16) -> TruePlane) -> UInt16 {
        precondition(planes.count < Int(UInt16.max), "a synthetic scene holds at most 65535 planes")
        let id = UInt16(planes.count + 1)
        planes.append(make(id))
        return id
    }

    /// Adds the five visible faces of a box standing on something (its top and its four sides;
    /// the bottom rests on a support and is never seen). Returns the identifiers, top first.
    @discardableResult
    public mutating func addBox(_ box: OrientedBox, topKind: SurfaceKind = .boxTop, sideKind: SurfaceKind = .boxSide) -> [UInt16] {
        let t = box.transform, h = box.halfExtents
        let x = t.xAxis, y = t.yAxis, z = t.zAxis
        var ids: [UInt16] = []
        ids.append(addRectangle(kind: topKind, center: t.apply(toPoint: SIMD3(0, h.y, 0)), normal: y, xAxis: x,
                                size: SIMD2(2 * h.x, 2 * h.z)))
        for sign: Float in [1, -1] {
            ids.append(addRectangle(kind: sideKind, center: t.apply(toPoint: SIMD3(sign * h.x, 0, 0)), normal: sign * x,
                                    xAxis: z, size: SIMD2(2 * h.z, 2 * h.y)))
            ids.append(addRectangle(kind: sideKind, center: t.apply(toPoint: SIMD3(0, 0, sign * h.z)), normal: sign * z,
                                    xAxis: x, size: SIMD2(2 * h.x, 2 * h.y)))
        }
        return ids
    }

    /// Adds a curved object.
    public mutating func addClutter(_ shape: ClutterShape) {
        clutter.append(shape)
    }
}
