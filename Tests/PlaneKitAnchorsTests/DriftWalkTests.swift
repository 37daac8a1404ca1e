import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitSynthesis
import PlaneKitAnchors
import Testing
import PlaneKitSeededRandom
import PlaneKitSyntheticWalks

/// A slowly growing camera-pose error, like a tracker's drift: a random walk (fixed seed) of the
/// camera's position error and of its orientation error (a rotation vector), each scaled so that
/// its largest value over the walk is exactly `shift` metres and `angle` radians.
struct PoseDrift: Sendable {
    /// Per frame, the position error (m).
    let offsets: [SIMD3<Float>]
    /// Per frame, the orientation error as a rotation vector (axis × angle, rad).
    let turns: [SIMD3<Float>]

    init(frames: Int, seed: UInt64, shift: Float, angle: Float) {
        var random = SeededRandom(seed: seed)
        func step() -> SIMD3<Float> { SIMD3(Float(random.gaussian()), Float(random.gaussian()), Float(random.gaussian())) }
        var p = SIMD3<Float>.zero, r = SIMD3<Float>.zero
        var positions: [SIMD3<Float>] = [], rotations: [SIMD3<Float>] = []
        for _ in 0..<frames {
            p += step()
            r += step()
            positions.append(p)
            rotations.append(r)
        }
        let largestShift = positions.map(\.length).max() ?? 1, largestTurn = rotations.map(\.length).max() ?? 1
        offsets = positions.map { $0 * (shift / max(largestShift, 1e-9)) }
        turns = rotations.map { $0 * (angle / max(largestTurn, 1e-9)) }
    }

    /// `pose` (world-from-camera) as a drifting tracker reports it in `frame`: the camera
    /// turned about its own centre by the frame's orientation error and moved by its position error.
    func apply(to pose: Transform, frame: Int) -> Transform {
        let turn = turns[frame], a = turn.length
        let rotation = a > 0 ? Quaternion(angle: a, axis: turn / a).matrix * pose.rotation : pose.rotation
        return Transform(rotation: rotation, translation: pose.translation + offsets[frame])
    }
}

@Suite("Tracking through pose drift")
struct DriftWalkTests {
    /// What an app drawing the anchors saw over a walk.
    struct Tally: Sendable, CustomStringConvertible {
        var added = 0, updated = 0, removed = 0
        var alive = 0
        /// Up-facing horizontal anchors with their centre within 10 cm of the true floor (y = 0).
        var floorAnchors = 0
        /// Anchors classified as floor.
        var classifiedFloor = 0
        var description: String {
            "planeAdded \(added), planeUpdated \(updated), planeRemoved \(removed), alive \(alive), anchors at floor level \(floorAnchors), classified floor \(classifiedFloor)"
        }
    }

    /// Runs a session over `frames` frames of room `seed` with the poses drifting by up to
    /// `shift` and `angle` (drift seed `seed + 100`).
    static func walk(seed: UInt64, frames: Int, shift: Float, angle: Float) throws -> Tally {
        let sequence = SyntheticSequence(seed: seed, frameCount: frames)
        let drift = PoseDrift(frames: frames, seed: seed + 100, shift: shift, angle: angle)
        var session = Session()
        var tally = Tally()
        for (index, frame) in sequence.enumerated() {
            let events = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics,
                                            pose: drift.apply(to: frame.pose, frame: index), timestamp: frame.timestamp)
            for event in events {
                switch event.kind {
                case .planeAdded: tally.added += 1
                case .planeUpdated: tally.updated += 1
                case .planeRemoved: tally.removed += 1
                default: break
                }
            }
        }
        tally.alive = session.planes.count
        tally.floorAnchors = session.planes.filter {
            $0.plane.alignment == .horizontal && $0.normal.y > 0 && abs($0.center.y) < 0.1
        }.count
        tally.classifiedFloor = session.planes.filter { $0.plane.classification == .floor }.count
        return tally
    }

    /// A 30 s walk (900 frames) whose poses drift by up to 4 cm and 1°: the floor stays one
    /// anchor, and the anchors announced are at most three times those alive at the end.
    @Test(arguments: [UInt64(3), 5])
    func oneFloorThroughADriftingWalk(seed: UInt64) throws {
        let tally = try Self.walk(seed: seed, frames: 900, shift: 0.04, angle: 1 * .pi / 180)
        print("drift walk, room \(seed), 900 frames, drift up to 4 cm and 1°: \(tally)")
        #expect(tally.floorAnchors == 1)
        #expect(tally.classifiedFloor == 1)
        #expect(tally.added <= 3 * tally.alive)
    }
}

@Suite("Drift allowance")
struct DriftAllowanceTests {
    /// A camera carried 1.4 m above the floor at `x`, looking ahead along −Z.
    private func carried(atX x: Float) -> CameraView {
        CameraView(camera: Fixtures.camera(eye: SIMD3(x, 1.4, 1), target: SIMD3(x, 0, -2)))
    }

    /// Two floor pieces measured 3.5 cm apart in height (beyond the 3 cm merge tolerance): when
    /// the camera walked 4 m between them, drift can explain the difference and they are one
    /// floor; seen 4 m apart without walking, or with no allowance, they stay two.
    @Test(arguments: [(true, Float(0.01), true), (false, 0.01, false), (true, 0, false)])
    func floorPiecesMeasuredApartAfterAWalkAreOneFloor(walk: Bool, perMetre: Float, merged: Bool) {
        var configuration = PlaneTrackingConfiguration()
        configuration.driftPerMetre = perMetre
        var tracker = PlaneTracker(configuration: configuration)
        let near = Fixtures.rectangle(center: .zero, width: 1, length: 0.6)
        let far = Fixtures.rectangle(center: SIMD3(4, 0.035, 0), width: 1, length: 0.6)
        _ = tracker.integrate([near], view: carried(atX: 0), frame: 0)
        var frame = 1
        if walk {
            // Walking to x = 4 in 0.5 m steps, seeing nothing new (the near piece is behind).
            for step in 1...8 {
                _ = tracker.integrate([], view: carried(atX: Float(step) * 0.5), frame: frame)
                frame += 1
            }
        }
        // Without the walk the camera sees the far piece from where it stands.
        let result = tracker.integrate([far], view: carried(atX: walk ? 4 : 0), frame: frame)
        #expect(tracker.anchors.count == (merged ? 1 : 2))
        #expect(result.assignments == [PlaneIdentifier(merged ? 1 : 2)])
        #expect(result.changes.map(\.anchor.identifier) == [PlaneIdentifier(merged ? 1 : 2)])
    }
}
