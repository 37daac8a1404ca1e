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

    /// The surfaces as seen from the viewpoint `position`, for ``blocks(from:to:except:)``.
    func seen(from position: SIMD3<Float>) -> Viewpoint {
        var spheres = faces.map { (centre: $0.sphereCentre, radius: $0.sphereRadius) }
        for shape in clutter {
            switch shape {
            case let .sphere(centre, radius):
                spheres.append((centre, radius))
            case let .cylinder(base, axis, radius, height):
                spheres.append((base + axis * (height / 2), (radius * radius + height * height / 4).squareRoot()))
            }
        }
        return Viewpoint(position: position, cones: spheres.map { sphere in
            let offset = sphere.centre - position, distance = offset.length
            let sine = distance > 0 ? sphere.radius / distance : 2
            // A sphere around the viewpoint could block any direction: a cosine below −1.
            return Viewpoint.Cone(axis: distance > 0 ? offset / distance : SIMD3(0, 0, 1),
                                  cosine: sine < 1 ? (1 - sine * sine).squareRoot() : -2, nearest: distance - sphere.radius)
        })
    }

    /// The surfaces' bounding spheres as cones from a viewpoint: a surface can lie on the
    /// segment from the viewpoint to `p` only when the direction to `p` is inside its cone and
    /// `p` is farther than the sphere's near side.
    struct Viewpoint {
        struct Cone {
            let axis: SIMD3<Float>, cosine: Float, nearest: Float
        }
        let position: SIMD3<Float>
        let cones: [Cone]
    }

    /// `true` when some surface other than `index` crosses the segment from `p` to the
    /// viewpoint (more than 0.1 mm from `p`, so that faces sharing an edge with `p`'s do not
    /// shadow it).
    func blocks(from p: SIMD3<Float>, to viewpoint: Viewpoint, except index: Int) -> Bool {
        let d = viewpoint.position - p, length = d.length
        guard length > 0 else { return false }
        let toPoint = -d / length
        let near = 1e-4 / length
        for (k, cone) in viewpoint.cones.enumerated() where k != index {
            guard dot(toPoint, cone.axis) >= cone.cosine, cone.nearest < length else { continue }
            let t = k < faces.count ? faces[k].hit(origin: p, direction: d, margin: 0)
                : clutter[k - faces.count].translated(by: -p).nearestHit(along: d)
            if let t, t > near, t < 1 { return true }
        }
        return false
    }
}
