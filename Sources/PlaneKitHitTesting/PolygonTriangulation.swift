import PlaneKitGeometry

/// Cuts simple polygons into triangles (ear clipping), for exporting planes as meshes.
public enum PolygonTriangulation {
    /// Triangles covering `polygon` as index triples into its vertices, counter-clockwise in
    /// the `(x, z)` coordinate plane whatever the polygon's winding. A simple polygon of n
    /// vertices gives n − 2 triangles; a degenerate one (collinear or fewer than three
    /// vertices) gives none. O(n²) for n vertices: meant for outlines of tens to hundreds.
    public static func triangles(of polygon: Polygon2D) -> [SIMD3<Int32>] {
        let v = polygon.vertices
        guard v.count >= 3, v.allSatisfy(\.isFinite) else { return [] }
        var ring = Array(0..<v.count)
        if polygon.signedArea < 0 { ring.reverse() }
        var result: [SIMD3<Int32>] = []
        result.reserveCapacity(v.count - 2)
        var misses = 0
        var i = 0
        while ring.count > 3 {
            let n = ring.count
            let ia = ring[(i + n - 1) % n], ib = ring[i % n], ic = ring[(i + 1) % n]
            if isEar(v[ia], v[ib], v[ic], ring: ring, vertices: v) {
                result.append(SIMD3(Int32(ia), Int32(ib), Int32(ic)))
                ring.remove(at: i % n)
                misses = 0
            } else {
                i += 1
                misses += 1
                // A full pass without an ear: what is left is degenerate (zero area) or not simple;
                // clip a flat corner so that the loop always ends.
                if misses > ring.count {
                    let m = ring.count
                    let flat = ring.indices.first { k in
                        cross(v[ring[k]] - v[ring[(k + m - 1) % m]], v[ring[(k + 1) % m]] - v[ring[k]]) == 0
                    }
                    ring.remove(at: flat ?? (i % m))
                    misses = 0
                }
            }
            if i >= ring.count { i = 0 }
        }
        if ring.count == 3, cross(v[ring[1]] - v[ring[0]], v[ring[2]] - v[ring[0]]) > 0 {
            result.append(SIMD3(Int32(ring[0]), Int32(ring[1]), Int32(ring[2])))
        }
        return result
    }

    /// `true` when `b` is a convex corner and no other ring vertex lies inside or on the
    /// triangle `a b c`.
    private static func isEar(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>, ring: [Int], vertices: [SIMD2<Float>]) -> Bool {
        guard cross(b - a, c - b) > 0 else { return false }
        for index in ring {
            let p = vertices[index]
            if p == a || p == b || p == c { continue }
            if cross(b - a, p - a) >= 0 && cross(c - b, p - b) >= 0 && cross(a - c, p - c) >= 0 { return false }
        }
        return true
    }
}
