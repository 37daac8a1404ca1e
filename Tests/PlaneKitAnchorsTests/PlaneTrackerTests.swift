import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitAnchors
import Testing

@Suite("Plane anchors across frames")
struct PlaneTrackerTests {
    let view = CameraView(camera: Fixtures.overhead)
    /// See ``Fixtures/ceilingView`` (``floorPiecesMergeUnderACarriedCamera()``).
    let ceilingView = Fixtures.ceilingView

    private func names(_ changes: [PlaneChange]) -> [String] { Fixtures.names(changes) }

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
        let result = tracker.integrate([floor, wall, table, farPatch], view: ceilingView, frame: 0)
        // The 1 m² surfaces are announced at once, the 0.25 m² table top at its fourth sighting.
        #expect(names(result.changes) == ["added plane-1", "added plane-2", "added plane-3"])
        #expect(result.assignments == [PlaneIdentifier(1), PlaneIdentifier(2), nil, PlaneIdentifier(3)])
        for frame in 1...2 {
            let earlier = tracker.integrate([floor, wall, table, farPatch], view: ceilingView, frame: frame)
            #expect(earlier.assignments[2] == nil, "frame \(frame)")
        }
        let fourth = tracker.integrate([floor, wall, table, farPatch], view: ceilingView, frame: 3)
        #expect(names(fourth.changes) == ["added plane-4"])
        #expect(tracker.anchors.map(\.plane.alignment) == [.horizontal, .vertical, .horizontal, .horizontal])
        #expect(abs(tracker.anchors[3].center.y - 0.75) < 1e-4)   // plane-4 is the table top
    }

    @Test func aBridgingSightingMergesAnchorsAndTheOlderKeepsItsName() throws {
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 1)], view: ceilingView, frame: 0)
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0, 0), width: 1, length: 1)], view: ceilingView, frame: 1)
        #expect(tracker.anchors.count == 2)
        let bridge = Fixtures.rectangle(center: SIMD3(1.25, 0, 0), width: 1.6, length: 1)
        let merged = tracker.integrate([bridge], view: ceilingView, frame: 2)
        #expect(names(merged.changes) == ["removed plane-2 into plane-1", "updated plane-1"])
        #expect(merged.assignments == [PlaneIdentifier(1)])
        let anchor = try #require(tracker.anchors.first)
        #expect(tracker.anchors.count == 1)
        // −0.5 … 3.0 along X: 1 m² + 1 m² + the 1.6 m² bridge less its two 5 cm overlaps.
        #expect(abs(anchor.plane.extent.width - 3.5) <= 0.05)
        #expect(abs(anchor.area - 3.5) <= 0.15)
    }

    /// A camera carried 1.4 m above the floor, looking ahead along −Z from `x`.
    private func carried(atX x: Float, height: Float = 1.4) -> CameraView {
        CameraView(camera: Fixtures.camera(eye: SIMD3(x, height, 1), target: SIMD3(x, 0, -2)))
    }

    @Test func floorPiecesMergeUnderACarriedCamera() throws {
        // Two floor pieces (0.6 m² each: 1.2 m² together, the classifier's floor area) with a
        // 1.5 m gap that no frame shows.
        let left = Fixtures.rectangle(center: .zero, width: 1, length: 0.6)
        let right = Fixtures.rectangle(center: SIMD3(2.5, 0.004, 0), width: 1, length: 0.6)
        var tracker = PlaneTracker()
        _ = tracker.integrate([left], view: carried(atX: 0), frame: 0)
        let second = tracker.integrate([right], view: carried(atX: 2.5), frame: 1)
        // The new piece joins the older anchor in the frame it appears, so it is never reported.
        #expect(names(second.changes) == ["updated plane-1"])
        #expect(second.assignments == [PlaneIdentifier(1)])
        let floor = try #require(tracker.anchors.first)
        #expect(tracker.anchors.count == 1)
        #expect(abs(floor.plane.extent.width - 3.5) <= 0.05)
        #expect(abs(floor.area - 1.2) <= 0.1)
    }

    @Test(arguments: [Float(0.7), 2.3])
    func floorPiecesStayApartUnderACameraNotCarriedOnThem(height: Float) {
        // Below 0.8 m or above 2.2 m nobody standing on this floor is carrying the camera.
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 0.6)], view: carried(atX: 0, height: height), frame: 0)
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0, 0), width: 1, length: 0.6)],
                              view: carried(atX: 2.5, height: height), frame: 1)
        #expect(tracker.anchors.count == 2)
    }

    @Test func tableTopsOfOneHeightAboveAFloorStayApart() {
        // Two 0.6 m² tops 0.75 m up, the camera 1.15 m above them; the 1.5 m² floor below makes
        // them tables, not floor.
        var tracker = PlaneTracker()
        let floor = Fixtures.rectangle(center: SIMD3(1.25, 0, 1), width: 3, length: 0.5)
        _ = tracker.integrate([floor, Fixtures.rectangle(center: SIMD3(0, 0.75, 0), width: 1, length: 0.6)],
                              view: carried(atX: 0, height: 1.9), frame: 0)
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0.75, 0), width: 1, length: 0.6)],
                              view: carried(atX: 2.5, height: 1.9), frame: 1)
        #expect(tracker.anchors.count == 3)
        // Without the floor, the same two tops would be taken for pieces of it.
        var bare = PlaneTracker()
        _ = bare.integrate([Fixtures.rectangle(center: SIMD3(0, 0.75, 0), width: 1, length: 0.6)], view: carried(atX: 0, height: 1.9), frame: 0)
        _ = bare.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0.75, 0), width: 1, length: 0.6)],
                           view: carried(atX: 2.5, height: 1.9), frame: 1)
        #expect(bare.anchors.count == 1)
    }

    @Test func floorPiecesStayApartWhenTheFrameSeesThroughTheGap() throws {
        // The camera looks down at the gap between two floor pieces and measures the storey
        // below (a stairwell): every pixel reads a point on y = −3.
        let camera = Fixtures.camera(eye: SIMD3(1.25, 1.4, 0.5), target: SIMD3(1.25, 0, 0))
        let intrinsics = camera.intrinsics
        var points = ContiguousArray<SIMD3<Float>>()
        points.reserveCapacity(intrinsics.width * intrinsics.height)
        for v in 0..<intrinsics.height {
            for u in 0..<intrinsics.width {
                let d = SIMD3((Float(u) - intrinsics.cx) / intrinsics.fx, (Float(v) - intrinsics.cy) / intrinsics.fy, 1)
                let world = camera.pose.apply(toDirection: d)
                // Depth along the camera's +Z where the ray meets y = −3.
                let t = world.y < 0 ? (-3 - camera.pose.translation.y) / world.y : .nan
                points.append(t * d)
            }
        }
        let frame = try PointCloud(width: intrinsics.width, height: intrinsics.height, points: points, intrinsics: intrinsics,
                                   sensorPose: camera.pose)
        let seeing = CameraView(camera: camera, frame: frame)
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 0.6)], view: seeing, frame: 0)
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0, 0), width: 1, length: 0.6)], view: seeing, frame: 1)
        #expect(tracker.anchors.count == 2)
        // The same pieces with the gap out of view merge.
        var blind = PlaneTracker()
        _ = blind.integrate([Fixtures.rectangle(center: .zero, width: 1, length: 0.6)], view: carried(atX: 0), frame: 0)
        _ = blind.integrate([Fixtures.rectangle(center: SIMD3(2.5, 0, 0), width: 1, length: 0.6)], view: carried(atX: 2.5), frame: 1)
        #expect(blind.anchors.count == 1)
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
        // The second is seen at 3.1 cm: its running fit (the first sighting's 441 points faded
        // to 389) drops to (4 × 389 + 3.1 × 441) / 830 = 3.52 cm, still apart; a 4.8 mm move is
        // below the 5 mm update tolerance, so nothing is reported …
        let third = tracker.integrate([Fixtures.rectangle(center: SIMD3(1, 0.031, 0), width: 1, length: 1)], view: view, frame: 2)
        #expect(third.changes.isEmpty)
        #expect(abs(tracker.anchors[1].center.y - 0.03522) < 1e-5)
        // … and once more: 3.36 cm, within the merge tolerance of the first. The older keeps its name.
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
        // A patch 2 cm higher in the L's empty corner: inside its rectangle, 30 cm from its cells —
        // another surface (a candidate, announced only if seen again).
        let corner = tracker.integrate([Fixtures.rectangle(center: SIMD3(0.8, 0.02, 0.8), width: 0.3, length: 0.3)], view: view, frame: 2)
        #expect(corner.changes.isEmpty && corner.assignments == [nil])
        #expect(tracker.candidateCount == 1)
        // One reaching to within 5 cm of the L's cells continues it.
        let near = tracker.integrate([Fixtures.rectangle(center: SIMD3(0.6, 0.01, 0.4), width: 0.3, length: 0.2)], view: view, frame: 3)
        #expect(near.assignments == [PlaneIdentifier(1)])
    }

    @Test func aStripTooThinToCoverACellCentreIsFoundAgain() {
        // A table top first seen edge-on: 3 cm deep, between the 5 cm cells' centres at ±2.5 cm.
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(0, 0.75, 0), width: 1, length: 0.03)], view: view, frame: 0)
        // The next sighting, deeper, continues it rather than starting another candidate …
        let next = tracker.integrate([Fixtures.rectangle(center: SIMD3(0, 0.75, 0.1), width: 1, length: 0.3)], view: view, frame: 1)
        #expect(next.assignments == [nil])
        #expect(tracker.candidateCount == 1 && tracker.anchors.isEmpty)
        // … so the fourth confirms it.
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(0, 0.75, 0.1), width: 1, length: 0.3)], view: view, frame: 2)
        let fourth = tracker.integrate([Fixtures.rectangle(center: SIMD3(0, 0.75, 0.1), width: 1, length: 0.3)], view: view, frame: 3)
        #expect(fourth.assignments == [PlaneIdentifier(1)])
        #expect(tracker.anchors.count == 1 && tracker.candidateCount == 0)
    }

    @Test func candidatesVanishSilentlyWhenUnseenInView() {
        var tracker = PlaneTracker()
        let floor = Fixtures.rectangle(center: .zero, width: 1, length: 1)
        let ghost = Fixtures.rectangle(center: SIMD3(0.3, 0.4, 0.3), width: 0.3, length: 0.3)
        #expect(names(tracker.integrate([floor, ghost], view: view, frame: 0).changes) == ["added plane-1"])
        // The ghost, seen once, is a candidate; it is missed in frames 1, 2, … while in view …
        for frame in 1...9 { #expect(tracker.integrate([floor], view: view, frame: frame).changes.isEmpty) }
        #expect(tracker.candidateCount == 1)
        // … and the 10th in-view miss drops it, with no event (it was never announced).
        #expect(tracker.integrate([floor], view: view, frame: 10).changes.isEmpty)
        #expect(tracker.candidateCount == 0)
        // A confirmed anchor is never removed for being unseen.
        for frame in 12...40 { _ = tracker.integrate([], view: view, frame: frame) }
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
    }

    @Test func candidatesOutOfViewAreDroppedAfter30Frames() {
        var tracker = PlaneTracker()
        _ = tracker.integrate([Fixtures.rectangle(center: SIMD3(10, 0, 0), width: 0.5, length: 0.5)], view: view, frame: 0)
        for frame in 1...29 { #expect(tracker.integrate([], view: view, frame: frame).changes.isEmpty) }
        #expect(tracker.candidateCount == 1)
        #expect(tracker.integrate([], view: view, frame: 30).changes.isEmpty)
        #expect(tracker.candidateCount == 0 && tracker.anchors.isEmpty)
    }
}
