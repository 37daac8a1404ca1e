import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import Testing

@Suite("Anchor life cycle: confirmation, merges, recent evidence")
struct AnchorLifecycleTests {
    let view = CameraView(camera: Fixtures.overhead)
    let ceilingView = Fixtures.ceilingView

    private func names(_ changes: [PlaneChange]) -> [String] { Fixtures.names(changes) }

    /// A 30 cm square (0.09 m²): too small to be confirmed at first sight.
    private func patch(at center: SIMD3<Float>) -> PlaneObservation {
        Fixtures.rectangle(center: center, width: 0.3, length: 0.3)
    }

    @Test func aSmallSurfaceIsAnnouncedOnItsFourthSightingInSixFrames() {
        var tracker = PlaneTracker()
        for frame in 0...2 {
            let result = tracker.integrate([patch(at: .zero)], view: view, frame: frame)
            #expect(result.changes.isEmpty)
            #expect(result.assignments == [nil])
        }
        #expect(tracker.anchors.isEmpty)
        let fourth = tracker.integrate([patch(at: .zero)], view: view, frame: 3)
        #expect(names(fourth.changes) == ["added plane-1"])
        #expect(fourth.assignments == [PlaneIdentifier(1)])
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
        #expect(tracker.anchors[0].isConfirmed)
    }

    @Test func aSurfaceSeenEveryThirdFrameIsNeverAnnounced() {
        // Frames 0, 3, 6, …: never more than 2 sightings in any 6 frames.
        var tracker = PlaneTracker()
        for frame in 0...29 {
            let result = tracker.integrate(frame % 3 == 0 ? [patch(at: .zero)] : [], view: ceilingView, frame: frame)
            #expect(result.changes.isEmpty)
        }
        #expect(tracker.anchors.isEmpty)
    }

    @Test(arguments: [(Float(1), Float(0), true), (1, 0.03, false), (0.8, 0.015, true), (0.6, 0, false)])
    func aLargeCleanSurfaceIsAnnouncedAtFirstSight(side: Float, roughness: Float, atOnce: Bool) {
        // Seen from 2 m, where noise explains an RMS of 1 cm + 2 × 6.1 mm = 2.2 cm: 1 m² and
        // 0.64 m² within that are announced at once; 1 m² with 3 cm residuals, or 0.36 m², not.
        var tracker = PlaneTracker()
        let square = Fixtures.rectangle(center: .zero, width: side, length: side, roughness: roughness)
        let first = tracker.integrate([square], view: view, frame: 0)
        #expect(names(first.changes) == (atOnce ? ["added plane-1"] : []), "side \(side), roughness \(roughness)")
        #expect(tracker.anchors.count == (atOnce ? 1 : 0))
    }

    @Test func fragmentsThatMergeWithinAFewFramesNeverSurface() {
        var tracker = PlaneTracker()
        let floor = Fixtures.rectangle(center: .zero, width: 2, length: 2)
        #expect(names(tracker.integrate([floor], view: ceilingView, frame: 0).changes) == ["added plane-1"])
        // A coplanar fragment 40 cm beyond the floor's edge (no frame shows the gap), seen twice …
        let fragment = patch(at: SIMD3(1.55, 0, 0))
        for frame in 1...2 {
            let result = tracker.integrate([floor, fragment], view: ceilingView, frame: frame)
            #expect(result.changes.isEmpty)
            #expect(result.assignments == [PlaneIdentifier(1), nil])
        }
        // … and a passing glimpse elsewhere, seen once.
        _ = tracker.integrate([floor, patch(at: SIMD3(0, 0.5, 0))], view: ceilingView, frame: 3)
        // Then the floor is seen reaching it: the fragment joins the floor, and no event ever names it.
        let wider = Fixtures.rectangle(center: SIMD3(0.4, 0, 0), width: 2.8, length: 2)
        let joined = tracker.integrate([wider, fragment], view: ceilingView, frame: 4)
        #expect(names(joined.changes) == ["updated plane-1"])
        #expect(joined.assignments == [PlaneIdentifier(1), PlaneIdentifier(1)])
        var later: [String] = []
        for frame in 5...40 { later += names(tracker.integrate([floor], view: ceilingView, frame: frame).changes) }
        #expect(later.isEmpty)
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
        // The glimpse was dropped after 30 frames without a sighting, silently.
        #expect(tracker.candidateCount == 0)
    }

    /// A 20 cm patch 15 cm beyond a floor's edge (no frame shows the gap), its fit tilted 10° as
    /// a small patch of a real sensor's surface can be: too far for association and merging, too
    /// tilted for the angle tolerance, but its points lie within 1 cm RMS of the floor's plane,
    /// within what the noise explains 2.3 m from the camera (2.6 cm). It joins the floor when it
    /// would be confirmed, and no event names it. The same patch lying flat 4 cm above the floor
    /// is another surface (4 cm RMS from the floor's plane) and is announced.
    @Test(arguments: [(SIMD3<Float>(0.17365, 0.98481, 0), Float(0), true), (SIMD3(0, 1, 0), 0.04, false)])   // 10° tilt, flat
    func aTiltedFragmentBesideAnAnchorJoinsIt(normal: SIMD3<Float>, height: Float, joins: Bool) {
        var tracker = PlaneTracker()
        let floor = Fixtures.rectangle(center: .zero, width: 2, length: 2)
        #expect(names(tracker.integrate([floor], view: view, frame: 0).changes) == ["added plane-1"])
        let fragment = Fixtures.rectangle(center: SIMD3(1.25, height, 0), normal: normal,
                                          width: 0.2, length: 0.2)
        for frame in 1...3 {
            #expect(tracker.integrate([floor, fragment], view: view, frame: frame).assignments == [PlaneIdentifier(1), nil])
        }
        let fourth = tracker.integrate([floor, fragment], view: view, frame: 4)
        #expect(names(fourth.changes).contains("added plane-2") == !joins)
        #expect(fourth.assignments == [PlaneIdentifier(1), PlaneIdentifier(joins ? 1 : 2)])
        #expect(tracker.anchors.count == (joins ? 1 : 2))
        #expect(tracker.candidateCount == 0)
    }

    @Test func aConfirmedAnchorKeepsItsIdentifierOverAnOlderCandidate() {
        var tracker = PlaneTracker()
        // A small patch first seen in frame 0 (a candidate), then a clean 1 m² floor beside it
        // (confirmed at once as plane-1), 25 cm apart.
        _ = tracker.integrate([patch(at: SIMD3(-0.9, 0, 0))], view: ceilingView, frame: 0)
        let floor = Fixtures.rectangle(center: SIMD3(0.25, 0, 0), width: 1, length: 1)
        #expect(names(tracker.integrate([floor], view: ceilingView, frame: 1).changes) == ["added plane-1"])
        // A sighting covering both: the candidate, though seen first, merges into plane-1 unseen.
        let both = Fixtures.rectangle(center: SIMD3(-0.2, 0, 0), width: 1.8, length: 1)
        let merged = tracker.integrate([both], view: ceilingView, frame: 2)
        #expect(names(merged.changes) == ["updated plane-1"])
        #expect(merged.assignments == [PlaneIdentifier(1)])
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
        #expect(tracker.candidateCount == 0)
    }

    @Test func whenTwoAnchorsMergeTheOneAnnouncedFirstKeepsItsIdentifier() {
        var tracker = PlaneTracker()
        // X is first seen in frame 0 but confirmed only in frame 4 (plane-2); Y, 1 m², is
        // confirmed at its first sight in frame 1 (plane-1).
        let x = patch(at: SIMD3(-1, 0, 0))
        let y = Fixtures.rectangle(center: SIMD3(1, 0, 0), width: 1, length: 1)
        _ = tracker.integrate([x], view: ceilingView, frame: 0)
        #expect(names(tracker.integrate([y], view: ceilingView, frame: 1).changes) == ["added plane-1"])
        _ = tracker.integrate([x], view: ceilingView, frame: 2)
        _ = tracker.integrate([x], view: ceilingView, frame: 3)
        #expect(names(tracker.integrate([x], view: ceilingView, frame: 4).changes) == ["added plane-2"])
        // A sighting spanning both: plane-1, announced first, keeps its identifier.
        let bridge = Fixtures.rectangle(center: SIMD3(0, 0, 0), width: 2.3, length: 0.3)
        let merged = tracker.integrate([bridge], view: ceilingView, frame: 5)
        #expect(names(merged.changes) == ["removed plane-2 into plane-1", "updated plane-1"])
        #expect(tracker.anchors.map(\.identifier) == [PlaneIdentifier(1)])
    }

    @Test func hitTestsAndTheFocusSeeOnlyConfirmedAnchors() {
        var session = Session()
        let centre = SIMD2<Float>(319.5, 239.5)
        let table = Fixtures.rectangle(center: SIMD3(0, 0.75, 0), width: 0.4, length: 0.4)
        for frame in 0...2 {
            let events = session.integrate([table], camera: Fixtures.overhead, timestamp: Double(frame) / 30)
            #expect(events.allSatisfy { $0.plane == nil })
            #expect(session.planes.isEmpty)
            #expect(session.raycast(pixel: centre, targets: .existingPlaneGeometry).isEmpty)
            #expect(session.focus.state != .onPlane)
            #expect(session.latestAssignments == [nil])
        }
        let events = session.integrate([table], camera: Fixtures.overhead, timestamp: 3 / 30)
        #expect(events.compactMap { $0.plane == nil ? nil : $0.name } == ["planeAdded"])
        let hits = session.raycast(pixel: centre, targets: .existingPlaneGeometry)
        #expect(hits.map(\.planeIdentifier) == [PlaneIdentifier(1)])
        #expect(session.focus.state == .onPlane)
    }

    @Test func aSurfaceRemeasured3cmAwayIsFollowedWithin2mmIn30Frames() throws {
        // A 4 × 4 m floor seen from 2 m up for 60 frames, with an object placed on it; then the
        // same floor measured 3 cm lower. Frames are 1 s apart so the object's snaps
        // (distance × 500 s) can finish.
        var session = Session()
        let floor = Fixtures.rectangle(center: .zero, width: 4, length: 4)
        var updates = 0
        for frame in 0..<60 {
            let events = session.integrate([floor], camera: Fixtures.overhead, timestamp: Double(frame))
            updates += events.filter { $0.name == "planeUpdated" }.count
            if frame == 0 { try session.place(name: "cube", size: SIMD3(0.1, 0.1, 0.1), atPixel: SIMD2(400, 300)) }
        }
        #expect(updates == 0)   // an unchanging surface is never re-reported
        let object = try #require(session.objects.first)
        #expect(abs(object.position.y) < 1e-4)

        let lower = Fixtures.rectangle(center: SIMD3(0, -0.03, 0), width: 4, length: 4)
        var reported: Float = 0
        var offsets: [Float] = []
        for frame in 60..<90 {
            let events = session.integrate([lower], camera: Fixtures.overhead, timestamp: Double(frame))
            for event in events where event.name == "planeUpdated" { reported = try #require(event.plane).center.y }
            offsets.append(try #require(session.planes.first).center.y)
        }
        print("re-measured 3 cm lower: anchor height after 1, 10, 20, 30 frames \(offsets[0]), \(offsets[9]), \(offsets[19]), \(offsets[29]); last reported \(reported)")
        // One sighting does not move the anchor much; 30 bring it (and what was last reported)
        // within 2 mm of the new measurement.
        #expect(offsets[0] > -0.01)
        #expect(abs(offsets[29] + 0.03) < 0.002)
        #expect(abs(reported + 0.03) < 0.002)
        #expect(session.planes.map(\.identifier) == [PlaneIdentifier(1)])
        // The object follows by the snap rule (a snap started in the last frame moves from the
        // next): a few frames on it stands on the anchor's new estimate.
        for frame in 90..<95 { _ = session.integrate([lower], camera: Fixtures.overhead, timestamp: Double(frame)) }
        let moved = try #require(session.objects.first)
        #expect(abs(moved.position.y + 0.03) < 0.002)
    }
}
