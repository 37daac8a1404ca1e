import Foundation
import PlaneKitGeometry
import PlaneKitAnchors
import PlaneKitMaps
import PlaneKitSynthesis
import PlaneKitSyntheticWalks
import PlaneKitTestSupport
import Testing

/// Relocalization into a map made from a real Kinect walk (the 7-Scenes kitchen development
/// split, `../shared/data/7scenes-redkitchen-dev`): frames 0–249 (or 0–349) under their
/// reference poses make the map (the world of the first camera, not levelled); the next 30
/// frames come back under an unknown offset of 40° and 2 m. Their planes face two ways (counter
/// tops and cabinet fronts), so only the frame's points can fix the shift along the counters.
/// The relocalizer's point path was developed on these frames; the rest of the walk is held out
/// and never read.
@Suite(.enabled(if: SevenScenesDev.isAvailable, "needs ../shared/data/7scenes-redkitchen-dev beside the repository"))
struct RealWalkRelocalizationTests {
    /// Map-from-query: what the session's world is to the map's.
    static let truth = Transform(rotation: Quaternion(angle: 40 * .pi / 180, axis: SIMD3(0.3, 1, -0.2)).matrix,
                                 translation: SIMD3(1.2, -0.3, 1.5))

    /// Maps of the first 250 and the first 350 frames. The larger one holds the same surfaces
    /// placed by more reference poses, which disagree by a centimetre or so: its points on
    /// edges land a pixel or two off the edges a query frame sees.
    static let maps: [Int: Result<WorldMap, any Error>] = Dictionary(uniqueKeysWithValues: [250, 300, 350].map { frames in
        (frames, Result {
            var session = Session(), mapping = MapTracking()
            for k in 0..<frames {
                let cloud = try SevenScenesDev.cloud(k)
                _ = try session.update(frame: cloud, intrinsics: SevenScenesDev.intrinsics, pose: try SevenScenesDev.pose(k),
                                       timestamp: Double(k) / 30)
                _ = mapping.frameTracked(session: &session, cloud: cloud)
            }
            return mapping.map(of: session)
        })
    })

    @Test(arguments: [250, 350])
    func theNextFramesRelocalizeWithinTwoCentimetresAndOneDegree(mappedFrames: Int) throws {
        let map = try #require(Self.maps[mappedFrames]).get()
        var session = Session(), mapping = MapTracking()
        mapping.load(map, into: &session)
        let offset = Self.truth.inverse
        var found: (frame: Int, relocalization: Relocalization, camera: SIMD3<Float>)?
        for k in 0..<30 {
            let index = mappedFrames + k
            let cloud = try SevenScenesDev.cloud(index)
            let pose = offset * (try SevenScenesDev.pose(index))
            _ = try session.update(frame: cloud, intrinsics: SevenScenesDev.intrinsics, pose: pose, timestamp: Double(index) / 30)
            if let (relocalization, _) = mapping.frameTracked(session: &session, cloud: cloud) {
                found = (k, relocalization, pose.translation)
                break
            }
        }
        let (frame, relocalization, camera) = try #require(found, "not relocalized in 30 frames")
        let position = distance(relocalization.mapFromSession.apply(toPoint: camera), Self.truth.apply(toPoint: camera))
        let angle = Quaternion(relocalization.mapFromSession.rotation * Self.truth.rotation.transposed).angle
        print("real walk, map of \(mappedFrames) frames: relocalized in query frame \(frame), \(position * 1000) mm, \(angle * 180 / .pi)°")
        #expect(frame < 10)
        #expect(position <= 0.02)
        #expect(angle <= .pi / 180)
    }

    /// After a gap: the map of frames 0–299, then frames 400–499 under a turn about the map's +Y
    /// and a shift. The camera stays 36–91 cm from where every mapping frame was, and only the
    /// last frames look at surfaces the map holds (until frame 467, under the true offset, fewer
    /// than 70 % of a frame's points lie on the map). Registered from the map's keyframes alone,
    /// the frame's points land about a metre off and these frames never relocalize; the search
    /// over where they fit the map (`MapPointSearch`) finds them. Measured: relocalized at frame
    /// 482, 16.3 mm and 0.46° from the reference.
    @Test func framesAfterAGapRelocalizeWhereTheyLookAtTheMap() throws {
        let map = try #require(Self.maps[300]).get()
        let truth = Transform(rotation: Quaternion(angle: 40 * .pi / 180, axis: SIMD3(0, 1, 0)).matrix, translation: SIMD3(1.2, -0.3, 1.5))
        var session = Session(), mapping = MapTracking()
        mapping.load(map, into: &session)
        var found: (frame: Int, relocalization: Relocalization, camera: SIMD3<Float>)?
        for index in 400..<500 {
            let cloud = try SevenScenesDev.cloud(index)
            let pose = truth.inverse * (try SevenScenesDev.pose(index))
            _ = try session.update(frame: cloud, intrinsics: SevenScenesDev.intrinsics, pose: pose, timestamp: Double(index) / 30)
            if let (relocalization, _) = mapping.frameTracked(session: &session, cloud: cloud) {
                found = (index, relocalization, pose.translation)
                break
            }
        }
        let (frame, relocalization, camera) = try #require(found, "frames 400–499 did not relocalize into the map of 0–299")
        let position = distance(relocalization.mapFromSession.apply(toPoint: camera), truth.apply(toPoint: camera))
        let angle = Quaternion(relocalization.mapFromSession.rotation * truth.rotation.transposed).angle
        print("real walk after a gap: relocalized at frame \(frame), \(position * 1000) mm, \(angle * 180 / .pi)°")
        #expect(frame >= 460, "relocalized before the view reaches the mapped surfaces")
        #expect(position <= 0.02)
        #expect(angle <= .pi / 180)
    }

    @Test func generatedRoomsNeverRelocalizeIntoIt() throws {
        let map = try #require(Self.maps[250]).get()
        for seed in UInt64(1000)..<1004 {
            let walk = RevisitWalk(seed: seed, mappingFrames: 150)
            let trial = try RelocalizationTrial(walk: walk, map: map, queryFrames: 30)
            #expect(trial.frame == nil, "generated room \(seed) relocalized into the kitchen's map")
        }
    }
}
