import PlaneKitGeometry

/// A polyhedral object standing on a table: planar faces only, as in range-image segmentation
/// benchmarks (blocks, wedges, steps, pyramids).
///
/// In its own frame the solid stands on `y = 0` over the footprint `|x| ≤ size.x / 2`,
/// `|z| ≤ size.z / 2`, and is `size.y` high; ``transform`` places it in the world. The bottom
/// face rests on the table and is never seen, so it is not listed.
public struct TabletopSolid: Sendable, Hashable {
    /// The solid's shape; the numbers are fractions of its size.
    public enum Shape: Sendable, Hashable {
        /// A rectangular block: a top and four sides.
        case box
        /// A prism with a triangular cross-section in X/Y: two slopes meeting at a ridge along Z
        /// at `x = ridge · size.x / 2` (−1 gives a vertical back face), and two triangular ends.
        case wedge(ridge: Float)
        /// A block with one step: full height for `x < step · size.x / 2`, `lower · size.y` high
        /// beyond. Two tops, a riser, two sides and two L-shaped ends (concave faces).
        case steppedBlock(step: Float, lower: Float)
        /// A pyramid on the footprint with its apex at `(apex.x · size.x / 2, size.y, apex.y · size.z / 2)`:
        /// four triangles.
        case pyramid(apex: SIMD2<Float>)
        /// A truncated pyramid whose top is the footprint scaled by `top` and moved by
        /// `(offset.x · size.x / 2, offset.y · size.z / 2)`: a top and four trapezoids.
        case frustum(top: Float, offset: SIMD2<Float>)
    }

    /// The shape.
    public var shape: Shape
    /// Footprint width (X), height (Y) and footprint depth (Z), in metres.
    public var size: SIMD3<Float>
    /// World-from-solid: the solid's base centre and its heading (a turn about +Y).
    public var transform: Transform

    /// A solid from its parts.
    public init(shape: Shape, size: SIMD3<Float>, transform: Transform) {
        self.shape = shape
        self.size = size
        self.transform = transform
    }

    /// One visible face: its vertices in order around the outline (world coordinates) and its
    /// outward unit normal.
    public struct Face: Sendable, Hashable {
        /// The outline's vertices, in the world.
        public var vertices: [SIMD3<Float>]
        /// The unit normal pointing out of the solid.
        public var normal: SIMD3<Float>
        /// What the face is: a box top when it faces up, a box side when vertical, else other.
        public var kind: SurfaceKind {
            normal.y > 0.999 ? .boxTop : abs(normal.y) < 0.001 ? .boxSide : .other
        }
    }

    /// The faces other than the bottom.
    public var faces: [Face] {
        let a = size.x / 2, h = size.y, c = size.z / 2
        // Each face with a point it faces away from (inside the solid), to orient its normal.
        var local: [(vertices: [SIMD3<Float>], inside: SIMD3<Float>)] = []
        func base(_ sx: Float, _ sz: Float) -> SIMD3<Float> { SIMD3(sx * a, 0, sz * c) }
        let footprint = [base(-1, -1), base(1, -1), base(1, 1), base(-1, 1)]
        switch shape {
        case .box:
            let top = footprint.map { $0 + SIMD3(0, h, 0) }
            local = prismFaces(bottom: footprint, top: top, inside: SIMD3(0, h / 2, 0))
        case let .frustum(scale, offset):
            let shift = SIMD3(offset.x * a, h, offset.y * c)
            let top = footprint.map { SIMD3($0.x * scale, 0, $0.z * scale) + shift }
            local = prismFaces(bottom: footprint, top: top, inside: SIMD3(shift.x / 2, h / 2, shift.z / 2))
        case let .pyramid(apex):
            let tip = SIMD3(apex.x * a, h, apex.y * c), inside = SIMD3(tip.x / 4, h / 4, tip.z / 4)
            for k in 0..<4 { local.append(([footprint[k], footprint[(k + 1) % 4], tip], inside)) }
        case let .wedge(ridge):
            let r = ridge * a, inside = SIMD3((r) / 3, h / 3, 0)
            for sz: Float in [-1, 1] {
                local.append(([SIMD3(-a, 0, sz * c), SIMD3(a, 0, sz * c), SIMD3(r, h, sz * c)], inside))
            }
            local.append(([SIMD3(-a, 0, -c), SIMD3(-a, 0, c), SIMD3(r, h, c), SIMD3(r, h, -c)], inside))
            local.append(([SIMD3(a, 0, -c), SIMD3(a, 0, c), SIMD3(r, h, c), SIMD3(r, h, -c)], inside))
        case let .steppedBlock(step, lower):
            let s = step * a, l = lower * h
            // The L is not convex, so each face gets its own inside point just behind it.
            func profile(_ z: Float) -> [SIMD3<Float>] {
                [SIMD3(-a, 0, z), SIMD3(a, 0, z), SIMD3(a, l, z), SIMD3(s, l, z), SIMD3(s, h, z), SIMD3(-a, h, z)]
            }
            func strip(_ p: SIMD2<Float>, _ q: SIMD2<Float>) -> [SIMD3<Float>] {
                [SIMD3(p.x, p.y, -c), SIMD3(q.x, q.y, -c), SIMD3(q.x, q.y, c), SIMD3(p.x, p.y, c)]
            }
            let e = min(a, h, c) / 100
            local.append((profile(c), SIMD3(-a / 2, l / 2, c - e)))
            local.append((profile(-c), SIMD3(-a / 2, l / 2, -c + e)))
            local.append((strip(SIMD2(-a, 0), SIMD2(-a, h)), SIMD3(-a + e, h / 2, 0)))
            local.append((strip(SIMD2(-a, h), SIMD2(s, h)), SIMD3((s - a) / 2, h - e, 0)))
            local.append((strip(SIMD2(s, h), SIMD2(s, l)), SIMD3(s - e, (h + l) / 2, 0)))
            local.append((strip(SIMD2(s, l), SIMD2(a, l)), SIMD3((s + a) / 2, l - e, 0)))
            local.append((strip(SIMD2(a, l), SIMD2(a, 0)), SIMD3(a - e, l / 2, 0)))
        }
        return local.compactMap { face in
            // Newell's normal handles concave outlines; orient it away from the inside point.
            var n = SIMD3<Float>.zero
            for (k, p) in face.vertices.enumerated() {
                let q = face.vertices[(k + 1) % face.vertices.count]
                n += SIMD3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y))
            }
            guard var unit = n.normalized else { return nil }
            if dot(unit, face.vertices[0] - face.inside) < 0 { unit = -unit }
            return Face(vertices: face.vertices.map { transform.apply(toPoint: $0) }, normal: transform.apply(toDirection: unit))
        }
    }

    /// The top and sides of a solid whose four side faces join the `bottom` quadrilateral to the
    /// `top` one.
    private func prismFaces(bottom: [SIMD3<Float>], top: [SIMD3<Float>], inside: SIMD3<Float>)
        -> [(vertices: [SIMD3<Float>], inside: SIMD3<Float>)] {
        var faces = [(vertices: top, inside: inside)]
        for k in 0..<4 {
            let next = (k + 1) % 4
            faces.append(([bottom[k], bottom[next], top[next], top[k]], inside))
        }
        return faces
    }
}
