import Foundation
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitSynthesis
import PlaneKitAnchors
import Testing
import PlaneKitEvaluation
import PlaneKitSyntheticWalks

@Suite("Session")
struct SessionTests {
    let floor = Fixtures.rectangle(center: .zero, width: 4, length: 4)
    let centre = SIMD2<Float>(319.5, 239.5)

    @Test func eachTrueSurfaceKeepsOneIdentifierOverAGeneratedSequence() throws {
        let sequence = SyntheticSequence(seed: 7, frameCount: 60)
        var session = Session()
        var identifiers: [UInt16: Set<PlaneIdentifier>] = [:]
        var statuses: [MappingStatus] = [session.mappingStatus]
        var planeEvents = 0
        for frame in sequence {
            let events = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose,
                                            timestamp: frame.timestamp)
            planeEvents += events.filter { $0.plane != nil }.count
            for case .mapping(_, let to) in events.map(\.kind) { statuses.append(to) }
            let detection = try #require(session.latestDetection)
            let score = try SegmentationScore(detected: detection.labels, truth: frame.labels, width: frame.width,
                                              height: frame.height, minimumTruePixels: 5000, threshold: 0.6)
            for match in score.matches {
                guard let name = session.latestAssignments[Int(match.detectedLabel) - 1] else { continue }
                identifiers[match.trueLabel, default: []].insert(name)
            }
        }
        // Several surfaces were followed, each under exactly one identifier, which still exists.
        #expect(identifiers.count >= 3)
        for (surface, names) in identifiers.sorted(by: { $0.key < $1.key }) {
            #expect(names.count == 1, "true surface \(surface) had \(names.sorted())")
            for name in names { #expect(session.plane(name) != nil, "\(name) of surface \(surface) was removed") }
        }
        #expect(planeEvents > 0)
        #expect(session.planes.count < 40)
        // notAvailable → limited → extending (60 frames are too few to call the room mapped).
        #expect(Array(statuses.prefix(3)) == [.notAvailable, .limited, .extending])
    }

    @Test func mappingStatusFollowsTheRule() throws {
        var tracker = MappingTracker()
        #expect(tracker.status == .notAvailable)
        var seen: [MappingStatus] = [], headings: [Int] = []
        // A camera turning on the spot, 2° per frame, over 5.5 m² of anchored planes.
        for frame in 0..<150 {
            let yaw = Float(frame) * 2 * .pi / 180
            let pose = Transform(rotation: Quaternion(angle: yaw, axis: SIMD3(0, 1, 0)), translation: SIMD3(0, 1.4, 0))
            tracker.update(pose: pose, area: 5.5, planeCount: 3, structuralChange: frame == 0)
            seen.append(tracker.status)
            headings.append(tracker.headingsSeen)
        }
        // Frames 0–8: limited (fewer than 10 frames). From frame 9 (turned 18°): extending, until
        // 30 stable frames have passed AND 6 of the 12 sectors (180°) have been looked at.
        let mapped = try #require(seen.firstIndex(of: .mapped))
        #expect(seen[0..<9].allSatisfy { $0 == .limited })
        #expect(seen[9..<mapped].allSatisfy { $0 == .extending })
        #expect(seen[mapped...].allSatisfy { $0 == .mapped })
        #expect(mapped >= 30 && headings[mapped] == 6 && headings[mapped - 1] == 5)
        #expect((75...90).contains(mapped))   // 150°–180° of turning cover the 6th sector
        // A new plane sends it back to extending.
        let pose = Transform(translation: SIMD3(0, 1.4, 0))
        tracker.update(pose: pose, area: 6, planeCount: 4, structuralChange: true)
        #expect(tracker.status == .extending)
        // A camera that has not moved stays limited whatever it sees.
        var still = MappingTracker()
        for _ in 0..<50 { still.update(pose: pose, area: 20, planeCount: 5, structuralChange: false) }
        #expect(still.status == .limited)
    }

    @Test func focusIndicatorStates() throws {
        var session = Session()
        #expect(session.focus.state == .initializing)
        // The floor under the centre ray: on a plane.
        var events = session.integrate([floor], camera: Fixtures.overhead, timestamp: 0)
        #expect(events.contains { if case .focus(.initializing, .onPlane) = $0.kind { true } else { false } })
        #expect(session.focus.state == .onPlane)
        #expect(session.focus.planeIdentifier == PlaneIdentifier(1))
        let position = try #require(session.focus.position)
        #expect(abs(position.y) < 1e-5 && abs(position.x) < 1e-5 && abs(position.z) < 1e-5)
        #expect(try #require(session.focus.transform).yAxis.y > 0.999)   // oriented to the floor

        // Placing an object hides it for the next frame, then it comes back.
        try session.place(name: "cube", size: SIMD3(0.1, 0.1, 0.1), atPixel: centre)
        events = session.integrate([floor], camera: Fixtures.overhead, timestamp: 1 / 30)
        #expect(session.focus.state == .hidden)
        #expect(events.contains { if case .focus(.onPlane, .hidden) = $0.kind { true } else { false } })
        _ = session.integrate([floor], camera: Fixtures.overhead, timestamp: 2 / 30)
        #expect(session.focus.state == .onPlane)

        // Looking at the sky: nothing to hit.
        let up = Fixtures.camera(eye: SIMD3(0, 2, 0), target: SIMD3(0, 5, 0.01))
        _ = session.integrate([], camera: up, timestamp: 3 / 30)
        #expect(session.focus.state == .initializing)

        // Only measured points (no plane) ahead: an estimated plane.
        var bare = Session()
        var points: [SIMD3<Float>] = []
        for i in -20...20 { for j in -20...20 { points.append(SIMD3(Float(i) * 0.01, 0, Float(j) * 0.01)) } }
        _ = bare.integrate([], camera: Fixtures.overhead, timestamp: 0, measuredPoints: MeasuredPoints(points))
        #expect(bare.focus.state == .estimated)
        #expect(abs(try #require(bare.focus.position).y) < 1e-4)
    }

    @Test func dragKeepsTheObjectOnItsPlaneAndRotationKeepsPositionAndNormal() throws {
        var session = Session()
        _ = session.integrate([floor], camera: Fixtures.overhead, timestamp: 0)
        let placed = try #require(session.place(name: "lamp", size: SIMD3(0.2, 0.4, 0.2), atPixel: centre).object)
        #expect(placed.planeIdentifier == PlaneIdentifier(1))
        #expect(abs(placed.position.y) < 1e-5)
        for (k, pixel) in [SIMD2<Float>(400, 300), SIMD2(450, 100), SIMD2(100, 420)].enumerated() {
            let moved = try #require(session.drag(object: placed.identifier, toPixel: pixel).object)
            #expect(abs(moved.position.y) < 1e-5, "drag \(k) left the floor: \(moved.position)")
            #expect(moved.planeIdentifier == PlaneIdentifier(1))
            #expect(moved.anchorNumber > placed.anchorNumber)
        }
        let before = try #require(session.object(placed.identifier))
        let turned = try #require(session.rotate(object: placed.identifier, by: 0.7).object)
        #expect(turned.position == before.position)
        #expect(turned.transform.yAxis.isApproximatelyEqual(to: before.transform.yAxis, tolerance: 1e-6))
        #expect(abs(turned.transform.xAxis.angle(to: before.transform.xAxis) - 0.7) < 1e-5)
        #expect(try session.remove(object: placed.identifier).name == "objectRemoved")
        #expect(session.objects.isEmpty)
        #expect(throws: SessionError.unknownObject(placed.identifier)) { try session.rotate(object: placed.identifier, by: 1) }
    }

    @Test func objectsSnapOntoARefinedPlaneWithEasedMotion() throws {
        var session = Session()
        _ = session.integrate([floor], camera: Fixtures.overhead, timestamp: 0)
        let placed = try #require(session.place(name: "cup", size: SIMD3(0.1, 0.1, 0.1), atPixel: centre).object)
        #expect(abs(placed.position.y) < 1e-5)
        // The floor seen 2 cm higher: the running fit moves to 2 cm × 441 / (441 + 389) = 1.06 cm
        // (the first sighting's 441 points fade to round(441 e^(−1/8)) = 389); the cup is that far off it.
        let fitted: Float = 0.02 * 441 / 830
        let events = session.integrate([Fixtures.rectangle(center: SIMD3(0, 0.02, 0), width: 4, length: 4)],
                                       camera: Fixtures.overhead, timestamp: 1)
        #expect(events.map(\.name).contains("planeUpdated"))
        let snapped = try #require(events.first { $0.name == "objectSnapped" }?.object)
        let snap = try #require(snapped.snap)
        #expect(abs(snap.target.y - fitted) < 1e-5)
        #expect(abs(snap.duration - Double(fitted) * 500) < 1e-3)   // at 2 mm/s
        // Halfway through the time, halfway up; then there.
        let half = session.integrate([], camera: Fixtures.overhead, timestamp: 1 + snap.duration / 2)
        let halfway = try #require(half.first { $0.name == "objectMoved" }?.object)
        #expect(abs(halfway.position.y - fitted / 2) < 1e-6)
        #expect(halfway.snap != nil)
        let end = session.integrate([], camera: Fixtures.overhead, timestamp: 1 + snap.duration + 0.1)
        let landed = try #require(end.first { $0.name == "objectMoved" }?.object)
        #expect(abs(landed.position.y - fitted) < 1e-5)
        #expect(landed.snap == nil && landed.planeIdentifier == PlaneIdentifier(1))
    }

    @Test func badFramesAreRejected() {
        var session = Session()
        let frame = SyntheticFrame(seed: 1)
        #expect(throws: (any Error).self) {
            try session.update(frame: frame.cloud, intrinsics: .kinect(width: 320, height: 240), pose: frame.pose, timestamp: 0)
        }
        var bad = frame.pose
        bad.translation.x = .nan
        #expect(throws: (any Error).self) {
            try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: bad, timestamp: 0)
        }
        #expect(throws: SessionError.notTracking) { try session.place(name: "x", size: SIMD3(1, 1, 1), atPixel: centre) }
    }

    /// `update` in two halves, with the pose free to change between them, as a camera tracker
    /// that levels a keyframe on its planes needs: the same events as in one call, and a
    /// detection that is not the frame's is an error, not a crash.
    @Test func updateInTwoHalves() throws {
        let sequence = SyntheticSequence(seed: 7, frameCount: 12)
        var whole = Session(), halves = Session()
        var events = 0
        for frame in sequence {
            let one = try whole.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp)
            let detection = try halves.detectPlanes(in: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose,
                                                    timestamp: frame.timestamp)
            let two = try halves.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp,
                                        detection: detection)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            #expect(try encoder.encode(one) == encoder.encode(two))
            events += one.count
        }
        #expect(events > 0)
        let frame = SyntheticFrame(seed: 1)
        var detection = try halves.detectPlanes(in: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: 1)
        #expect(detection.planes.count > 1)
        detection.planes.removeFirst()
        #expect(throws: (any Error).self) {
            try halves.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: 1, detection: detection)
        }
        let smallCamera = PinholeIntrinsics.kinect(width: 320, height: 240)
        let small = try halves.detectPlanes(in: SyntheticFrame(seed: 1, intrinsics: smallCamera).cloud, intrinsics: smallCamera,
                                            pose: frame.pose, timestamp: 1)
        #expect(throws: (any Error).self) {
            try halves.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: 1, detection: small)
        }
    }
}
