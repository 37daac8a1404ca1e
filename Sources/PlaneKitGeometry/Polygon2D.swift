/// A simple polygon in 2D, such as a plane's boundary in the plane's own `(x, z)` coordinates.
///
/// Vertices are listed in order around the boundary; the last connects back to the first.
/// Either winding is accepted. A polygon with fewer than three vertices has no area and
/// contains no points.
public struct Polygon2D: Hashable, Sendable, Codable {
    /// The vertices in order around the boundary.
    public var vertices: [SIMD2<Float>]

    /// A polygon from its vertices in boundary order.
    @inlinable public init(_ vertices: [SIMD2<Float>]) {
        self.vertices = vertices
    }

    /// The signed area: positive for counter-clockwise vertices (shoelace formula).
    public var signedArea: Float {
        guard vertices.count >= 3 else { return 0 }
        var twice: Double = 0
        var previous = vertices[vertices.count - 1]
        for v in vertices {
            twice += Double(cross(previous, v))
            previous = v
        }
        return Float(twice / 2)
    }

    /// The enclosed area (the absolute value of ``signedArea``).
    public var area: Float { abs(signedArea) }

    /// The perimeter length.
    public var perimeter: Float {
        guard vertices.count >= 2 else { return 0 }
        var total: Float = 0
        var previous = vertices[vertices.count - 1]
        for v in vertices {
            total += (v - previous).length
            previous = v
        }
        return total
    }

    /// The area-weighted centroid, or the mean of the vertices when the area is zero, or `nil`
    /// for no vertices.
    public var centroid: SIMD2<Float>? {
        guard !vertices.isEmpty else { return nil }
        var a: Double = 0, cx: Double = 0, cy: Double = 0
        var previous = vertices[vertices.count - 1]
        for v in vertices {
            let w = Double(cross(previous, v))
            a += w
            cx += Double(previous.x + v.x) * w
            cy += Double(previous.y + v.y) * w
            previous = v
        }
        if abs(a) < 1e-12 {
            return vertices.reduce(SIMD2<Float>.zero, +) / Float(vertices.count)
        }
        return SIMD2(Float(cx / (3 * a)), Float(cy / (3 * a)))
    }

    /// The smallest axis-aligned rectangle holding every vertex, or `nil` for no vertices.
    public var bounds: PlaneExtent? { PlaneExtent(enclosing: vertices) }

    /// `true` when `p` is inside the polygon or on its boundary (edges and vertices count as
    /// inside, so a point exactly on an edge is always a hit).
    ///
    /// Uses the crossing-number rule with a half-open edge convention, plus an explicit on-edge
    /// test, so it works for convex and concave polygons alike.
    public func contains(_ p: SIMD2<Float>) -> Bool {
        guard vertices.count >= 3, p.isFinite else { return false }
        var inside = false
        var previous = vertices[vertices.count - 1]
        for v in vertices {
            if Polygon2D.segment(previous, v, contains: p) { return true }
            if (v.y > p.y) != (previous.y > p.y) {
                let xCross = v.x + (p.y - v.y) * (previous.x - v.x) / (previous.y - v.y)
                if p.x < xCross { inside.toggle() }
            }
            previous = v
        }
        return inside
    }

    /// `true` when `p` lies on the segment `a`–`b` (within a relative tolerance of 1e-6).
    @usableFromInline static func segment(_ a: SIMD2<Float>, _ b: SIMD2<Float>, contains p: SIMD2<Float>) -> Bool {
        let ab = b - a, ap = p - a
        let scale = max(dot(ab, ab), 1e-20)
        guard abs(cross(ab, ap)) <= 1e-6 * scale.squareRoot() * max(1, ab.length) else { return false }
        let t = dot(ap, ab)
        return t >= -1e-6 * scale && t <= scale * (1 + 1e-6)
    }

    /// The convex hull of `points`, counter-clockwise, without collinear points (Andrew's
    /// monotone chain). Fewer than three distinct points give a degenerate polygon of those points.
    public static func convexHull<S: Sequence>(of points: S) -> Polygon2D where S.Element == SIMD2<Float> {
        var sorted = points.filter(\.isFinite)
        sorted.sort { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        var unique: [SIMD2<Float>] = []
        unique.reserveCapacity(sorted.count)
        for p in sorted where unique.last != p { unique.append(p) }
        guard unique.count >= 3 else { return Polygon2D(unique) }
        var hull: [SIMD2<Float>] = []
        hull.reserveCapacity(unique.count + 1)
        for pass in 0..<2 {
            let start = hull.count
            for p in pass == 0 ? unique : unique.reversed() {
                while hull.count >= start + 2 && cross(hull[hull.count - 1] - hull[hull.count - 2], p - hull[hull.count - 2]) <= 0 {
                    hull.removeLast()
                }
                hull.append(p)
            }
            hull.removeLast()
        }
        return Polygon2D(hull)
    }
}

extension Polygon2D: ApproximatelyEquatable {
    /// `true` when both have the same number of vertices and each agrees within `tolerance`,
    /// in the same order.
    public func isApproximatelyEqual(to other: Polygon2D, tolerance: Float) -> Bool {
        vertices.count == other.vertices.count
            && zip(vertices, other.vertices).allSatisfy { $0.isApproximatelyEqual(to: $1, tolerance: tolerance) }
    }
}

extension Polygon2D {
    private enum CodingKeys: String, CodingKey { case vertices }

    /// Decodes `{"vertices": [[x, z], …]}`, rejecting any vertex that is not finite (area and
    /// containment would be meaningless).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let vertices = try container.decode([SIMD2<Float>].self, forKey: .vertices)
        if let bad = vertices.firstIndex(where: { !($0.x.isFinite && $0.y.isFinite) }) {
            throw DecodingError.dataCorruptedError(forKey: .vertices, in: container, debugDescription: "polygon vertex \(bad) is not finite")
        }
        self.init(vertices)
    }
}
