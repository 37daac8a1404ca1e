import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import Testing

@Suite("Existing planes: geometry, extent, infinite")
struct ExistingPlaneTests {
    let tester = HitTester(planes: Fixtures.room)
    let planeTargets: HitTestTargets = [.existingPlaneGeometry, .existingPlaneUsingExtent, .existingPlaneInfinite]

    @Test func rayThroughTheTableNotchHitsTheTableExtentButNotItsGeometry() throws {
        // Straight down at world (1.25, ·, 0.25): table-local (0.25, 0.25), inside the notch.
        let results = tester.hitTest(Fixtures.ray(SIMD3(1.25, 2, 0.25), SIMD3(0, -1, 0)), targets: planeTargets)
        #expect(results.map(\.target) == [.existingPlaneUsingExtent, .existingPlaneInfinite,
                                          .existingPlaneGeometry, .existingPlaneUsingExtent, .existingPlaneInfinite])
        #expect(results.map(\.planeIdentifier) == [PlaneIdentifier(2), PlaneIdentifier(2), PlaneIdentifier(1), PlaneIdentifier(1), PlaneIdentifier(1)])
        #expect(results.map(\.distance) == [1.25, 1.25, 2, 2, 2])
        #expect(close(results[0].position, SIMD3(1.25, 0.75, 0.25)))
        #expect(close(results[2].position, SIMD3(1.25, 0, 0.25)))
        #expect(results.allSatisfy { $0.alignment == .horizontal })
        // +Y along the normal facing the ray's origin (up), X along the plane's X.
        #expect(results[2].worldTransform.isApproximatelyEqual(to: Transform(rotation: Matrix3.identity, translation: SIMD3(1.25, 0, 0.25))))
        #expect(results[2].worldTransform.translation.isApproximatelyEqual(to: SIMD3(1.25, 0, 0.25)))
    }

    @Test func geometryTargetOnlyAndDescription() {
        let results = tester.hitTest(Fixtures.ray(SIMD3(0.8, 2, -0.2), SIMD3(0, -1, 0)), targets: .existingPlaneGeometry)
        #expect(results.map(\.distance) == [1.25, 2])
        #expect(results.map { $0.planeIdentifier?.description } == ["plane-2", "plane-1"])
    }

    @Test func wallHitAndAlignmentFilter() throws {
        let ray = Fixtures.ray(SIMD3(0.5, 1, 0), SIMD3(0, 0, -1))
        let any = tester.hitTest(ray, targets: .existingPlaneGeometry)
        let hit = try #require(any.first)
        #expect(any.count == 1)
        #expect(hit.distance == 2)
        #expect(hit.planeIdentifier == PlaneIdentifier(3))
        #expect(hit.alignment == .vertical)
        #expect(close(hit.position, SIMD3(0.5, 1, -2)))
        #expect(close(hit.normal, SIMD3(0, 0, 1)))
        #expect(close(hit.worldTransform.xAxis, SIMD3(1, 0, 0)))
        #expect(tester.hitTest(ray, targets: .existingPlaneGeometry, alignment: .horizontal).isEmpty)
        #expect(tester.hitTest(ray, targets: .existingPlaneGeometry, alignment: .vertical).count == 1)
    }

    @Test func horizontalFilterDropsTheWall() {
        // Down and back: hits the table plane, the floor and the wall plane (below the room).
        let ray = Fixtures.ray(SIMD3(3, 2, 0), SIMD3(0, -1, -0.5))
        let all = tester.hitTest(ray, targets: .existingPlaneInfinite)
        let scale: Float = SIMD3<Float>(0, -1, -0.5).length
        #expect(all.map(\.planeIdentifier) == [PlaneIdentifier(2), PlaneIdentifier(1), PlaneIdentifier(3)])
        #expect(close(all[0].distance, 1.25 * scale) && close(all[1].distance, 2 * scale) && close(all[2].distance, 4 * scale))
        #expect(tester.hitTest(ray, targets: .existingPlaneInfinite, alignment: .horizontal).map(\.planeIdentifier) == [PlaneIdentifier(2), PlaneIdentifier(1)])
        #expect(tester.hitTest(ray, targets: .existingPlaneInfinite, alignment: .vertical).map(\.planeIdentifier) == [PlaneIdentifier(3)])
        // Outside every polygon and extent.
        #expect(tester.hitTest(ray, targets: [.existingPlaneGeometry, .existingPlaneUsingExtent]).isEmpty)
    }

    @Test func rayFromBehindThePlaneHitsItsBackWithTheNormalTurnedToTheRay() throws {
        let results = tester.hitTest(Fixtures.ray(SIMD3(0, -1, 0), SIMD3(0, 1, 0)), targets: planeTargets)
        let floor = try #require(results.first)
        #expect(floor.distance == 1 && floor.planeIdentifier == PlaneIdentifier(1) && floor.target == .existingPlaneGeometry)
        #expect(close(floor.normal, SIMD3(0, -1, 0)))
        #expect(floor.worldTransform.rotation.determinant > 0.999)
        // The table plane at y = 0.75 is met only as an infinite plane (x = 0 is off the table).
        #expect(results.filter { $0.planeIdentifier == PlaneIdentifier(2) }.map(\.target) == [.existingPlaneInfinite])
        #expect(results.last?.distance == 1.75)
    }

    @Test func planesBehindTheOriginAreNotHit() {
        #expect(tester.hitTest(Fixtures.ray(SIMD3(0, 1, 0), SIMD3(0, 1, 0)), targets: planeTargets).isEmpty)
    }

    @Test func rayParallelToEveryPlaneHitsNothing() {
        // Along x at height 1: parallel to floor, table and wall.
        #expect(tester.hitTest(Fixtures.ray(SIMD3(0, 1, 0), SIMD3(1, 0, 0)), targets: planeTargets).isEmpty)
        // Lying in the floor plane: parallel too, not a hit at every distance.
        #expect(tester.hitTest(Fixtures.ray(SIMD3(0, 0, 0), SIMD3(1, 0, 0)), targets: .existingPlaneGeometry).isEmpty)
    }

    @Test func rayStartingOnAPlaneHitsItAtDistanceZero() throws {
        let results = tester.hitTest(Fixtures.ray(SIMD3(0, 0, 0), SIMD3(0, 1, 1)), targets: .existingPlaneInfinite)
        #expect(results.count == 2)
        let first = try #require(results.first)
        #expect(first.distance == 0 && first.distance.sign == .plus)
        #expect(first.planeIdentifier == PlaneIdentifier(1))
        #expect(close(results[1].distance, 0.75 * Float(2).squareRoot()))
    }

    @Test func pointsExactlyOnThePolygonOutlineAreHits() {
        // Table-local (0, 0.25) lies on the notch's edge from (0, 0) to (0, 0.5); (0, 0) is its
        // reflex corner; (0.5, -0.5) a convex corner; (-0.5, 0.1) on the left edge.
        for (local, hit) in [(SIMD2<Float>(0, 0.25), true), (SIMD2(0, 0), true), (SIMD2(0.5, -0.5), true),
                             (SIMD2(-0.5, 0.1), true), (SIMD2(0.25, 0), true), (SIMD2(0.001, 0.25), false),
                             (SIMD2(-0.5001, 0.1), false)] {
            let origin = SIMD3<Float>(1 + local.x, 2, local.y)
            let results = tester.hitTest(Fixtures.ray(origin, SIMD3(0, -1, 0)), targets: .existingPlaneGeometry)
            #expect(results.contains { $0.planeIdentifier == PlaneIdentifier(2) } == hit, "local \(local)")
        }
    }

    @Test func noPlanesAtAll() {
        let empty = HitTester(planes: [])
        #expect(empty.hitTest(Fixtures.ray(.zero, SIMD3(0, -1, 0)), targets: .all).isEmpty)
        #expect(empty.smartHitTest(Fixtures.ray(.zero, SIMD3(0, -1, 0)), infinitePlane: true) == nil)
        var hits = [PlaneRayHit](repeating: PlaneRayHit(distance: 1, planeIndex: 7), count: 1)
        let origins = [SIMD3<Float>.zero], directions = [SIMD3<Float>(0, -1, 0)]
        origins.withUnsafeBufferPointer { o in
            directions.withUnsafeBufferPointer { d in
                hits.withUnsafeMutableBufferPointer { empty.kernel.castRays(origins: o, directions: d, into: $0) }
            }
        }
        #expect(hits == [.miss])
    }

    @Test func nanInputGivesNoResults() {
        let nan = Float.nan
        #expect(tester.hitTest(origin: SIMD3(nan, 1, 0), direction: SIMD3(0, -1, 0), targets: .all).isEmpty)
        #expect(tester.hitTest(origin: SIMD3(0, 1, 0), direction: SIMD3(0, nan, 0), targets: .all).isEmpty)
        #expect(tester.hitTest(origin: SIMD3(0, 1, 0), direction: .zero, targets: .all).isEmpty)
        #expect(tester.hitTest(Ray(origin: SIMD3(0, nan, 0), unitDirection: SIMD3(0, -1, 0)), targets: .all).isEmpty)
        #expect(tester.smartHitTest(Ray(origin: SIMD3(0, 1, 0), unitDirection: SIMD3(nan, nan, nan)), infinitePlane: true) == nil)
        let camera = PinholeCamera(intrinsics: .kinect(), pose: Transform(rotation: Matrix3.identity, translation: SIMD3(0, 1, 0)))
        #expect(tester.hitTest(pixel: SIMD2(nan, 3), camera: camera, targets: .all).isEmpty)
        // A plane with NaN in it is never hit, and does not disturb the others.
        var broken = Fixtures.floor
        broken.plane = Plane(unitNormal: SIMD3(nan, 1, 0), offset: 0)
        let mixed = HitTester(planes: HitTestPlane.from([broken, Fixtures.table]))
        #expect(mixed.hitTest(Fixtures.ray(SIMD3(0.8, 2, -0.2), SIMD3(0, -1, 0)), targets: .all).map(\.planeIdentifier)
                == [PlaneIdentifier(2), PlaneIdentifier(2), PlaneIdentifier(2)])
    }

    @Test func pixelRayThroughTheCameraHitsWhatTheCameraSees() throws {
        // A camera 2 m above the floor looking straight down (+Z forward = world −Y).
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(-1, 2, -1), target: SIMD3(-1, 0, -1), up: SIMD3(0, 0, -1)))
        let camera = PinholeCamera(intrinsics: .kinect(), pose: pose)
        let centre = try #require(tester.hitTest(pixel: SIMD2(319.5, 239.5), camera: camera, targets: .existingPlaneGeometry).first)
        #expect(close(centre.distance, 2) && close(centre.position, SIMD3(-1, 0, -1)))
        // 105 px right of centre at fx = 525 is 0.2 × 2 m = 0.4 m along camera +X.
        let right = try #require(tester.hitTest(pixel: SIMD2(424.5, 239.5), camera: camera, targets: .existingPlaneGeometry).first)
        #expect(close(right.position, SIMD3(-1, 0, -1) + 0.4 * pose.xAxis, 1e-4))
        #expect(close(right.distance, (4 + 0.16 as Float).squareRoot(), 1e-4))
    }

    @Test func planesFromACloudAreMovedIntoTheWorld() throws {
        // The floor as a camera 1.5 m above it and looking down sees it (camera frame).
        let pose = try #require(PinholeCamera.pose(eye: SIMD3(0, 1.5, 0), target: SIMD3(0, 0, 0.001), up: SIMD3(0, 1, 0)))
        var inCamera = Fixtures.floor
        let cameraFromWorld = pose.inverse
        inCamera.plane = Fixtures.floor.plane.transformed(by: cameraFromWorld)
        inCamera.transform = cameraFromWorld * Fixtures.floor.transform
        let world = HitTester(planes: HitTestPlane.from([inCamera], worldFromCloud: pose))
        let hit = try #require(world.hitTest(Fixtures.ray(SIMD3(0.5, 3, 0.5), SIMD3(0, -1, 0)), targets: .existingPlaneGeometry).first)
        #expect(close(hit.distance, 3, 1e-5) && close(hit.position, SIMD3(0.5, 0, 0.5), 1e-5))
    }
}
