import PlaneKitGeometry

/// A rectangle in camera coordinates, ready for ray tests: `normal·p = normalDotCenter` on the
/// plane, and `|axisU·p − uCenter| ≤ halfU`, `|axisV·p − vCenter| ≤ halfV` inside it.
struct CameraRectangle {
    let normal: SIMD3<Float>
    let normalDotCenter: Float
    let axisU: SIMD3<Float>, uCenter: Float, halfU: Float
    let axisV: SIMD3<Float>, vCenter: Float, halfV: Float
    let corners: [SIMD3<Float>]

    /// How far (m) each rectangle is grown for the ray test.
    static let seamOverlap: Float = 1e-5

    init(_ face: TruePlane, cameraFromWorld: Transform) {
        let frame = cameraFromWorld * face.frame
        let c = frame.translation
        normal = frame.yAxis
        normalDotCenter = dot(normal, c)
        axisU = frame.xAxis
        uCenter = dot(axisU, c)
        // Faces that share an edge (box sides, room corners) overlap by 10 µm so that rounding
        // cannot open a one-pixel crack between them; the z-buffer settles the overlap.
        halfU = face.halfSize.x + CameraRectangle.seamOverlap
        axisV = frame.zAxis
        vCenter = dot(axisV, c)
        halfV = face.halfSize.y + CameraRectangle.seamOverlap
        corners = face.corners.map { cameraFromWorld.apply(toPoint: $0) }
    }
}

/// A clutter shape in camera coordinates.
enum CameraClutter {
    case sphere(center: SIMD3<Float>, radius: Float)
    case cylinder(base: SIMD3<Float>, axis: SIMD3<Float>, radius: Float, height: Float)

    init(_ shape: ClutterShape, cameraFromWorld: Transform) {
        switch shape {
        case let .sphere(center, radius):
            self = .sphere(center: cameraFromWorld.apply(toPoint: center), radius: radius)
        case let .verticalCylinder(base, radius, height):
            self = .cylinder(base: cameraFromWorld.apply(toPoint: base), axis: cameraFromWorld.apply(toDirection: SIMD3(0, 1, 0)),
                             radius: radius, height: height)
        }
    }

    /// The corners of a box around the shape (camera coordinates).
    var boundingCorners: [SIMD3<Float>] {
        switch self {
        case let .sphere(center, radius):
            return OrientedBox(transform: Transform(translation: center), size: SIMD3(repeating: 2 * radius)).corners
        case let .cylinder(base, axis, radius, height):
            let frame = Transform(origin: base + axis * (height / 2), yAxis: axis, xHint: SIMD3(1, 0, 0))
            return OrientedBox(transform: frame, size: SIMD3(2 * radius, height, 2 * radius)).corners
        }
    }

    /// The shape moved by `offset`: a ray from `o` meets `shape` where a ray from the origin
    /// meets `shape.translated(by: −o)`.
    func translated(by offset: SIMD3<Float>) -> CameraClutter {
        switch self {
        case let .sphere(center, radius): return .sphere(center: center + offset, radius: radius)
        case let .cylinder(base, axis, radius, height): return .cylinder(base: base + offset, axis: axis, radius: radius, height: height)
        }
    }

    /// The parameter `t` of the first intersection of the ray `t·d` (from the origin) with the
    /// shape's outside, or `nil` when it misses. It may be negative (behind the origin).
    @inline(__always)
    func nearestHit(along d: SIMD3<Float>) -> Float? {
        switch self {
        case let .sphere(center, radius):
            // |t·d − c|² = r²: a t² − 2 b t + c = 0.
            let qa = dot(d, d), qb = dot(d, center), qc = dot(center, center) - radius * radius
            let discriminant = qb * qb - qa * qc
            guard discriminant >= 0 else { return nil }
            return (qb - discriminant.squareRoot()) / qa
        case let .cylinder(base, axis, radius, height):
            // Components perpendicular to the axis: |t·D + Q|² = r².
            let dp = d - dot(d, axis) * axis
            let q = -base + dot(base, axis) * axis
            let qa = dot(dp, dp), qb = dot(dp, q), qc = dot(q, q) - radius * radius
            let discriminant = qb * qb - qa * qc
            guard discriminant >= 0, qa > 0 else { return nil }
            let root = (-qb - discriminant.squareRoot()) / qa
            let along = dot(root * d - base, axis)
            guard along >= 0, along <= height else { return nil }
            return root
        }
    }

    /// The outward unit normal at surface point `p` (camera coordinates).
    func normal(at p: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case let .sphere(center, _):
            return normalize(p - center)
        case let .cylinder(base, axis, _, _):
            let d = p - base
            return normalize(d - dot(d, axis) * axis)
        }
    }
}

/// The z-buffer of a ray cast: nearest depth and surface index per pixel, plus the ray
/// direction components `x' = (u − cx)/fx` and `y' = (v − cy)/fy`.
struct RayCastBuffers {
    let width: Int, height: Int
    let intrinsics: PinholeIntrinsics
    /// Depth (camera +Z) of the nearest hit, `.infinity` where nothing was hit.
    var depth: ContiguousArray<Float>
    /// Index `k` of the surface hit (rectangles first, then clutter), −1 for none, and `~k`
    /// (negative too) where ``incidence`` says the ray grazes surface `k`: so `surface ≥ 0`
    /// alone tells the sensor pass that a pixel can be read, with no normal to look up.
    var surface: ContiguousArray<Int32>
    let xs: ContiguousArray<Float>
    let ys: ContiguousArray<Float>

    /// Whether rectangles are tested only in their analytic row spans (``RectangleRowSpans``)
    /// rather than across their whole bounding box; the frames are the same either way, and
    /// tests turn it off to check exactly that.
    var cullsRows = true

    /// The sensor's grazing-angle test, applied where a pixel is claimed (the rectangle test
    /// has `n·r` at hand then); nil keeps every angle.
    var incidence: IncidenceTest?

    /// Distance of the near clipping plane used only to bound projected rectangles.
    static let near: Float = 1e-3

    init(intrinsics: PinholeIntrinsics) {
        self.intrinsics = intrinsics
        width = intrinsics.width
        height = intrinsics.height
        depth = ContiguousArray(repeating: .infinity, count: width * height)
        surface = ContiguousArray(repeating: -1, count: width * height)
        xs = ContiguousArray((0..<intrinsics.width).map { (Float($0) - intrinsics.cx) / intrinsics.fx })
        ys = ContiguousArray((0..<intrinsics.height).map { (Float($0) - intrinsics.cy) / intrinsics.fy })
    }

    /// Clears the buffers for the next frame (nothing hit anywhere), keeping their storage.
    mutating func reset() {
        depth.withUnsafeMutableBufferPointer { $0.update(repeating: .infinity) }
        surface.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
    }

    /// The pixel rectangle `(u0, u1, v0, v1)` (inclusive) that can see the convex hull of
    /// `points`, or `nil` when it lies wholly behind the camera or off the image.
    func pixelBounds(of points: [SIMD3<Float>]) -> (Int, Int, Int, Int)? {
        RayCastBuffers.pixelBounds(of: points, intrinsics: intrinsics)
    }

    /// ``pixelBounds(of:)`` for any pinhole camera.
    static func pixelBounds(of points: [SIMD3<Float>], intrinsics: PinholeIntrinsics) -> (Int, Int, Int, Int)? {
        let width = intrinsics.width, height = intrinsics.height
        var lower = SIMD2<Float>(repeating: .infinity), upper = SIMD2<Float>(repeating: -.infinity)
        func add(_ p: SIMD3<Float>) {
            let q = SIMD2(intrinsics.fx * p.x / p.z + intrinsics.cx, intrinsics.fy * p.y / p.z + intrinsics.cy)
            lower = pointwiseMin(lower, q)
            upper = pointwiseMax(upper, q)
        }
        // Clip the hull against the near plane: keep the points in front, and where a segment
        // between two points crosses the plane, the crossing (every pair, which covers the edges).
        for (i, p) in points.enumerated() {
            if p.z >= RayCastBuffers.near { add(p) }
            for q in points[(i + 1)...] where (p.z >= RayCastBuffers.near) != (q.z >= RayCastBuffers.near) {
                let s = (RayCastBuffers.near - p.z) / (q.z - p.z)
                add(p + s * (q - p))
            }
        }
        guard lower.x <= upper.x else { return nil }
        let maxU = Float(width - 1), maxV = Float(height - 1)
        // One pixel of slack for rounding; clamp in Float first so huge values cannot overflow Int.
        let u0 = Int(min(max(lower.x.rounded(.down) - 1, 0), maxU)), u1 = Int(min(max(upper.x.rounded(.up) + 1, 0), maxU))
        let v0 = Int(min(max(lower.y.rounded(.down) - 1, 0), maxV)), v1 = Int(min(max(upper.y.rounded(.up) + 1, 0), maxV))
        guard upper.x >= -1, upper.y >= -1, lower.x <= maxU + 1, lower.y <= maxV + 1 else { return nil }
        return (u0, u1, v0, v1)
    }

    /// Ray-casts one rectangle into the buffers.
    mutating func draw(_ r: CameraRectangle, index: Int32) {
        guard let (u0, u1, v0, v1) = pixelBounds(of: r.corners) else { return }
        let width = self.width
        let n = r.normal, nc = r.normalDotCenter
        let a = r.axisU, ac = r.uCenter, ha = r.halfU
        let b = r.axisV, bc = r.vCenter, hb = r.halfV
        let spans = RectangleRowSpans(r), culling = cullsRows, incidence = self.incidence
        let fx = intrinsics.fx, cx = intrinsics.cx
        xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
        depth.withUnsafeMutableBufferPointer { depth in
        surface.withUnsafeMutableBufferPointer { surface in
            for v in v0...v1 {
                let y = ys[v]
                var first = u0, last = u1
                if culling {
                    guard let (lo, hi) = spans.columns(y: y, u0: u0, u1: u1, xs: xs, fx: fx, cx: cx) else { continue }
                    (first, last) = (lo, hi)
                }
                // Terms constant along the row.
                let nRow = n.y * y + n.z, aRow = a.y * y + a.z, bRow = b.y * y + b.z
                let row = v * width
                let yRayLength = y * y + 1
                guard width >= 8 else {
                    // Images narrower than one group of lanes, one pixel at a time.
                    for u in first...last {
                        let x = xs[u]
                        let nDotRay = n.x * x + nRow
                        let t = nc / nDotRay
                        guard t > 0, t < depth[row + u] else { continue }
                        guard abs(t * (a.x * x + aRow) - ac) <= ha, abs(t * (b.x * x + bRow) - bc) <= hb else { continue }
                        depth[row + u] = t
                        let facing = incidence?.passes(dotMagnitude: abs(nDotRay), rayLengthSquared: x * x + yRayLength) ?? true
                        surface[row + u] = facing ? index : ~index
                    }
                    continue
                }
                // Eight pixels at a time, the same IEEE operations per lane as the loop above
                // (so the same bits), the grazing test as its plain formula. The last group
                // is moved back to end at the image edge: pixels tested twice, or outside the
                // span, get the answer the unculled test gives, so nothing changes.
                let lanesN = FloatLanes(repeating: n.x), lanesNRow = FloatLanes(repeating: nRow)
                let lanesA = FloatLanes(repeating: a.x), lanesARow = FloatLanes(repeating: aRow)
                let lanesB = FloatLanes(repeating: b.x), lanesBRow = FloatLanes(repeating: bRow)
                let zeros = FloatLanes(repeating: 0), yLength = FloatLanes(repeating: yRayLength)
                let facingCode = IntLanes(repeating: index), grazingCode = IntLanes(repeating: ~index)
                let depthRow = depth.baseAddress! + row, surfaceRow = surface.baseAddress! + row
                var u = first
                while true {
                    let s = min(u, width &- 8)
                    let x = xs.baseAddress!.lanes(at: s)
                    let nDotRay = lanesN * x + lanesNRow
                    let t = nc / nDotRay
                    let old = UnsafePointer(depthRow).lanes(at: s)
                    let hit = (t .> zeros) .& (t .< old)
                        .& ((t * (lanesA * x + lanesARow) - ac).laneMagnitude .<= ha)
                        .& ((t * (lanesB * x + lanesBRow) - bc).laneMagnitude .<= hb)
                    depthRow.store(old.replacing(with: t, where: hit), at: s)
                    var code = facingCode
                    if let incidence {
                        let grazing = nDotRay.laneMagnitude / (x * x + yLength).squareRoot() .< incidence.cosMaximum
                        code.replace(with: grazingCode, where: grazing)
                    }
                    surfaceRow.store(UnsafePointer(surfaceRow).lanes(at: s).replacing(with: code, where: hit), at: s)
                    if s &+ 8 > last { break }
                    u &+= 8
                }
            }
        }}}}
    }

    /// Ray-casts one sphere or cylinder into the buffers (the nearest intersection only: the
    /// camera is never inside clutter).
    mutating func draw(_ shape: CameraClutter, index: Int32) {
        guard let (u0, u1, v0, v1) = pixelBounds(of: shape.boundingCorners) else { return }
        let width = self.width, incidence = self.incidence
        xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
        depth.withUnsafeMutableBufferPointer { depth in
        surface.withUnsafeMutableBufferPointer { surface in
            for v in v0...v1 {
                for u in u0...u1 {
                    let d = SIMD3(xs[u], ys[v], 1)
                    guard let t = shape.nearestHit(along: d) else { continue }
                    let i = v * width + u
                    guard t > 0, t < depth[i] else { continue }
                    depth[i] = t
                    var facing = true
                    if let incidence {
                        let normal = shape.normal(at: t * d)
                        facing = incidence.passes(dotMagnitude: abs(dot(normal, d)), rayLengthSquared: dot(d, d))
                    }
                    surface[i] = facing ? index : ~index
                }
            }
        }}}}
    }

    /// `true` when a 4-neighbour of `(u, v)` sees nothing or lies deeper or shallower by more
    /// than `relativeJump` times this pixel's depth.
    @inline(__always)
    static func isEdge(_ depth: UnsafeBufferPointer<Float>, u: Int, v: Int, width: Int, height: Int, relativeJump: Float) -> Bool {
        // Wrapping arithmetic: the indices are in bounds by the checks, and the overflow traps
        // cost more than the comparisons in the sensor loop.
        let i = v &* width &+ u
        let z = depth[i], limit = relativeJump * z
        if u > 0, !(abs(depth[i &- 1] - z) <= limit) { return true }
        if u &+ 1 < width, !(abs(depth[i &+ 1] - z) <= limit) { return true }
        if v > 0, !(abs(depth[i &- width] - z) <= limit) { return true }
        if v &+ 1 < height, !(abs(depth[i &+ width] - z) <= limit) { return true }
        return false
    }
}
