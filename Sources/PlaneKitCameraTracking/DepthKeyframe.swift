import PlaneKitGeometry

/// One mapped view of the world for registering later frames against: a frame's points and
/// surface normals on a reduced pixel grid (every `reduction`-th pixel of every
/// `reduction`-th row, camera coordinates), with the pose it was taken from.
///
/// A later frame's point is associated with the keyframe's point at the pixel it projects to
/// (projective data association): no search, one lookup per point.
struct DepthKeyframe: Sendable {
    /// World-from-camera pose of the keyframe.
    var pose: Transform
    /// The frame it was made from (0-based stream frame number).
    let frame: Int
    /// Grid columns and rows.
    let width: Int, height: Int
    /// Intrinsics on the reduced grid (pixel (u, v) of the grid is pixel (r·u, r·v) of the frame).
    let fx: Float, fy: Float, cx: Float, cy: Float
    /// Grid reduction: grid pixel (u, v) is frame pixel (r·u, r·v).
    let reduction: Int
    /// Points (camera coordinates); `z` is 0 where the grid has no valid point with a normal.
    private(set) var vertices: ContiguousArray<SIMD3<Float>>
    /// Unit normals facing the camera (zero where there is none).
    private(set) var normals: ContiguousArray<SIMD3<Float>>
    /// How many grid cells have a point and a normal.
    let validCount: Int
    /// The depth correction the points carry (`nil`: the sensor's depth as it came).
    private(set) var correction: DepthCorrection?

    /// The keyframe of an organized frame (`points`, `width × height`, camera coordinates, NaN
    /// holes) taken at `pose`, sampled every `reduction` pixels. Normals are the cross product of
    /// the horizontal and vertical differences across `2·radius` grid cells, where both spans
    /// are continuous surface (no depth jump larger than the span could slope over).
    /// `correction` is the depth correction `points` were corrected with, if any.
    init(points: UnsafeBufferPointer<SIMD3<Float>>, width fullWidth: Int, height fullHeight: Int,
         intrinsics k: PinholeIntrinsics, pose: Transform, frame: Int, reduction: Int = 2, radius: Int = 2,
         correction: DepthCorrection? = nil) {
        self.pose = pose
        self.frame = frame
        self.correction = correction
        let w = fullWidth / reduction, h = fullHeight / reduction
        self.reduction = reduction
        width = w
        height = h
        let reduced = k.reduced(by: reduction)
        (fx, fy, cx, cy) = (reduced.fx, reduced.fy, reduced.cx, reduced.cy)
        // Sample the grid; holes become zero points.
        var grid = ContiguousArray<SIMD3<Float>>(repeating: .zero, count: w * h)
        grid.withUnsafeMutableBufferPointer { out in
            for v in 0..<h {
                let row = v * reduction * fullWidth
                for u in 0..<w {
                    let p = points[row + u * reduction]
                    if p.z > 0, p.x.isFinite, p.y.isFinite { out[v * w + u] = p }
                }
            }
        }
        var normals = ContiguousArray<SIMD3<Float>>(repeating: .zero, count: w * h)
        var valid = 0
        // A span of 2·radius cells at depth z covers about 2·radius·reduction·z/f metres; a jump
        // in depth across it beyond 3× that (a 72° slope) is an edge, not a surface.
        let slope = 3 * 2 * Float(radius) * Float(reduction) / min(k.fx, k.fy)
        grid.withUnsafeBufferPointer { g in
            normals.withUnsafeMutableBufferPointer { n in
                for v in radius..<(h - radius) {
                    for u in radius..<(w - radius) {
                        let i = v * w + u
                        let p = g[i]
                        guard p.z > 0 else { continue }
                        let left = g[i - radius], right = g[i + radius]
                        let up = g[i - radius * w], down = g[i + radius * w]
                        guard left.z > 0, right.z > 0, up.z > 0, down.z > 0 else { continue }
                        let limit = slope * p.z + 0.01
                        guard abs(right.z - left.z) < limit, abs(down.z - up.z) < limit,
                              abs(left.z - p.z) < limit, abs(up.z - p.z) < limit else { continue }
                        var normal = cross(right - left, down - up)
                        let length = (normal * normal).sum().squareRoot()
                        guard length > 0 else { continue }
                        normal /= length
                        if dot(normal, p) > 0 { normal = -normal }
                        n[i] = normal
                        valid += 1
                    }
                }
            }
        }
        // Keep only points that have a normal.
        var vertices = grid
        vertices.withUnsafeMutableBufferPointer { vs in
            normals.withUnsafeBufferPointer { n in
                for i in vs.indices where n[i] == .zero { vs[i] = .zero }
            }
        }
        self.vertices = vertices
        self.normals = normals
        validCount = valid
    }

    /// A keyframe from a grid already made: `vertices` and `normals` (camera coordinates, zero
    /// where there is nothing) on a `width × height` grid of every `reduction`-th pixel, with the
    /// intrinsics of that grid; `validCount` cells hold a point.
    init(pose: Transform, frame: Int, width: Int, height: Int, fx: Float, fy: Float, cx: Float, cy: Float, reduction: Int,
         vertices: ContiguousArray<SIMD3<Float>>, normals: ContiguousArray<SIMD3<Float>>, validCount: Int) {
        self.pose = pose
        self.frame = frame
        self.width = width
        self.height = height
        (self.fx, self.fy, self.cx, self.cy) = (fx, fy, cx, cy)
        self.reduction = reduction
        self.vertices = vertices
        self.normals = normals
        self.validCount = validCount
    }

    /// Calls `body` with the grid's points and normals (camera coordinates; zero where there is none).
    func withSurface<R>(_ body: (UnsafeBufferPointer<SIMD3<Float>>, UnsafeBufferPointer<SIMD3<Float>>) -> R) -> R {
        vertices.withUnsafeBufferPointer { v in normals.withUnsafeBufferPointer { n in body(v, n) } }
    }

    /// Projective data association: calls `body` for each of `points` (a frame's, camera
    /// coordinates) that, moved by `transform` (keyframe-from-frame), projects onto a grid cell
    /// with a point (so a normal) no farther than `distance` from it. `body` gets the moved
    /// point, the cell's normal, the point-to-plane residual (along the normal) and the cell's depth.
    @inline(__always)
    func forEachPair(of points: PointColumns, transform: Transform, distance: Float,
                     _ body: (_ moved: SIMD3<Float>, _ normal: SIMD3<Float>, _ residual: Float, _ depth: Float) -> Void) {
        let (c0, c1, c2) = transform.rotation.columns
        let t = transform.translation
        let w = width
        let fx = self.fx, fy = self.fy, cx = self.cx, cy = self.cy
        let maxU = Float(w), maxV = Float(height)
        let distance2 = distance * distance
        let count = points.count
        vertices.withUnsafeBufferPointer { vertices in
            normals.withUnsafeBufferPointer { normals in
                // Four points at a time are moved, projected and checked against the grid as
                // lanes of one vector, each lane by the same operations in the same order as a
                // single point would be (so to the same bits); the grid lookups that follow are
                // one lane at a time.
                for first in stride(from: 0, to: count, by: 4) {
                    let (px, py, pz) = points.vectors(at: first)
                    let qx = c0.x * px + c1.x * py + c2.x * pz + t.x
                    let qy = c0.y * px + c1.y * py + c2.y * pz + t.y
                    let qz = c0.z * px + c1.z * py + c2.z * pz + t.z
                    let inFront = qz .> 0.05
                    // Lanes behind the camera divide by a safe 1 and are dropped below.
                    let inverse = 1 / qz.replacing(with: 1, where: .!inFront)
                    let uf = fx * qx * inverse + cx + 0.5, vf = fy * qy * inverse + cy + 0.5
                    let inside = inFront .& (uf .>= 0) .& (vf .>= 0) .& (uf .< maxU) .& (vf .< maxV)
                        .& (SIMD4<Int32>(0, 1, 2, 3) .< Int32(truncatingIfNeeded: count - first))
                    guard any(inside) else { continue }
                    for lane in 0..<4 where inside[lane] {
                        let i = Int(vf[lane]) &* w &+ Int(uf[lane])
                        let vertex = vertices[i]
                        guard vertex.z > 0 else { continue }
                        let q = SIMD3(qx[lane], qy[lane], qz[lane])
                        let d = q - vertex
                        guard (d * d).sum() < distance2 else { continue }
                        let n = normals[i]
                        body(q, n, (n * d).sum(), vertex.z)
                    }
                }
            }
        }
    }

    /// Moves the points from the depth correction they carry to `new` (none when `nil`): each
    /// along its ray by the ratio of the two factors at its pixel. Normals are kept: a
    /// correction changes by a fraction of a percent across a cell, which turns a normal by far
    /// less than its noise.
    mutating func recorrect(to new: DepthCorrection?) {
        guard new != correction else { return }
        let newFactors = new?.factors(width: width, height: height, step: reduction)
        let oldFactors = correction?.factors(width: width, height: height, step: reduction)
        vertices.withUnsafeMutableBufferPointer { vs in
            for i in vs.indices where vs[i].z > 0 { vs[i] *= (newFactors?[i] ?? 1) / (oldFactors?[i] ?? 1) }
        }
        correction = new
    }

    /// Replaces the points and normals of grid cells on a detected plane by the plane itself:
    /// the normal of the plane's fit over thousands of points, and the point where the cell's
    /// pixel ray meets the plane. The model is then the measured surface without its noise, so
    /// later frames are registered against planes rather than against one noisy frame
    /// (plane-to-point constraints). `labels` is the detector's label image of the frame the
    /// keyframe was made from (0 = no plane, k = `planes[k − 1]`, camera coordinates). A plane
    /// point farther than `tolerance` from the measured one is not used.
    mutating func snapToPlanes(labels: UnsafeBufferPointer<UInt16>, labelWidth: Int, planes: [Plane], tolerance: Float = 0.05) {
        let r = Float(reduction)
        let fx = self.fx * r, fy = self.fy * r, cx = self.cx * r, cy = self.cy * r
        let w = width, h = height, step = reduction
        guard labels.count >= labelWidth * (h - 1) * step + (w - 1) * step + 1 else { return }
        vertices.withUnsafeMutableBufferPointer { vs in
            normals.withUnsafeMutableBufferPointer { ns in
                for v in 0..<h {
                    for u in 0..<w {
                        let label = Int(labels[v * step * labelWidth + u * step])
                        guard label > 0, label <= planes.count else { continue }
                        let plane = planes[label - 1]
                        let ray = SIMD3<Float>((Float(u * step) - cx) / fx, (Float(v * step) - cy) / fy, 1)
                        let along = dot(plane.normal, ray)
                        guard abs(along) > 1e-4 else { continue }
                        let t = -plane.offset / along
                        guard t > 0 else { continue }
                        let point = t * ray
                        let i = v * w + u
                        let measured = vs[i]
                        guard measured.z > 0, abs(measured.z - point.z) < tolerance else { continue }
                        vs[i] = point
                        ns[i] = dot(plane.normal, point) > 0 ? -plane.normal : plane.normal
                    }
                }
            }
        }
    }
}
