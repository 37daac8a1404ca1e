import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import Testing

@Suite("Placement rules (§3)")
struct PlacementRuleTests {
    /// A horizontal 2 m × 2 m plane at y = 0 centred on the origin.
    let floor = Fixtures.rectangle(center: .zero, width: 2, length: 2).plane
    let rule = SnapRule()
    let id = PlaneIdentifier(1)

    @Test func distanceSmootherKeepsTheTenMostRecentSamples() {
        var smoother = DistanceSmoother()
        #expect(smoother.mean == nil)
        for d in 1...10 { smoother.add(Float(d)) }
        #expect(smoother.samples == (1...10).map(Float.init))
        #expect(smoother.mean == 5.5)
        smoother.add(21)   // the 11th drops the 1st: 2…10 and 21
        #expect(smoother.samples.count == 10)
        #expect(smoother.samples.first == 2)
        #expect(smoother.mean == 7.5)
        smoother.add(.nan)
        #expect(smoother.mean == 7.5)
    }

    @Test func smoothedPositionIsAlongTheHitDirectionAtTheMeanDistance() {
        var smoother = DistanceSmoother()
        let camera = SIMD3<Float>(0, 1, 0)
        let first = smoother.smoothedPosition(camera: camera, hit: SIMD3(0, 1, -2))
        #expect(first == SIMD3(0, 1, -2))   // one sample: the hit itself
        let second = smoother.smoothedPosition(camera: camera, hit: SIMD3(3, 1, 0))   // distance 3, mean 2.5
        #expect(abs(second.x - 2.5) < 1e-6 && abs(second.y - 1) < 1e-6 && abs(second.z) < 1e-6)
    }

    @Test(arguments: [(Float(0.0009), false), (0.0011, true), (0.049, true), (0.051, false)])
    func snapDistanceBoundaries(height: Float, snaps: Bool) throws {
        let snap = rule.snap(position: SIMD3(0.3, height, -0.2), alignment: .any, onto: floor, identifier: id, at: 1)
        #expect((snap != nil) == snaps)
        if let snap {
            #expect(abs(snap.target.y) < 1e-6 && snap.target.x == 0.3 && snap.target.z == -0.2)
            #expect(abs(snap.duration - Double(height) * 500) < 1e-5)   // 2 mm per second
            #expect(snap.startTime == 1)
        }
    }

    @Test(arguments: [(Float(1.19), true), (1.21, false), (-1.19, true), (-1.21, false)])
    func snapExtentEnlargedByTenPercent(x: Float, snaps: Bool) {
        // 2 m wide: enlarged by 10% of 2 m on each side, the border is at ±1.2 m.
        let alongX = rule.snap(position: SIMD3(x, 0.02, 0), alignment: .any, onto: floor, identifier: id, at: 0)
        let alongZ = rule.snap(position: SIMD3(0, 0.02, x), alignment: .any, onto: floor, identifier: id, at: 0)
        #expect((alongX != nil) == snaps)
        #expect((alongZ != nil) == snaps)
    }

    @Test func snapRespectsAlignment() {
        let p = SIMD3<Float>(0, 0.02, 0)
        #expect(rule.snap(position: p, alignment: .horizontal, onto: floor, identifier: id, at: 0) != nil)
        #expect(rule.snap(position: p, alignment: .any, onto: floor, identifier: id, at: 0) != nil)
        #expect(rule.snap(position: p, alignment: .vertical, onto: floor, identifier: id, at: 0) == nil)
    }

    @Test func easedSnapIsHalfwayAtHalfTime() throws {
        let snap = try #require(rule.snap(position: SIMD3(0.5, 0.02, 0.5), alignment: .any, onto: floor, identifier: id, at: 3))
        #expect(abs(snap.duration - 10) < 1e-5)   // 2 cm at 2 mm/s
        #expect(snap.position(at: 3) == SIMD3(0.5, 0.02, 0.5))
        let half = snap.position(at: 3 + snap.duration / 2)
        #expect(abs(half.y - 0.01) < 1e-7)
        // Smoothstep: a quarter of the time covers 15.625% of the way, three quarters 84.375%.
        #expect(abs(snap.position(at: 3 + snap.duration / 4).y - 0.02 * (1 - 0.15625)) < 1e-7)
        #expect(abs(snap.position(at: 3 + 3 * snap.duration / 4).y - 0.02 * (1 - 0.84375)) < 1e-7)
        #expect(snap.position(at: 3 + snap.duration) == snap.target)
        #expect(snap.position(at: 100) == snap.target)
        #expect(snap.isFinished(at: 13.0001) && !snap.isFinished(at: 12.9))
    }
}
