import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitTracking
import Testing

@Suite("Plane anchors across frames")
struct PlaneTrackerTests {
    let view = CameraView(camera: Fixtures.overhead)

    private func names(_ changes: [PlaneChange]) -> [String] {
        changes.map { change in
            switch change {
            case .added(let a): "added \(a.identifier)"
            case .updated(let a): "updated \(a.identifier)"
            case .removed(let a, let into): "removed \(a.identifier) into \(into.map(String.init(describing:)) ?? "nothing")"
            }
        }
    }

    @Test func overlappingSightingsGrowOneAnchor() throws {
        var tracker = PlaneTracker()
        let first = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 1)], view: view, frame: 0)
        #expect(names(first.changes) == ["added plane-1"])
        let anchor = try #require(tracker.anchors.first)
        #expect(abs(anchor.plane.extent.width - 1) < 0.051 && abs(anchor.area - 1) < 0.05)
        #expect(anchor.plane.alignment == .horizontal)

        // The same sighting again changes nothing beyond the tolerances: no event.
        let again = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 1)], view: view, frame: 1)
        #expect(again.changes.isEmpty)
        #expect(again.assignments == [PlaneIdentifier(1)])

        // Half a metre further along X, 2 cm higher, 2° tilted: the same surface, grown.
        let tilt = Quaternion(angle: 2 * .pi / 180, axis: SIMD3(0, 0, 1)).act(SIMD3(0, 1, 0))
        let shifted = Fixtures.rectangle(center: SIMD3(0.5, 0.02, 0), normal: tilt, width: 1, length: 1)
        let grown = tracker.integrate([shifted], view: view, frame: 2)
        #expect(names(grown.changes) == ["updated plane-1"])
        let refined = try #require(tracker.anchors.first)
        #expect(tracker.anchors.count == 1)
        #expect(abs(refined.plane.extent.width - 1.5) <= 0.05)
        #expect(abs(refined.plane.extent.length - 1) <= 0.05)
        #expect(abs(refined.area - 1.5) <= 0.1)
        #expect(refined.observationCount == 3)
        // The running fit lies between the sightings, and the X axis has not flipped.
        #expect(refined.center.y > 0 && refined.center.y < 0.02)
        #expect(dot(refined.plane.transform.xAxis, SIMD3(1, 0, 0)) > 0.99)
    }

    @Test func differentSurfacesGetTheirOwnAnchors() {
        var tracker = PlaneTracker()
        let floor = Fixtures.rectangle(center: .zero, width: 1, length: 1)
        let wall = Fixtures.rectangle(center: SIMD3(0, 0.5, -0.5), normal: SIMD3(0, 0, 1), width: 1, length: 1)
        let table = Fixtures.rectangle(center: SIMD3(0.2, 0.75, 0.2), width: 0.5, length: 0.5)
        let farPatch = Fixtures.rectangle(center: SIMD3(2.5, 0, 0), width: 1, length: 1)   // 1.5 m gap
        let result = tracker.integrate([floor, wall, table, farPatch], view: view, frame: 0)
        #expect(names(result.changes) == ["added plane-1", "added plane-2", "added plane-3", "added plane-4"])
        #expect(tracker.anchors.map(\.plane.alignment) == [.horizontal, .vertical, .horizontal, .horizontal])
    }

    @Test func aBridgingSightingMergesAnchorsAndTheOlderKeepsItsName() throws {
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 1)], view: view, frame: 0)
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0, 0), width: 1, length: 1)], view: view, frame: 1)
        #expect(tracker.anchors.count == 2)
        let bridge = Fixtures.rectangle(center: SIMD3(1.25, 0, 0), width: 1.6, length: 1)
        let merged = tracker.integrate([bridge], view: view, frame: 2)
        #expect(names(merged.changes) == ["removed plane-2 into plane-1", "updated plane-1"])
        #expect(merged.assignments == [PlaneIdentifier(1)])
        let anchor = try #require(tracker.anchors.first)
        #expect(tracker.anchors.count == 1)
        // −0.5 … 3.0 along X: 1 m² + 1 m² + the 1.6 m² bridge less its two 5 cm overlaps.
        #expect(abs(anchor.plane.extent.width - 3.5) <= 0.05)
        #expect(abs(anchor.area - 3.5) <= 0.15)
    }

    @Test func anchorsThatBecomeCoplanarAndAdjacentMerge() {
        var configuration = PlaneTrackingConfiguration()
        configuration.offsetTolerance = 0.01
        configuration.offsetNoiseFactor = 0
        configuration.mergeOffsetTolerance = 0.035
        var tracker = PlaneTracker(configuration: configuration)
        // Two patches edge to edge, 4 cm apart in height: too far apart to associate or merge.
        _ = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 1)], view: view, frame: 0)
        let second = tracker.integrate([Fixtures.rectangle(center: SIMD3(1, 0.04, 0), width: 1, length: 1)], view: view, frame: 1)
        #expect(names(second.changes) == ["added plane-2"])
        // The second is seen at 3.1 cm: its running fit drops to 3.55 cm, still apart; a 4.5 mm
        // move is below the 5 mm update tolerance, so nothing is reported …
        let third = tracker.integrate([Fixtures.rectangle(center: SIMD3(1, 0.031, 0), width: 1, length: 1)], view: view, frame: 2)
        #expect(third.changes.isEmpty)
        #expect(abs(tracker.anchors[1].center.y - 0.0355) < 1e-4)
        // … and once more: 3.4 cm, within the merge tolerance of the first. The older keeps its name.
        let fourth = tracker.integrate([Fixtures.rectangle(center: SIMD3(1, 0.031, 0), width: 1, length: 1)], view: view, frame: 3)
        #expect(names(fourth.changes) == ["removed plane-2 into plane-1", "updated plane-1"])
        #expect(fourth.assignments == [PlaneIdentifier(1)])
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
        #expect(abs(tracker.anchors[0].area - 2) < 0.1)
    }

    @Test func associationNeedsCoveredCellsNotTheRectangleAroundThem() {
        var tracker = PlaneTracker()
        // An L of covered ground: a 1 m × 0.3 m strip along X and one along Z, from the origin corner.
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(0.5, 0, 0.15), width: 1, length: 0.3)], view: view, frame: 0)
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(0.15, 0, 0.5), width: 0.3, length: 1)], view: view, frame: 1)
        #expect(tracker.anchors.count == 1)
        // A patch 2 cm higher in the L's empty corner: inside its rectangle, 30 cm from its cells.
        let corner = tracker.integrate([Fixtures.rectangle(center: SIMD3(0.8, 0.02, 0.8), width: 0.3, length: 0.3)], view: view, frame: 2)
        #expect(names(corner.changes) == ["added plane-2"])
        // One reaching to within 5 cm of the L's cells continues it.
        let near = tracker.integrate([Fixtures.rectangle(center: SIMD3(0.6, 0.01, 0.4), width: 0.3, length: 0.2)], view: view, frame: 3)
        #expect(near.assignments == [PlaneIdentifier(1)])
    }

    @Test func provisionalAnchorsVanishWhenUnseenInView() {
        var tracker = PlaneTracker()
        let floor = Fixtures.rectangle(center: .zero, width: 1, length: 1)
        let ghost = Fixtures.rectangle(center: SIMD3(0.3, 0.4, 0.3), width: 0.3, length: 0.3)
        _ = tracker.integrate([floor, ghost], view: view, frame: 0)
        _ = tracker.integrate([floor], view: view, frame: 1)
        _ = tracker.integrate([floor], view: view, frame: 2)
        // The floor is confirmed (3 sightings); the ghost was seen once and missed in frames 1, 2, …
        for frame in 3...9 { #expect(tracker.integrate([floor], view: view, frame: frame).changes.isEmpty) }
        #expect(tracker.anchors.count == 2)
        #expect(tracker.anchors[1].missedFrames == 9)
        // … and the 10th in-view miss removes it.
        #expect(names(tracker.integrate([floor], view: view, frame: 10).changes) == ["removed plane-2 into nothing"])
        // A confirmed anchor is never removed for being unseen.
        for frame in 12...40 { _ = tracker.integrate([], view: view, frame: frame) }
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
    }

    @Test func provisionalAnchorsOutOfViewStay() {
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(10, 0, 0), width: 0.5, length: 0.5)], view: view, frame: 0)
        for frame in 1...30 { _ = tracker.integrate([], view: view, frame: frame) }
        #expect(tracker.anchors.count == 1)
    }
}
