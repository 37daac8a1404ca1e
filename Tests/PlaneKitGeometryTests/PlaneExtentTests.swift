import Foundation
import PlaneKitGeometry
import Testing

@Suite("PlaneExtent")
struct PlaneExtentTests {
    @Test func sizesAndCorners() {
        let e = PlaneExtent(center: SIMD2(1, 0.5), width: 4, length: 3)
        #expect(e.area == 12)
        // centre ∓ (4, 3)/2
        #expect(e.minimum == SIMD2(-1, -1))
        #expect(e.maximum == SIMD2(3, 2))
        #expect(e.corners == [SIMD2(-1, -1), SIMD2(3, -1), SIMD2(3, 2), SIMD2(-1, 2)])
        // The corners run counter-clockwise: positive signed area equal to the extent's.
        #expect(Polygon2D(e.corners).signedArea == 12)
        // Negative sizes become zero; the default centre is the origin.
        let empty = PlaneExtent(width: -2, length: 5)
        #expect(empty.width == 0)
        #expect(empty.length == 5)
        #expect(empty.area == 0)
        #expect(empty.center == .zero)
    }

    @Test func enclosingPoints() throws {
        // x spans −1…3, z spans −1…2.
        let e = try #require(PlaneExtent(enclosing: [SIMD2<Float>(1, 2), SIMD2(3, -1), SIMD2(-1, 0)]))
        #expect(e.center == SIMD2(1, 0.5))
        #expect(e.width == 4)
        #expect(e.length == 3)
        // Non-finite points are skipped.
        let skipping = try #require(PlaneExtent(enclosing: [SIMD2<Float>(.nan, 100), SIMD2(0, 0), SIMD2(2, 2), SIMD2(.infinity, 0)]))
        #expect(skipping == PlaneExtent(center: SIMD2(1, 1), width: 2, length: 2))
        // One point: a zero-size extent at the point.
        #expect(PlaneExtent(enclosing: [SIMD2<Float>(5, -5)]) == PlaneExtent(center: SIMD2(5, -5), width: 0, length: 0))
        // Nothing to enclose.
        #expect(PlaneExtent(enclosing: [SIMD2<Float>]()) == nil)
        #expect(PlaneExtent(enclosing: [SIMD2<Float>(.nan, 0)]) == nil)
    }

    @Test func containsWithoutMargin() {
        // Centre (0.5, −0.25), 2 × 4: x in −0.5…1.5, z in −2.25…1.75 (all exact in binary).
        let e = PlaneExtent(center: SIMD2(0.5, -0.25), width: 2, length: 4)
        #expect(e.contains(SIMD2(0.5, -0.25)))
        // Exactly on the borders and corners.
        #expect(e.contains(SIMD2(1.5, 0)))
        #expect(e.contains(SIMD2(-0.5, 0)))
        #expect(e.contains(SIMD2(0, 1.75)))
        #expect(e.contains(SIMD2(1.5, -2.25)))
        // Just outside.
        #expect(!e.contains(SIMD2(1.5001, 0)))
        #expect(!e.contains(SIMD2(0, -2.2501)))
        #expect(!e.contains(SIMD2(.nan, 0)))
    }

    @Test func containsWithTenPercentMargin() {
        // 2 × 4 at the origin enlarged by 10% of its size on every side: half-sizes
        // 2·0.6 = 1.2 and 4·0.6 = 2.4.
        let e = PlaneExtent(width: 2, length: 4)
        #expect(!e.contains(SIMD2(1.1, 0)))
        #expect(e.contains(SIMD2(1.1, 0), margin: 0.1))
        #expect(e.contains(SIMD2(1.2, 0), margin: 0.1))     // exactly on the enlarged border
        #expect(e.contains(SIMD2(-1.2, -2.4), margin: 0.1)) // on the enlarged corner
        #expect(!e.contains(SIMD2(1.21, 0), margin: 0.1))   // just outside
        #expect(!e.contains(SIMD2(0, 2.41), margin: 0.1))
        #expect(!e.contains(SIMD2(0, -2.41), margin: 0.1))
        // A margin of 0.25 on an off-centre extent: half-sizes 1.5 and 3 around (0.5, −0.25).
        let f = PlaneExtent(center: SIMD2(0.5, -0.25), width: 2, length: 4)
        #expect(f.contains(SIMD2(2, 2.75), margin: 0.25))
        #expect(!f.contains(SIMD2(2.01, 0), margin: 0.25))
        #expect(!f.contains(SIMD2(0, 2.76), margin: 0.25))
    }

    @Test func approximateEquality() {
        let e = PlaneExtent(center: SIMD2(1, 1), width: 2, length: 3)
        #expect(e.isApproximatelyEqual(to: PlaneExtent(center: SIMD2(1, 1.000001), width: 2.000001, length: 3)))
        #expect(!e.isApproximatelyEqual(to: PlaneExtent(center: SIMD2(1, 1), width: 2, length: 3.001)))
    }

    @Test func decodingChecksSizesAndCentre() throws {
        let e = PlaneExtent(center: SIMD2(0.5, -1), width: 2, length: 0.25)
        #expect(try JSONDecoder().decode(PlaneExtent.self, from: JSONEncoder().encode(e)) == e)
        let zero = try JSONDecoder().decode(PlaneExtent.self, from: Data(#"{"center":[0,0],"width":0,"length":0}"#.utf8))
        #expect(zero.area == 0)
        for bad in [#"{"center":[0,0],"width":-1,"length":2}"#, #"{"center":[0,0],"width":1,"length":-0.001}"#,
                    #"{"center":[0,0],"width":1e39,"length":2}"#, #"{"center":[0],"width":1,"length":2}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlaneExtent.self, from: Data(bad.utf8)) }
        }
    }
}
