import PlaneKitGeometry

/// A face of a scene in camera coordinates, for rays from any origin: its plane and rectangle
/// as the Kinect renderer's ``CameraRectangle`` (grown by its seam overlap), and for a polygon
/// face the polygon in the rectangle's local coordinates.
struct CameraFace {
    let rectangle: CameraRectangle
    let polygon: Polygon2D?
    /// A sphere around the face, to skip it quickly in occlusion tests.
    let sphereCentre: SIMD3<Float>, sphereRadius: Float

    init(_ face: TruePlane, cameraFromWorld: Transform) {
        rectangle = CameraRectangle(face, cameraFromWorld: cameraFromWorld)
        polygon = face.polygon
        sphereCentre = cameraFromWorld.apply(toPoint: face.center)
        sphereRadius = face.halfSize.length
    }

    /// The outward unit normal.
    var normal: SIMD3<Float> { rectangle.normal }
    /// The corners in camera coordinates.
    var corners: [SIMD3<Float>] { rectangle.corners }

    /// The ray parameter `t` where `origin + t·direction` meets the face, or `nil` when it
    /// misses or runs parallel. A polygon face is grown by `margin` (m), so that rounding opens
    /// no crack where two faces share an edge (the nearer one wins the overlap); a rectangle
    /// always is, by ``CameraRectangle/seamOverlap``.
    @inline(__always)
    func hit(origin o: SIMD3<Float>, direction d: SIMD3<Float>, margin: Float) -> Float? {
        let r = rectangle
        let along = dot(r.normal, d)
        guard along != 0 else { return nil }
        let t = (r.normalDotCenter - dot(r.normal, o)) / along
        let p = o + t * d
        let local = SIMD2(dot(r.axisU, p) - r.uCenter, dot(r.axisV, p) - r.vCenter)
        guard abs(local.x) <= r.halfU, abs(local.y) <= r.halfV else { return nil }
        guard let polygon else { return t }
        return polygon.contains(local) || (margin > 0 && CameraFace.distance(from: local, toEdgesOf: polygon) <= margin) ? t : nil
    }

    /// The distance from `p` to the nearest edge of `polygon`.
    private static func distance(from p: SIMD2<Float>, toEdgesOf polygon: Polygon2D) -> Float {
        var best = Float.infinity
        var previous = polygon.vertices[polygon.vertices.count - 1]
        for v in polygon.vertices {
            let edge = v - previous, length2 = dot(edge, edge)
            let s = length2 > 0 ? min(max(dot(p - previous, edge) / length2, 0), 1) : 0
            best = min(best, (p - previous - s * edge).length)
            previous = v
        }
        return best
    }
}

/// Nearest-surface ray casting of a scene with polygon faces and clutter for any
/// ``SensorGrid``, and the occlusion test between two points that triangulating sensors need.
///
/// Surfaces are numbered faces first (`scene.planes` order), then clutter. Faces are drawn in
/// object order into a z-buffer, each only over the pixels its corners can reach.
struct SceneRayCaster {
    let grid: SensorGrid
    let faces: [CameraFace]
    let clutter: [CameraClutter]

    init(scene: SyntheticScene, cameraFromWorld: Transform, grid: SensorGrid) {
        self.grid = grid
        faces = scene.planes.map { CameraFace($0, cameraFromWorld: cameraFromWorld) }
        clutter = scene.clutter.map { CameraClutter($0, cameraFromWorld: cameraFromWorld) }
    }

    /// The depth of the nearest surface each pixel's ray meets in front of it (`.infinity` for
    /// none) and that surface's number (−1 for none), row-major.
    func cast() -> (depth: ContiguousArray<Float>, surface: ContiguousArray<Int32>) {
        let width = grid.width, count = width * grid.height
        var depth = ContiguousArray<Float>(repeating: .infinity, count: count)
        var surface = ContiguousArray<Int32>(repeating: -1, count: count)
        func draw(_ corners: [SIMD3<Float>], index: Int, hit: (SIMD3<Float>, SIMD3<Float>) -> Float?) {
            guard let (u0, u1, v0, v1) = grid.pixelBounds(of: corners) else { return }
            for v in v0...v1 {
                for u in u0...u1 {
                    let ray = grid.ray(u: u, v: v)
                    guard let t = hit(ray.origin, ray.direction), t > 0, t < depth[v * width + u] else { continue }
                    depth[v * width + u] = t
                    surface[v * width + u] = Int32(index)
                }
            }
        }
        for (index, face) in faces.enumerated() {
            draw(face.corners, index: index) { face.hit(origin: $0, direction: $1, margin: CameraRectangle.seamOverlap) }
        }
        for (offset, shape) in clutter.enumerated() {
            draw(shape.boundingCorners, index: faces.count + offset) { shape.translated(by: -$0).nearestHit(along: $1) }
        }
        return (depth, surface)
    }

    /// The outward unit normal of surface `index` at the camera-frame point `p`.
    func normal(ofSurface index: Int, at p: SIMD3<Float>) -> SIMD3<Float> {
        index < faces.count ? faces[index].normal : clutter[index - faces.count].normal(at: p)
    }

    /// `true` when some surface other than `index` crosses the segment from `p` to `q` (more
    /// than 0.1 mm from `p`, so that faces sharing an edge with `p`'s do not shadow it).
    func blocks(from p: SIMD3<Float>, to q: SIMD3<Float>, except index: Int) -> Bool {
        let d = q - p, length = d.length
        guard length > 0 else { return false }
        let near = 1e-4 / length
        for (k, face) in faces.enumerated() where k != index {
            // The segment passes farther than the face's radius from its centre: no crossing.
            let s = min(max(dot(face.sphereCentre - p, d) / (length * length), 0), 1)
            guard (p + s * d - face.sphereCentre).length <= face.sphereRadius else { continue }
            if let t = face.hit(origin: p, direction: d, margin: 0), t > near, t < 1 { return true }
        }
        for (k, shape) in clutter.enumerated() where faces.count + k != index {
            if let t = shape.translated(by: -p).nearestHit(along: d), t > near, t < 1 { return true }
        }
        return false
    }
}
