import Foundation
import PlaneKitGeometry
import Testing

@Suite("Plane")
struct PlaneTests {
    /// z = 2, normal +Z: 0·x + 0·y + 1·z − 2 = 0.
    let z2 = Plane(unitNormal: SIMD3(0, 0, 1), offset: -2)

    func ray(_ origin: SIMD3<Float>, _ direction: SIMD3<Float>) throws -> Ray {
        try #require(Ray(origin: origin, direction: direction))
    }

    // MARK: Construction

    @Test func normalAndOffsetAreScaledTogether() throws {
        // (0,0,2)·p − 4 = 0 is z = 2: normal (0,0,1), offset −4/2 = −2.
        let p = try #require(Plane(normal: SIMD3(0, 0, 2), offset: -4))
        #expect(p.normal == SIMD3(0, 0, 1))
        #expect(p.offset == -2)
        #expect(p == z2)
        // (3,4,0)/5 and 10/5.
        let q = try #require(Plane(normal: SIMD3(3, 4, 0), offset: 10))
        expectClose(q.normal, SIMD3(0.6, 0.8, 0))
        expectClose(q.offset, 2)
    }

    @Test func degenerateNormalsAreRejected() {
        #expect(Plane(normal: .zero, offset: 1) == nil)
        #expect(Plane(normal: SIMD3(.nan, 0, 1), offset: 1) == nil)
        #expect(Plane(normal: SIMD3(0, 0, 1), offset: .nan) == nil)
        #expect(Plane(normal: SIMD3(0, 0, 1), offset: .infinity) == nil)
        #expect(Plane(normal: SIMD3(.infinity, 0, 0), offset: 0) == nil)
        #expect(Plane(point: .zero, normal: .zero) == nil)
        #expect(Plane(point: SIMD3(.nan, 0, 0), normal: SIMD3(0, 1, 0)) == nil)
    }

    @Test func throughAPoint() throws {
        // Normal (0,3,0) → (0,1,0); offset −n·p = −2: the plane y = 2.
        let p = try #require(Plane(point: SIMD3(1, 2, 3), normal: SIMD3(0, 3, 0)))
        #expect(p.normal == SIMD3(0, 1, 0))
        #expect(p.offset == -2)
    }

    @Test func throughThreePoints() throws {
        // (b − a) × (c − a) = (1,0,0) × (0,1,0) = (0,0,1): the plane z = 0.
        let xy = try #require(Plane(SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0)))
        #expect(xy.normal == SIMD3(0, 0, 1))
        #expect(xy.offset == 0)
        // Clockwise order flips the normal.
        let flipped = try #require(Plane(SIMD3(0, 0, 5), SIMD3(0, 1, 5), SIMD3(1, 0, 5)))
        #expect(flipped.normal == SIMD3(0, 0, -1))
        #expect(flipped.offset == 5)
        // (−1,1,0) × (−1,0,1) = (1,1,1): normal (1,1,1)/√3, offset −1/√3 = −0.57735027.
        let diagonal = try #require(Plane(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)))
        expectClose(diagonal.normal, SIMD3(repeating: 0.57735027))
        expectClose(diagonal.offset, -0.57735027)
        // Collinear and coincident points span no plane.
        #expect(Plane(SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(3, 3, 3)) == nil)
        #expect(Plane(SIMD3(1, 2, 3), SIMD3(1, 2, 3), SIMD3(1, 2, 3)) == nil)
    }

    // MARK: Distances and orientation

    @Test func signedDistanceAndProjection() {
        #expect(z2.signedDistance(to: SIMD3(5, 5, 5)) == 3)
        #expect(z2.signedDistance(to: .zero) == -2)
        #expect(z2.signedDistance(to: SIMD3(-7, 9, 2)) == 0)
        #expect(z2.project(SIMD3(5, 5, 5)) == SIMD3(5, 5, 2))
        #expect(z2.project(SIMD3(1, -1, -3)) == SIMD3(1, -1, 2))
        #expect(z2.pointNearestOrigin == SIMD3(0, 0, 2))
        // Oblique: n = (0.6, 0.8, 0), offset 2; p = (3,4,0): 1.8 + 3.2 + 2 = 7.
        let oblique = Plane(unitNormal: SIMD3(0.6, 0.8, 0), offset: 2)
        expectClose(oblique.signedDistance(to: SIMD3(3, 4, 0)), 7)
        // Projection: (3,4,0) − 7·(0.6,0.8,0) = (−1.2, −1.6, 0), which lies on the plane.
        expectClose(oblique.project(SIMD3(3, 4, 0)), SIMD3(-1.2, -1.6, 0))
        expectClose(oblique.signedDistance(to: oblique.project(SIMD3(3, 4, 0))), 0)
    }

    @Test func flippedAndFacing() {
        let flipped = z2.flipped
        #expect(flipped.normal == SIMD3(0, 0, -1))
        #expect(flipped.offset == 2)
        #expect(flipped.signedDistance(to: SIMD3(5, 5, 5)) == -3)
        #expect(flipped.flipped == z2)
        // The origin is behind z2 (distance −2): facing it flips the plane.
        #expect(z2.facing(.zero) == flipped)
        #expect(z2.facing(SIMD3(0, 0, 10)) == z2)
        #expect(flipped.facing(SIMD3(0, 0, 10)) == z2)
        // A viewpoint on the plane keeps the orientation.
        #expect(z2.facing(SIMD3(4, 4, 2)) == z2)
        #expect(flipped.facing(SIMD3(4, 4, 2)) == flipped)
    }

    // MARK: Ray intersection

    @Test func rayHittingThePlane() throws {
        // From the origin straight up to z = 2.
        #expect(z2.intersection(with: try ray(.zero, SIMD3(0, 0, 1))) == 2)
        // Oblique (0,3,4)/5: the z component is 0.8, so t = 2/0.8 = 2.5 at (0, 1.5, 2).
        let oblique = try ray(.zero, SIMD3(0, 3, 4))
        let t = try #require(z2.intersection(with: oblique))
        expectClose(t, 2.5)
        expectClose(oblique.point(at: t), SIMD3(0, 1.5, 2))
        // From above, looking down (the front side): t = 5 − 2 = 3.
        #expect(z2.intersection(with: try ray(SIMD3(1, 1, 5), SIMD3(0, 0, -1))) == 3)
    }

    @Test func rayParallelToThePlaneMisses() throws {
        #expect(z2.intersection(with: try ray(.zero, SIMD3(1, 0, 0))) == nil)
        #expect(z2.intersection(with: try ray(SIMD3(0, 0, 7), SIMD3(1, 1, 0))) == nil)
        // Within 1e-6 of parallel counts as parallel (the hit would be 2e7 m away).
        #expect(z2.intersection(with: Ray(origin: .zero, unitDirection: SIMD3(1, 0, 1e-7))) == nil)
        // Lying in the plane: parallel, so no single hit.
        #expect(z2.intersection(with: try ray(SIMD3(0, 0, 2), SIMD3(1, 0, 0))) == nil)
    }

    @Test func rayStartingBehindThePlane() throws {
        // The origin is on the back side of z2 (signed distance −2).
        // Pointing away (−Z): the plane is behind the ray.
        #expect(z2.intersection(with: try ray(.zero, SIMD3(0, 0, -1))) == nil)
        // Pointing towards it (+Z): hit from behind at t = 2.
        #expect(z2.intersection(with: try ray(.zero, SIMD3(0, 0, 1))) == 2)
        // In front, pointing away: nil as well.
        #expect(z2.intersection(with: try ray(SIMD3(0, 0, 3), SIMD3(0, 0, 1))) == nil)
    }

    @Test func rayStartingOnThePlaneHitsAtZero() throws {
        let up = try #require(z2.intersection(with: try ray(SIMD3(3, -1, 2), SIMD3(0, 0, 1))))
        #expect(up == 0)
        #expect(up.sign == .plus)
        let down = try #require(z2.intersection(with: try ray(SIMD3(3, -1, 2), SIMD3(0, 1, -1))))
        #expect(down == 0)
        #expect(down.sign == .plus)
    }

    // MARK: Frames

    @Test func transformedByATransform() {
        // 90° about X (y → z, z → −y) and a move by (1,5,3).
        let pose = Transform(rotation: Matrix3(SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, -1, 0)), translation: SIMD3(1, 5, 3))
        let moved = z2.transformed(by: pose)
        // Normal (0,0,1) → (0,−1,0); the point (0,0,2) → (0,−2,0) + (1,5,3) = (1,3,3);
        // offset −n·p = 3: the plane −y + 3 = 0, i.e. y = 3.
        #expect(moved.normal == SIMD3(0, -1, 0))
        #expect(moved.offset == 3)
        // Every point of the plane maps onto the moved plane.
        for p in [SIMD3<Float>(0, 0, 2), SIMD3(4, -7, 2), SIMD3(-1.5, 2.5, 2)] {
            expectClose(moved.signedDistance(to: pose.apply(toPoint: p)), 0)
        }
        // And back again.
        expectClose(moved.transformed(by: pose.inverse), z2)
    }

    @Test func frameOnThePlane() {
        // The origin hint (1,1,7) projects to (1,1,2); Y = normal; X = hint; Z = X × Y = (0,−1,0).
        let frame = z2.frame(origin: SIMD3(1, 1, 7), xHint: SIMD3(1, 0, 0))
        #expect(frame.translation == SIMD3(1, 1, 2))
        expectClose(frame.yAxis, SIMD3(0, 0, 1))
        expectClose(frame.xAxis, SIMD3(1, 0, 0))
        expectClose(frame.zAxis, SIMD3(0, -1, 0))
        // A local point (x, 0, z) lies on the plane.
        expectClose(z2.signedDistance(to: frame.apply(toPoint: SIMD3(0.3, 0, -4))), 0)
    }

    @Test func codable() throws {
        let data = try JSONEncoder().encode(z2)
        #expect(try JSONDecoder().decode(Plane.self, from: data) == z2)
        // A hand-written non-unit normal is normalised with its offset.
        let scaled = try JSONDecoder().decode(Plane.self, from: Data(#"{"normal":[0,0,2],"offset":-4}"#.utf8))
        #expect(scaled == z2)
        // No direction: rejected.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Plane.self, from: Data(#"{"normal":[0,0,0],"offset":1}"#.utf8))
        }
    }
}
