import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import Testing
import PlaneKitPlanes

/// Measured points for estimates: a 1 × 2 m box top at y = 0.4 (x −4…−3) nobody detected, a
/// wall patch on x = −5 (y 0…2, z −1…1), on a 1 cm grid, plus the room's planes.
private let measured: [SIMD3<Float>] =
    Fixtures.grid(corner: SIMD3(-4, 0.4, -1), a: SIMD3(0.01, 0, 0), b: SIMD3(0, 0, 0.01), count: SIMD2(101, 201))
    + Fixtures.grid(corner: SIMD3(-5, 0, -1), a: SIMD3(0, 0.01, 0), b: SIMD3(0, 0, 0.01), count: SIMD2(201, 201))
private let tester = HitTester(planes: Fixtures.room, points: MeasuredPoints(measured, maximumCount: 200_000))

@Suite("Smart hit test, estimated planes and feature points")
struct SmartAndEstimateTests {
    @Test func horizontalEstimateOnTheUndetectedBoxTop() throws {
        let ray = Fixtures.ray(SIMD3(-3.5, 1.4, 0), SIMD3(0, -1, 0))
        let results = tester.hitTest(ray, targets: .estimatedPlane)
        let hit = try #require(results.first)
        #expect(results.count == 1)
        #expect(hit.target == .estimatedPlane && hit.alignment == .horizontal && hit.planeIdentifier == nil)
        #expect(close(hit.distance, 1, 1e-4) && close(hit.position, SIMD3(-3.5, 0.4, 0), 1e-4))
        #expect(close(hit.normal, SIMD3(0, 1, 0)))
        #expect(tester.hitTest(ray, targets: .estimatedPlane, alignment: .vertical).isEmpty)
    }

    @Test func verticalEstimateOnTheUndetectedWallPatch() throws {
        let ray = Fixtures.ray(SIMD3(-3, 1, 0.2), SIMD3(-1, 0, 0))
        let results = tester.hitTest(ray, targets: .estimatedPlane)
        let hit = try #require(results.first)
        #expect(results.count == 1)
        #expect(hit.alignment == .vertical && close(hit.distance, 2, 1e-4) && close(hit.position, SIMD3(-5, 1, 0.2), 1e-4))
        #expect(close(hit.normal, SIMD3(1, 0, 0), 1e-4))
    }

    @Test func featurePointIsTheMeasuredPointMostNearlyAlongTheRay() throws {
        // Aimed 3 mm off the grid point (−3.5, 0.4, 0.0) from 1 m above: the nearest grid point
        // in angle is that one, 0.3 mrad off.
        let ray = Fixtures.ray(SIMD3(-3.5, 1.4, 0), SIMD3(0.003, -1, 0))
        let hit = try #require(tester.hitTest(ray, targets: .featurePoint).first)
        #expect(hit.target == .featurePoint && hit.alignment == nil && hit.planeIdentifier == nil)
        #expect(close(hit.position, SIMD3(-3.5, 0.4, 0), 1e-5))
        #expect(close(hit.distance, dot(SIMD3<Float>(0, -1, 0), ray.direction), 1e-5))
        #expect(close(hit.worldTransform.yAxis, SIMD3(0, 1, 0)))
        // Nothing within 1° of a ray into empty space.
        #expect(tester.hitTest(Fixtures.ray(SIMD3(-3.5, 1.4, 0), SIMD3(0, 1, 0)), targets: .featurePoint).isEmpty)
        // Without points there are no feature points or estimates.
        #expect(HitTester(planes: Fixtures.room).hitTest(ray, targets: [.featurePoint, .estimatedPlane]).isEmpty)
    }

    @Test func smartStep1GeometryWins() throws {
        let hit = try #require(tester.smartHitTest(Fixtures.ray(SIMD3(0.8, 2, -0.2), SIMD3(0, -1, 0)), infinitePlane: true))
        #expect(hit.target == .existingPlaneGeometry && hit.planeIdentifier == PlaneIdentifier(2) && hit.distance == 1.25)
        // Only vertical allowed: the table and floor do not count, and nothing else is there.
        #expect(tester.smartHitTest(Fixtures.ray(SIMD3(0.8, 2, -0.2), SIMD3(0, -1, 0)), allowedAlignment: .vertical) == nil)
    }

    @Test func smartStep2InfinitePlanesWhenDragging() throws {
        // Straight down off every polygon: table plane at 1.25, floor plane at 2.
        let down = Fixtures.ray(SIMD3(3, 2, 0), SIMD3(0, -1, 0))
        #expect(tester.smartHitTest(down, infinitePlane: false) == nil)
        let noObject = try #require(tester.smartHitTest(down, infinitePlane: true))
        #expect(noObject.target == .existingPlaneInfinite && noObject.planeIdentifier == PlaneIdentifier(2) && noObject.distance == 1.25)
        let nearFloor = try #require(tester.smartHitTest(down, infinitePlane: true, objectPosition: SIMD3(3, 0.02, 0)))
        #expect(nearFloor.planeIdentifier == PlaneIdentifier(1) && nearFloor.distance == 2)
        let nearTable = try #require(tester.smartHitTest(down, infinitePlane: true, objectPosition: SIMD3(0, 0.79, 5)))
        #expect(nearTable.planeIdentifier == PlaneIdentifier(2))
        // 5 cm is outside the band (strictly within 5 cm), 4.9 cm inside.
        #expect(tester.smartHitTest(down, infinitePlane: true, objectPosition: SIMD3(3, 0.8, 0)) == nil)
        #expect(tester.smartHitTest(down, infinitePlane: true, objectPosition: SIMD3(3, 0.799, 0))?.planeIdentifier == PlaneIdentifier(2))
        // Between both: no horizontal plane qualifies and there is nothing to estimate.
        #expect(tester.smartHitTest(down, infinitePlane: true, objectPosition: SIMD3(3, 0.4, 0)) == nil)
        // A vertical plane is taken at once, behind horizontal planes the object is not at.
        let slanted = Fixtures.ray(SIMD3(3, 2, 0), SIMD3(0, -1, -0.5))
        let wall = try #require(tester.smartHitTest(slanted, infinitePlane: true, objectPosition: SIMD3(3, 0.3, 0)))
        #expect(wall.planeIdentifier == PlaneIdentifier(3) && close(wall.distance, 4 * SIMD3<Float>(0, -1, -0.5).length))
        #expect(close(wall.position, SIMD3(3, -2, -2), 1e-5))
        #expect(tester.smartHitTest(slanted, allowedAlignment: .horizontal, infinitePlane: true, objectPosition: SIMD3(3, 0.3, 0)) == nil)
        // Without an object the nearer horizontal plane comes first.
        #expect(tester.smartHitTest(slanted, infinitePlane: true)?.planeIdentifier == PlaneIdentifier(2))
    }

    @Test func smartStep3EstimatesByAllowedAlignment() throws {
        let down = Fixtures.ray(SIMD3(-3.5, 1.4, 0), SIMD3(0, -1, 0))
        let across = Fixtures.ray(SIMD3(-3, 1, 0.2), SIMD3(-1, 0, 0))
        // Horizontal only → the horizontal estimate (or nothing).
        #expect(tester.smartHitTest(down, allowedAlignment: .horizontal)?.alignment == .horizontal)
        #expect(tester.smartHitTest(across, allowedAlignment: .horizontal) == nil)
        // Vertical only → the vertical estimate, else the horizontal one.
        #expect(tester.smartHitTest(across, allowedAlignment: .vertical)?.alignment == .vertical)
        let fallback = try #require(tester.smartHitTest(down, allowedAlignment: .vertical))
        #expect(fallback.alignment == .horizontal && close(fallback.distance, 1, 1e-4))
        // Both → whichever exists.
        #expect(tester.smartHitTest(down, allowedAlignment: .any)?.alignment == .horizontal)
        #expect(tester.smartHitTest(across, allowedAlignment: .any)?.alignment == .vertical)
    }

    @Test func smartStep3BothEstimatesTheNearerWins() {
        func result(_ d: Float, _ a: PlaneAlignment) -> HitTestResult {
            HitTestResult(distance: d, worldTransform: .identity, target: .estimatedPlane, alignment: a, planeIdentifier: nil)
        }
        let h = result(1.5, .horizontal), v = result(1.2, .vertical)
        #expect(HitTester.chooseEstimate(horizontal: h, vertical: v, allowedAlignment: .any) == v)
        #expect(HitTester.chooseEstimate(horizontal: result(1.1, .horizontal), vertical: v, allowedAlignment: .any)?.distance == 1.1)
        #expect(HitTester.chooseEstimate(horizontal: h, vertical: v, allowedAlignment: .horizontal) == h)
        #expect(HitTester.chooseEstimate(horizontal: h, vertical: v, allowedAlignment: .vertical) == v)
        #expect(HitTester.chooseEstimate(horizontal: h, vertical: nil, allowedAlignment: .vertical) == h)
        #expect(HitTester.chooseEstimate(horizontal: nil, vertical: v, allowedAlignment: .horizontal) == nil)
        #expect(HitTester.chooseEstimate(horizontal: nil, vertical: nil, allowedAlignment: .any) == nil)
    }

    @Test func allTargetsSortedNearestFirst() {
        // Down through the box top onto the floor's infinite plane (off its polygon at x = −3.5).
        let results = tester.hitTest(Fixtures.ray(SIMD3(-3.5, 1.4, 0), SIMD3(0, -1, 0)), targets: .all)
        // The table's plane (y = 0.75, off its polygon) at 0.65, the box top at 1, the floor's plane at 1.4.
        #expect(results.map(\.target) == [.existingPlaneInfinite, .estimatedPlane, .featurePoint, .existingPlaneInfinite])
        #expect(results.map(\.planeIdentifier) == [PlaneIdentifier(2), nil, nil, PlaneIdentifier(1)])
        #expect(close(results[0].distance, 0.65) && close(results[1].distance, 1, 1e-4) && close(results[2].distance, 1, 1e-4)
                && close(results[3].distance, 1.4))
    }
}
