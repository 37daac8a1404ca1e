import Foundation
import PlaneKitGeometry
import Testing

@Suite("Ray")
struct RayTests {
    @Test func directionIsNormalized() throws {
        let ray = try #require(Ray(origin: SIMD3(1, 1, 1), direction: SIMD3(0, 0, 2)))
        #expect(ray.origin == SIMD3(1, 1, 1))
        #expect(ray.direction == SIMD3(0, 0, 1))
        // (0,3,4)/5
        let oblique = try #require(Ray(origin: .zero, direction: SIMD3(0, 3, 4)))
        expectClose(oblique.direction, SIMD3(0, 0.6, 0.8))
    }

    @Test func initRejectsDegenerateInput() {
        #expect(Ray(origin: .zero, direction: .zero) == nil)
        #expect(Ray(origin: .zero, direction: SIMD3(1e-13, 0, 0)) == nil)
        #expect(Ray(origin: .zero, direction: SIMD3(.nan, 1, 0)) == nil)
        #expect(Ray(origin: .zero, direction: SIMD3(0, .infinity, 0)) == nil)
        #expect(Ray(origin: SIMD3(.nan, 0, 0), direction: SIMD3(1, 0, 0)) == nil)
        #expect(Ray(origin: SIMD3(0, 0, -.infinity), direction: SIMD3(1, 0, 0)) == nil)
    }

    @Test func pointAtDistance() throws {
        let ray = try #require(Ray(origin: SIMD3(1, 1, 1), direction: SIMD3(0, 0, 2)))
        #expect(ray.point(at: 2.5) == SIMD3(1, 1, 3.5))
        #expect(ray.point(at: 0) == SIMD3(1, 1, 1))
        // Negative parameters lie on the line behind the origin.
        #expect(ray.point(at: -1) == SIMD3(1, 1, 0))
        // (0,3,4)/5 · 10 = (0,6,8)
        let oblique = try #require(Ray(origin: .zero, direction: SIMD3(0, 3, 4)))
        expectClose(oblique.point(at: 10), SIMD3(0, 6, 8))
    }

    @Test func distanceToPoints() {
        let ray = Ray(origin: .zero, unitDirection: SIMD3(1, 0, 0))
        // In front: the perpendicular distance.
        #expect(ray.parameter(nearest: SIMD3(3, 4, 0)) == 3)
        #expect(ray.distance(to: SIMD3(3, 4, 0)) == 4)
        #expect(ray.distance(to: SIMD3(7, 0, 0)) == 0)
        // Behind the origin: the distance to the origin, √(3² + 4²) = 5, not the line's 4.
        #expect(ray.parameter(nearest: SIMD3(-3, 4, 0)) == -3)
        #expect(ray.distance(to: SIMD3(-3, 4, 0)) == 5)
        #expect(ray.distance(to: SIMD3(-2, 0, 0)) == 2)
        // Beside the origin exactly: √(0 + 3² + 4²).
        #expect(ray.distance(to: SIMD3(0, 3, 4)) == 5)
    }

    @Test func transformedRay() throws {
        // 90° about Z and a move by (1,2,3).
        let pose = Transform(rotation: Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1)), translation: SIMD3(1, 2, 3))
        let ray = try #require(Ray(origin: SIMD3(1, 0, 0), direction: SIMD3(1, 0, 0)))
        let moved = ray.transformed(by: pose)
        // Origin: (0,1,0) + (1,2,3); direction rotated only.
        #expect(moved.origin == SIMD3(1, 3, 3))
        #expect(moved.direction == SIMD3(0, 1, 0))
        // Distances along the ray survive a rigid transform.
        #expect(moved.point(at: 2) == pose.apply(toPoint: ray.point(at: 2)))
        expectClose(moved.transformed(by: pose.inverse), ray)
    }

    @Test func codableRoundTrip() throws {
        let ray = try #require(Ray(origin: SIMD3(1, -2, 0.5), direction: SIMD3(0, 0, -1)))
        #expect(try JSONDecoder().decode(Ray.self, from: JSONEncoder().encode(ray)) == ray)
        // A hand-written direction of length 2 is normalised.
        let scaled = try JSONDecoder().decode(Ray.self, from: Data(#"{"origin":[1,2,3],"direction":[0,2,0]}"#.utf8))
        #expect(scaled.direction == SIMD3(0, 1, 0))
        // A zero direction is no ray.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Ray.self, from: Data(#"{"origin":[1,2,3],"direction":[0,0,0]}"#.utf8))
        }
    }
}
