import Foundation
import PlaneKitGeometry
import Testing

@Suite("Polygon2D")
struct Polygon2DTests {
    /// The unit square, counter-clockwise.
    let square = Polygon2D([SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)])
    /// An L: the 2 × 2 square minus its upper-right unit square, counter-clockwise; the notch is
    /// x in 1…2, y in 1…2.
    let ell = Polygon2D([SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 1), SIMD2(1, 1), SIMD2(1, 2), SIMD2(0, 2)])

    // MARK: Measures

    @Test func areaOfSquares() {
        #expect(square.signedArea == 1)
        #expect(square.area == 1)
        let clockwise = Polygon2D(square.vertices.reversed())
        #expect(clockwise.signedArea == -1)
        #expect(clockwise.area == 1)
        // A 3 × 2 rectangle away from the origin.
        let rectangle = Polygon2D([SIMD2(10, 10), SIMD2(13, 10), SIMD2(13, 12), SIMD2(10, 12)])
        #expect(rectangle.area == 6)
    }

    @Test func areaOfTheConcaveL() {
        // 2·2 − 1·1 = 3; shoelace: Σ(x_i·y_{i+1} − x_{i+1}·y_i) = 0 + 2 + 1 + 2 + 1 + 0 = 6, halved.
        #expect(ell.signedArea == 3)
        #expect(Polygon2D(ell.vertices.reversed()).signedArea == -3)
        #expect(ell.area == 3)
    }

    @Test func perimeter() {
        #expect(square.perimeter == 4)
        // 2 + 1 + 1 + 1 + 1 + 2
        #expect(ell.perimeter == 8)
        // A 3-4-5 triangle.
        #expect(Polygon2D([SIMD2(0, 0), SIMD2(3, 0), SIMD2(0, 4)]).perimeter == 12)
    }

    @Test func centroid() throws {
        #expect(square.centroid == SIMD2(0.5, 0.5))
        #expect(Polygon2D(square.vertices.reversed()).centroid == SIMD2(0.5, 0.5))
        // The L is a 2 × 1 bar (area 2, centre (1, 0.5)) plus a 1 × 1 square (area 1, centre
        // (0.5, 1.5)): ((2·1 + 0.5)/3, (2·0.5 + 1.5)/3) = (5/6, 5/6).
        expectClose(ell.centroid, SIMD2(0.8333333, 0.8333333))
        // A triangle's centroid is the mean of its vertices: (0+3+0)/3, (0+0+6)/3.
        expectClose(Polygon2D([SIMD2(0, 0), SIMD2(3, 0), SIMD2(0, 6)]).centroid, SIMD2(1, 2))
        // No area: the mean of the vertices.
        #expect(Polygon2D([SIMD2(0, 0), SIMD2(4, 2)]).centroid == SIMD2(2, 1))
        #expect(Polygon2D([]).centroid == nil)
    }

    @Test func bounds() throws {
        let b = try #require(ell.bounds)
        #expect(b == PlaneExtent(center: SIMD2(1, 1), width: 2, length: 2))
        #expect(Polygon2D([]).bounds == nil)
    }

    @Test func degeneratePolygons() {
        let empty = Polygon2D([])
        #expect(empty.area == 0)
        #expect(empty.signedArea == 0)
        #expect(empty.perimeter == 0)
        #expect(!empty.contains(.zero))
        let point = Polygon2D([SIMD2(1, 1)])
        #expect(point.area == 0)
        #expect(point.perimeter == 0)
        #expect(!point.contains(SIMD2(1, 1)))
        // Two vertices: a segment, walked there and back.
        let segment = Polygon2D([SIMD2(0, 0), SIMD2(1, 0)])
        #expect(segment.area == 0)
        #expect(segment.perimeter == 2)
        #expect(!segment.contains(SIMD2(0.5, 0)))
    }

    // MARK: Point in polygon

    @Test func containsInConvexSquare() {
        #expect(square.contains(SIMD2(0.5, 0.5)))
        #expect(square.contains(SIMD2(0.01, 0.99)))
        #expect(!square.contains(SIMD2(1.5, 0.5)))
        #expect(!square.contains(SIMD2(-0.1, 0.5)))
        #expect(!square.contains(SIMD2(0.5, 1.001)))
        // On edges and vertices: inside.
        #expect(square.contains(SIMD2(0.5, 0)))
        #expect(square.contains(SIMD2(1, 0.5)))
        #expect(square.contains(SIMD2(0, 0.25)))
        #expect(square.contains(SIMD2(0.75, 1)))
        #expect(square.contains(SIMD2(0, 0)))
        #expect(square.contains(SIMD2(1, 1)))
        // Clockwise order makes no difference.
        let clockwise = Polygon2D(square.vertices.reversed())
        #expect(clockwise.contains(SIMD2(0.5, 0.5)))
        #expect(clockwise.contains(SIMD2(1, 0.5)))
        #expect(!clockwise.contains(SIMD2(1.5, 0.5)))
        // Not finite.
        #expect(!square.contains(SIMD2(.nan, 0.5)))
    }

    @Test func containsInConcaveL() {
        #expect(ell.contains(SIMD2(0.5, 0.5)))
        #expect(ell.contains(SIMD2(1.5, 0.5)))   // in the bar
        #expect(ell.contains(SIMD2(0.5, 1.5)))   // in the upright
        #expect(!ell.contains(SIMD2(1.5, 1.5)))  // in the notch
        #expect(!ell.contains(SIMD2(1.01, 1.01)))
        #expect(!ell.contains(SIMD2(3, 0.5)))
        #expect(!ell.contains(SIMD2(0.5, 2.5)))
        // On the edges of the notch and on its reflex vertex.
        #expect(ell.contains(SIMD2(1, 1.5)))
        #expect(ell.contains(SIMD2(1.5, 1)))
        #expect(ell.contains(SIMD2(1, 1)))
        // On outer edges and vertices.
        #expect(ell.contains(SIMD2(2, 0.5)))
        #expect(ell.contains(SIMD2(0.5, 2)))
        #expect(ell.contains(SIMD2(2, 0)))
        #expect(ell.contains(SIMD2(1, 2)))
        // Just outside an edge.
        #expect(!ell.contains(SIMD2(2.001, 0.5)))
        // A horizontal ray through the reflex vertex's height must not double count.
        #expect(ell.contains(SIMD2(0.5, 1)))
        #expect(!ell.contains(SIMD2(-0.5, 1)))
        #expect(!ell.contains(SIMD2(2.5, 1)))
    }

    // MARK: Convex hull

    @Test func convexHullDropsInteriorCollinearAndDuplicatePoints() {
        let points: [SIMD2<Float>] = [
            SIMD2(0, 0), SIMD2(2, 0), SIMD2(1, 0),          // (1,0) is on the bottom edge
            SIMD2(2, 2), SIMD2(0, 2), SIMD2(1, 1),          // (1,1) is inside
            SIMD2(0, 0), SIMD2(2, 0), SIMD2(0, 1),          // duplicates, (0,1) on the left edge
            SIMD2(.nan, 5), SIMD2(1, .infinity),            // skipped
        ]
        let hull = Polygon2D.convexHull(of: points)
        // Counter-clockwise from the lowest-x, lowest-y point.
        #expect(hull.vertices == [SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 2), SIMD2(0, 2)])
        #expect(hull.signedArea == 4)
    }

    @Test func convexHullOfTheLFillsTheNotch() {
        let hull = Polygon2D.convexHull(of: ell.vertices)
        // The reflex vertex (1,1) goes; the hull is a pentagon of area 4 − ½ = 3.5.
        #expect(hull.vertices == [SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 1), SIMD2(1, 2), SIMD2(0, 2)])
        #expect(hull.area == 3.5)
    }

    @Test func convexHullOfDegenerateSets() {
        #expect(Polygon2D.convexHull(of: [SIMD2<Float>]()).vertices.isEmpty)
        #expect(Polygon2D.convexHull(of: [SIMD2<Float>(1, 1), SIMD2(1, 1), SIMD2(2, 2)]).vertices == [SIMD2(1, 1), SIMD2(2, 2)])
        // All on one line: the two ends, no area.
        let line = Polygon2D.convexHull(of: [SIMD2<Float>(2, 2), SIMD2(0, 0), SIMD2(3, 3), SIMD2(1, 1)])
        #expect(line.vertices == [SIMD2(0, 0), SIMD2(3, 3)])
        #expect(line.area == 0)
    }

    @Test func approximateEqualityAndCodable() throws {
        let nudged = Polygon2D(square.vertices.map { $0 + SIMD2(1e-6, 0) })
        #expect(square.isApproximatelyEqual(to: nudged))
        #expect(!square.isApproximatelyEqual(to: Polygon2D(Array(square.vertices.dropLast()))))
        #expect(try JSONDecoder().decode(Polygon2D.self, from: JSONEncoder().encode(ell)) == ell)
    }

    @Test func decodingRejectsNonFiniteVertices() throws {
        let json = #"{"vertices":[[0,0],[2,0],[2,1e39]]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Polygon2D.self, from: Data(json.utf8)) }
        let triangle = try JSONDecoder().decode(Polygon2D.self, from: Data(#"{"vertices":[[0,0],[2,0],[2,1]]}"#.utf8))
        #expect(triangle.area == 1)
        #expect(String(decoding: try JSONEncoder().encode(triangle), as: UTF8.self) == #"{"vertices":[[0,0],[2,0],[2,1]]}"#)
    }
}
