import PlaneKitGeometry
import Testing

@Suite("AxisAlignedBox")
struct AxisAlignedBoxTests {
    /// The cube −1…1 on every axis.
    let cube = AxisAlignedBox(minimum: SIMD3(-1, -1, -1), maximum: SIMD3(1, 1, 1))

    func ray(_ origin: SIMD3<Float>, _ direction: SIMD3<Float>) throws -> Ray {
        try #require(Ray(origin: origin, direction: direction))
    }

    @Test func construction() throws {
        // Corners given the wrong way round are swapped per component.
        let swapped = AxisAlignedBox(minimum: SIMD3(1, -1, 1), maximum: SIMD3(-1, 1, -1))
        #expect(swapped == cube)
        #expect(AxisAlignedBox(center: .zero, size: SIMD3(2, -2, 2)) == cube)
        #expect(cube.center == .zero)
        #expect(cube.size == SIMD3(2, 2, 2))
        let box = AxisAlignedBox(center: SIMD3(1, 2, 3), size: SIMD3(4, 6, 8))
        #expect(box.minimum == SIMD3(-1, -1, -1))
        #expect(box.maximum == SIMD3(3, 5, 7))
        // Enclosing skips non-finite points; nothing to enclose gives nil.
        let enclosing = try #require(AxisAlignedBox(enclosing: [SIMD3<Float>(0, 5, -1), SIMD3(2, 1, 3), SIMD3(.nan, 9, 9)]))
        #expect(enclosing == AxisAlignedBox(minimum: SIMD3(0, 1, -1), maximum: SIMD3(2, 5, 3)))
        #expect(AxisAlignedBox(enclosing: [SIMD3<Float>]()) == nil)
        #expect(AxisAlignedBox(enclosing: [SIMD3<Float>(.infinity, 0, 0)]) == nil)
    }

    @Test func containsIncludesTheSurface() {
        #expect(cube.contains(.zero))
        #expect(cube.contains(SIMD3(1, 1, 1)))
        #expect(cube.contains(SIMD3(-1, 0.5, 0)))
        #expect(!cube.contains(SIMD3(1.0001, 0, 0)))
        #expect(!cube.contains(SIMD3(0, 0, -1.5)))
        #expect(!cube.contains(SIMD3(.nan, 0, 0)))
    }

    @Test func union() {
        let other = AxisAlignedBox(minimum: SIMD3(0, 2, -3), maximum: SIMD3(5, 3, 0))
        let u = cube.union(other)
        #expect(u.minimum == SIMD3(-1, -1, -3))
        #expect(u.maximum == SIMD3(5, 3, 1))
        #expect(u == other.union(cube))
        #expect(cube.union(cube) == cube)
    }

    @Test func rayFromOutside() throws {
        // Along +X from x = −5: enters at x = −1, 4 m on.
        #expect(cube.intersection(with: try ray(SIMD3(-5, 0, 0), SIMD3(1, 0, 0))) == 4)
        #expect(cube.intersection(with: try ray(SIMD3(-5, 0.5, -0.5), SIMD3(1, 0, 0))) == 4)
        // Along −Z from z = 10: 9 m.
        #expect(cube.intersection(with: try ray(SIMD3(0.2, 0.3, 10), SIMD3(0, 0, -1))) == 9)
        // Oblique (3,4,0)/5 from (−3,−2,0): the x slab spans t = 2/0.6…4/0.6 = 3.33…6.67, the y slab
        // t = 1/0.8…3/0.8 = 1.25…3.75; the overlap starts at 10/3, at (−1, 2/3, 0).
        let oblique = try ray(SIMD3(-3, -2, 0), SIMD3(3, 4, 0))
        let t = try #require(cube.intersection(with: oblique))
        expectClose(t, 10.0 / 3.0)
        expectClose(oblique.point(at: t), SIMD3(-1, 0.6666667, 0))
        // The same line aimed the other way misses (the box is behind).
        #expect(cube.intersection(with: try ray(SIMD3(-5, 0, 0), SIMD3(-1, 0, 0))) == nil)
        // Passing beside the box: offset in z, or climbing too slowly (from (−5,−5) along (1,0.2)
        // x is in −1…1 only while y is in −4.2…−3.8).
        #expect(cube.intersection(with: try ray(SIMD3(-5, 0, 1.5), SIMD3(1, 0, 0))) == nil)
        #expect(cube.intersection(with: try ray(SIMD3(-5, -5, 0), SIMD3(1, 0.2, 0))) == nil)
    }

    @Test func rayFromInsideHitsAtZero() throws {
        #expect(cube.intersection(with: try ray(.zero, SIMD3(1, 2, 3))) == 0)
        #expect(cube.intersection(with: try ray(SIMD3(0.9, -0.9, 0), SIMD3(0, 0, -1))) == 0)
        // Starting on the surface and leaving: still a hit at 0.
        #expect(cube.intersection(with: try ray(SIMD3(1, 0, 0), SIMD3(1, 0, 0))) == 0)
    }

    @Test func grazingRaysHit() throws {
        // Along the edge y = 1, z = 1: parallel to both slabs and on their boundaries.
        #expect(cube.intersection(with: try ray(SIMD3(-5, 1, 1), SIMD3(1, 0, 0))) == 4)
        // Along a face, z = −1.
        #expect(cube.intersection(with: try ray(SIMD3(0, -7, -1), SIMD3(0, 1, 0))) == 6)
        // Diagonally through the single edge point (−1, 1, 0): from (−2, 0, 0) along (1,1,0)/√2 the
        // x slab spans t = √2…3√2 and the y slab t = −√2…√2, meeting at t = √2.
        let t = try #require(cube.intersection(with: try ray(SIMD3(-2, 0, 0), SIMD3(1, 1, 0))))
        expectClose(t, root2)
    }

    @Test func parallelRaysOutsideASlabMiss() throws {
        // Parallel to X but above the box.
        #expect(cube.intersection(with: try ray(SIMD3(-5, 2, 0), SIMD3(1, 0, 0))) == nil)
        // Parallel to the y = 1 face, just outside it.
        #expect(cube.intersection(with: try ray(SIMD3(-5, 1.0001, 0), SIMD3(1, 0, 0))) == nil)
        // Parallel to Z, beside the box.
        #expect(cube.intersection(with: try ray(SIMD3(-1.5, 0, -9), SIMD3(0, 0, 1))) == nil)
    }

    @Test func approximateEquality() {
        let nudged = AxisAlignedBox(minimum: SIMD3(-1, -1, -1.000001), maximum: SIMD3(1, 1, 1))
        #expect(cube.isApproximatelyEqual(to: nudged))
        #expect(!cube.isApproximatelyEqual(to: AxisAlignedBox(minimum: SIMD3(-1, -1, -1), maximum: SIMD3(1, 1, 1.01))))
    }
}
