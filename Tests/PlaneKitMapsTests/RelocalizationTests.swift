import Foundation
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitMaps
import Testing
import PlaneKitSyntheticWalks

/// One relocalization trial over a ``RevisitWalk``: the map of its mapping walk, then up to
/// `queryFrames` query frames through a session that loaded it.
struct RelocalizationTrial {
    /// The query frame (0-based) the session relocalized in, or `nil`.
    var frame: Int?
    /// Position error at the relocalizing camera (m) and turn error (rad), when it relocalized.
    var positionError: Float = .nan, angleError: Float = .nan
    /// The map's anchors and the events of the relocalization.
    var map: WorldMap
    var events: [SessionEvent] = []
    var found: Relocalization?
    /// What each registration attempt saw, frame by frame.
    var attempts: [RelocalizationAttempt] = []

    static func map(of walk: RevisitWalk) throws -> (WorldMap, Session) {
        var session = Session(), mapping = MapTracking()
        var workspace = RenderWorkspace()
        for k in 0..<walk.mappingFrames {
            let frame = walk.mappingFrame(k, workspace: &workspace)
            _ = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp)
            _ = mapping.frameTracked(session: &session, cloud: frame.cloud)
        }
        return (mapping.map(of: session), session)
    }

    init(walk: RevisitWalk, map: WorldMap, queryFrames: Int) throws {
        self.map = map
        var session = Session(), mapping = MapTracking()
        mapping.load(map, into: &session)
        var workspace = RenderWorkspace()
        for k in 0..<queryFrames {
            let frame = walk.queryFrame(k, workspace: &workspace)
            _ = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: mapping.worldPose(frame.pose),
                                   timestamp: frame.timestamp)
            let tracked = mapping.frameTracked(session: &session, cloud: frame.cloud)
            if let attempt = mapping.lastAttempt { attempts.append(attempt) }
            if let (found, events) = tracked {
                self.frame = k
                self.found = found
                self.events = events
                let truth = walk.expectedMapFromQuery
                let camera = frame.pose.translation
                positionError = distance(found.mapFromSession.apply(toPoint: camera), truth.apply(toPoint: camera))
                angleError = Quaternion(found.mapFromSession.rotation * truth.rotation.transposed).angle
                return
            }
        }
    }
}

@Suite("Relocalization")
struct RelocalizationTests {
    /// Rooms 1–16 are mapped (120 frames each) and revisited under a random offset; each map is
    /// also visited from two unrelated rooms. `planekit bench relocalization` runs 20 rooms and
    /// 100 unrelated walks.
    @Test func revisitsRelocalizeAndUnrelatedRoomsNever() throws {
        var results: [RelocalizationTrial] = []
        var falseRelocalizations = 0, unrelatedWalks = 0
        for seed in UInt64(1)...16 {
            let walk = RevisitWalk(seed: seed, mappingFrames: 120)
            let (map, _) = try RelocalizationTrial.map(of: walk)
            let trial = try RelocalizationTrial(walk: walk, map: map, queryFrames: 30)
            print("room \(seed): frame \(trial.frame.map(String.init) ?? "-"), error \(trial.positionError * 1000) mm \(trial.angleError * 180 / .pi)°, \(map.anchors.count) anchors")
            results.append(trial)
            for other in UInt64(1)...2 {
                let away = RevisitWalk(seed: seed, queryRoomSeed: 500 + seed * 10 + other, mappingFrames: 120)
                let wrong = try RelocalizationTrial(walk: away, map: map, queryFrames: 30)
                unrelatedWalks += 1
                if let frame = wrong.frame {
                    falseRelocalizations += 1
                    print("FALSE: map of room \(seed) in room \(away.query.seed), frame \(frame)")
                    for (k, attempt) in wrong.attempts.enumerated() { print("  frame \(k): \(attempt.summary)") }
                }
            }
        }
        let good = results.filter { ($0.frame ?? 99) < 10 && $0.positionError <= 0.01 && $0.angleError <= 0.5 * .pi / 180 }
        let relocalized = results.filter { $0.frame != nil }
        print("relocalized \(relocalized.count) of \(results.count); within 10 frames at ≤ 1 cm / 0.5°: \(good.count); false \(falseRelocalizations) of \(unrelatedWalks)")
        #expect(falseRelocalizations == 0)
        // Every relocalization is accurate, whenever it comes.
        for trial in relocalized {
            #expect(trial.positionError <= 0.01 && trial.angleError <= 0.5 * .pi / 180)
        }
        // The goal is 95 % within 10 frames; measured: 10 of these 16 within 10 frames,
        // 12 within 30 (before furniture off the shell counted over the last 10 frames, within
        // 3.5 m: 8 and 9). The rest never get past the shell checks (below): bare corners, which
        // any box-shaped room shows alike, or one wall with nothing else to fix the turn.
        #expect(good.count >= 10)
        #expect(relocalized.count >= 12)
        // The attempts say why: a view that stays unrelocalized never got past the shell checks,
        // or, registered from its points, fitted as well somewhere else in the room (ambiguous).
        for trial in results where trial.frame == nil {
            #expect(trial.attempts.allSatisfy { [.tooFewPlanes, .noHypothesis, .tooFewMatches, .nothingDistinct, .ambiguous].contains($0.outcome) })
        }
    }

    /// A session whose world is not levelled (tracked from depth without gravity or a floor in
    /// its first frame, or given poses of a world not levelled) shares no up with the map, and
    /// two levelled worlds can disagree on up by a degree or two: the change of world is any
    /// rotation, found from triples of planes. Rooms 2–9 are revisited with their query worlds
    /// tilted by 1°–80° about a random horizontal axis, and each map is visited, tilted, from two
    /// unrelated rooms. Before the search over every rotation none of them relocalized
    /// (`bench relocalization --tilt 20`, and `--tilt 1`: 0 of 20).
    @Test func worldsThatDoNotShareUpRelocalizeAndUnrelatedRoomsNever() throws {
        var good = 0, relocalized = 0, falseRelocalizations = 0
        for seed in UInt64(2)...9 {
            let degrees: Float = [1, 2, 3, 5, 10, 20, 40, 80][Int(seed) - 2]
            let tilt = degrees * .pi / 180
            let walk = RevisitWalk(seed: seed, mappingFrames: 120, tilt: tilt)
            let (map, _) = try RelocalizationTrial.map(of: walk)
            let trial = try RelocalizationTrial(walk: walk, map: map, queryFrames: 30)
            print("room \(seed) tilted \(degrees)°: frame \(trial.frame.map(String.init) ?? "-"), error \(trial.positionError * 1000) mm \(trial.angleError * 180 / .pi)°")
            if trial.frame != nil {
                relocalized += 1
                #expect(trial.positionError <= 0.01 && trial.angleError <= 0.5 * .pi / 180)
                if (trial.frame ?? 99) < 10 { good += 1 }
            }
            for other in UInt64(1)...2 {
                let away = RevisitWalk(seed: seed, queryRoomSeed: 700 + seed * 10 + other, mappingFrames: 120, tilt: tilt)
                if let frame = try RelocalizationTrial(walk: away, map: map, queryFrames: 30).frame {
                    falseRelocalizations += 1
                    print("FALSE: map of room \(seed) in room \(away.query.seed), frame \(frame)")
                }
            }
        }
        print("tilted worlds: relocalized \(relocalized) of 8, \(good) within 10 frames; false \(falseRelocalizations) of 16")
        #expect(falseRelocalizations == 0)
        #expect(good >= 5)
    }

    /// The walk `planekit bench relocalization` crashed in (room 16 at its 150 mapping frames):
    /// a stale incremental build, whose CLI module still had `MapTracking`'s layout from before
    /// it gained a private property, corrupted memory there. Replayed here through the same
    /// mapping and query, it relocalizes, and accurately.
    @Test func benchRoomSixteenRelocalizes() throws {
        let walk = RevisitWalk(seed: 16, mappingFrames: 150)
        let (map, _) = try RelocalizationTrial.map(of: walk)
        let trial = try RelocalizationTrial(walk: walk, map: map, queryFrames: 30)
        // The room's 15 planes: walls, floor, tables, seats and the boxes' sides (the rest are
        // slices of a cylinder the camera passes close to, some of which pass as planes).
        #expect(map.anchors.count >= 15)
        #expect((trial.frame ?? 99) < 10)
        #expect(trial.positionError <= 0.01)
        #expect(trial.angleError <= 0.5 * .pi / 180)
    }

    /// The checks under a known change of world: the true one passes them in a frame before the
    /// session relocalizes (which takes two frames that agree), one 30 cm off matches too few planes.
    @Test func checksUnderAKnownOffset() throws {
        let walk = RevisitWalk(seed: 16, mappingFrames: 150)
        let (map, _) = try RelocalizationTrial.map(of: walk)
        var session = Session(), mapping = MapTracking()
        mapping.load(map, into: &session)
        var workspace = RenderWorkspace()
        let truth = walk.expectedMapFromQuery
        let off = Transform(rotation: truth.rotation, translation: truth.translation + SIMD3(0.3, 0, 0))
        var underTruth: [RelocalizationAttempt.Outcome] = [], underOffset: [RelocalizationAttempt.Outcome] = []
        for k in 0..<10 {
            let frame = walk.queryFrame(k, workspace: &workspace)
            _ = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp)
            // Once relocalized, the session is in the map's world and nothing is left to check.
            if mapping.frameTracked(session: &session, cloud: frame.cloud) != nil { break }
            underTruth.append(try #require(mapping.check(mapFromSession: truth, session: session, cloud: frame.cloud)).outcome)
            underOffset.append(try #require(mapping.check(mapFromSession: off, session: session, cloud: frame.cloud)).outcome)
        }
        #expect(!underTruth.isEmpty && underTruth.count < 10)
        #expect(underTruth.contains(.relocalized))
        #expect(underOffset.allSatisfy { $0 == .tooFewMatches })
    }
}
