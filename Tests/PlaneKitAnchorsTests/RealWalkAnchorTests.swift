import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport
import PlaneKitAnchors
import Testing
import PlaneKitCloudIO

/// Plane anchors on a real Kinect walk: the first 150 frames (5 s) of the 7-Scenes kitchen
/// development split (`../shared/data/7scenes-redkitchen-dev`, 16-bit depth in millimetres,
/// 65 535 = no reading, KinectFusion's reference poses, gravity in the reference world), run
/// through a session under the reference poses as `planekit bench anchors --frames 150` runs
/// them. This is the split the anchor rules were tuned on; the rest of the walk is held out.
@Suite("Anchors on a real walk")
struct RealWalkAnchorTests {
    static let folder = SharedData.path("7scenes-redkitchen-dev")
    static let frameCount = 150

    /// The session's figures over the frames (``AnchorChurn``).
    static let figures: Result<AnchorChurnFigures, any Error> = Result {
        let gravityText = try String(contentsOfFile: folder + "/gravity-direction.txt", encoding: .utf8)
        let g = gravityText.split(whereSeparator: \.isWhitespace).compactMap { Float($0) }
        var configuration = Session.Configuration()
        configuration.up = -SIMD3(g[0], g[1], g[2])
        var session = Session(configuration: configuration)
        var churn = AnchorChurn()
        let intrinsics = PinholeIntrinsics(fx: 585, fy: 585, cx: 320, cy: 240, width: 640, height: 480)!
        for index in 0..<frameCount {
            let stem = folder + "/" + String(format: "frame-%06d", index)
            let rows = try String(contentsOfFile: stem + ".pose.txt", encoding: .utf8)
                .split(whereSeparator: \.isWhitespace).compactMap { Float($0) }
            guard rows.count == 16, let pose = Transform(columnMajor: (0..<16).map { rows[($0 % 4) * 4 + $0 / 4] }) else {
                throw InputError(source: stem + ".pose.txt", problem: "not the 16 numbers of a rigid transform")
            }
            let cloud = DepthImage(try DepthImageReader.readRaw(path: stem + ".depth.png"), scale: 0.001).pointCloud(intrinsics: intrinsics)
            let events = try session.update(frame: cloud, intrinsics: intrinsics, pose: pose, timestamp: Double(index) / 30)
            churn.record(events, camera: pose.translation)
        }
        return churn.figures(alive: session.planes)
    }

    /// 19 `planeAdded` for 17 anchors alive, 2 merged away. Before candidates needed 4 sightings
    /// in 6 frames (3 in 5), 20 for 17 and 3 merged away: a fragment that lives for three
    /// frames before it merges was announced. Before fragments joined the surface they belong
    /// to, 31 for 20, 11 merged away.
    @Test func fewAnnouncementsPerAnchorAndOneFloor() throws {
        let f = try Self.figures.get()
        print("frames 0–\(Self.frameCount - 1): \(f)")
        // The kitchen's counters, walls and cabinet fronts stay separate anchors …
        #expect(f.alive >= 15)
        // … and few of them were announced as fragments first.
        #expect(f.added <= 2 * f.alive)
        #expect(f.removed <= 2)
        #expect(f.floors == 1)
        #expect(f.invalidReadingAnchors == 0)
    }

    /// 1.063 identifiers per probe point (647 points, at most 2 on one); before fragments joined
    /// the surface they belong to, 1.124 (at most 5).
    @Test func eachSpotOfASurfaceKeepsOneIdentifier() throws {
        let f = try Self.figures.get()
        #expect(f.probePoints >= 600)
        #expect(f.meanIdentifiersPerProbePoint <= 1.08)
        #expect(f.maximumIdentifiersPerProbePoint <= 2)
    }
}
