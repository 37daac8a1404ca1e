#if canImport(Glibc)
import Glibc
#endif
import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import Testing

@Suite("Objects and tracked ray casts")
struct ObjectAndTrackingTests {
    /// A camera at the origin looking along world +Z (+X right, +Y down: the camera frame).
    let camera = PinholeCamera(intrinsics: .kinect())
    /// A 20 cm cube 2 m ahead, and a 40 cm cube 3 m ahead and 0.5 m right.
    let objects = [
        PlacedObject(identifier: PlacedObjectIdentifier(1), bounds: OrientedBox(transform: Transform(rotation: Matrix3.identity, translation: SIMD3(0, 0, 2)), size: SIMD3(repeating: 0.2))),
        PlacedObject(identifier: PlacedObjectIdentifier(2), bounds: OrientedBox(transform: Transform(rotation: Quaternion(angle: .pi / 4, axis: SIMD3(0, 1, 0)), translation: SIMD3(0.5, 0, 3)), size: SIMD3(repeating: 0.4))),
    ]

    @Test func nearestBoxAlongTheRay() throws {
        let hit = try #require(ObjectHitTester.hit(Fixtures.ray(.zero, SIMD3(0, 0, 1)), objects: objects))
        #expect(hit.identifier == PlacedObjectIdentifier(1) && close(hit.distance, 1.9) && close(hit.position, SIMD3(0, 0, 1.9)))
        // The rotated cube: the entry distance agrees with a march along the ray in 0.1 mm steps.
        let toSecond = Fixtures.ray(.zero, SIMD3(0.5, 0, 3))
        let second = try #require(ObjectHitTester.hit(toSecond, objects: objects))
        #expect(second.identifier == PlacedObjectIdentifier(2))
        let marched = try #require((0..<30_000).lazy.map { Float($0) * 1e-4 }.first { objects[1].bounds.contains(toSecond.point(at: $0)) })
        #expect(close(second.distance, marched, 2e-4))
        #expect(second.distance > 2.7 && second.distance < 2.85)
        #expect(ObjectHitTester.hit(Fixtures.ray(.zero, SIMD3(0, 0, -1)), objects: objects) == nil)
        #expect(ObjectHitTester.hit(Ray(origin: SIMD3(.nan, 0, 0), unitDirection: SIMD3(0, 0, 1)), objects: objects) == nil)
    }

    @Test func touchesAreTriedInTurnThenTheirCentre() throws {
        // Pixel of the first cube's centre: (319.5, 239.5). 0.1 m at 2 m is 26.25 px.
        let centre = SIMD2<Float>(319.5, 239.5)
        let miss1 = centre + SIMD2(0, -60), miss2 = centre + SIMD2(0, 60)
        // Neither touch alone hits; their centre does.
        let viaCentre = try #require(ObjectHitTester.hit(touches: [miss1, miss2], camera: camera, objects: objects))
        #expect(viaCentre.identifier == PlacedObjectIdentifier(1) && close(viaCentre.ray.direction, SIMD3(0, 0, 1)))
        // A touch that hits is taken before the centre: the second touch here.
        let near = centre + SIMD2(0, 20)
        let second = try #require(ObjectHitTester.hit(touches: [miss1, near], camera: camera, objects: objects))
        #expect(second.identifier == PlacedObjectIdentifier(1) && close(second.ray.direction, camera.ray(throughPixel: near).direction))
        // A single touch that misses has no centre to fall back to.
        #expect(ObjectHitTester.hit(touches: [miss1], camera: camera, objects: objects) == nil)
        #expect(ObjectHitTester.hit(touches: [], camera: camera, objects: objects) == nil)
        #expect(ObjectHitTester.hit(touches: [SIMD2(.nan, 1), near], camera: camera, objects: objects)?.identifier == PlacedObjectIdentifier(1))
    }

    @Test func trackedRaycastReportsOnlyChanges() throws {
        var tracked = TrackedRaycast(ray: Fixtures.ray(SIMD3(0.8, 2, -0.2), SIMD3(0, -1, 0)), targets: .existingPlaneGeometry)
        let room = HitTester(planes: Fixtures.room)
        let firstUpdate = tracked.update(with: room)
        let first = try #require(firstUpdate)
        #expect(first.map(\.planeIdentifier) == [PlaneIdentifier(2), PlaneIdentifier(1)])
        #expect(tracked.update(with: room) == nil)
        // The table top refined 0.5 mm higher: below the 1 mm tolerance.
        func table(height: Float, tilt: Float = 0) -> HitTester {
            var t = Fixtures.plane(label: 2, center: SIMD3(1, height, 0), normal: SIMD3(sinf(tilt), cosf(tilt), 0), xAxis: SIMD3(1, 0, 0),
                                   polygon: Fixtures.table.boundary.vertices, alignment: .horizontal)
            t.label = 2
            return HitTester(planes: HitTestPlane.from([Fixtures.floor, t, Fixtures.wall]))
        }
        #expect(tracked.update(with: table(height: 0.7505)) == nil)
        // 2 mm higher: reported.
        let movedUpdate = tracked.update(with: table(height: 0.752))
        let moved = try #require(movedUpdate)
        #expect(close(moved[0].position.y, 0.752) && close(moved[0].distance, 1.248))
        // Tilted by 1° about the hit: the position barely moves but the orientation does.
        let tiltedUpdate = tracked.update(with: table(height: 0.752, tilt: .pi / 180))
        let tilted = try #require(tiltedUpdate)
        #expect(tilted[0].normal.angle(to: SIMD3(0, 1, 0)) > 0.9 * .pi / 180)
        // The table gone: reported as a change to the floor alone, then quiet.
        let goneUpdate = tracked.update(with: HitTester(planes: HitTestPlane.from([Fixtures.floor])))
        let gone = try #require(goneUpdate)
        #expect(gone.map(\.planeIdentifier) == [PlaneIdentifier(1)])
        #expect(tracked.update(with: HitTester(planes: HitTestPlane.from([Fixtures.floor]))) == nil)
        #expect(tracked.update(with: HitTester(planes: []))?.isEmpty == true)
    }
}
