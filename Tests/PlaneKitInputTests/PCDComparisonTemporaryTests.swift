import Testing
import Foundation
@testable import PlaneKitInput
import PlaneKitTestSupport

/// TEMPORARY: our Swift PCD reader against the PCL path, on every real PCD, bit for bit.
@Suite(.enabled(if: SharedData.isAvailable))
struct PCDComparisonTemporaryTests {
    @Test(arguments: ["frame_20121214T142255.814212", "frame_20121214T142256.068683", "frame_20121214T142256.332395",
                      "milk_cartoon_all_small_clorox", "table_scene_mug_stereo_textured", "sac_plane_test"])
    func sameAsPCL(name: String) throws {
        let path = SharedData.path("pcl/\(name).pcd")
        let ours = try PCDReader.read(path: path)
        let pcl = try PCDReader.readThroughPCL(path: path)
        #expect(ours.width == pcl.width && ours.height == pcl.height)
        #expect(ours.count == pcl.count)
        var differing = 0, nanOurs = 0, nanPCL = 0
        for i in 0..<min(ours.count, pcl.count) {
            let a = ours.points[i], b = pcl.points[i]
            if a.x.bitPattern != b.x.bitPattern || a.y.bitPattern != b.y.bitPattern || a.z.bitPattern != b.z.bitPattern { differing += 1 }
            if !a.isFinite { nanOurs += 1 }
            if !b.isFinite { nanPCL += 1 }
        }
        #expect(differing == 0)
        #expect(nanOurs == nanPCL)
        #expect(ours.colors == pcl.colors)
        #expect(ours.sensorPose == pcl.sensorPose)
        print("DIGEST \(name): \(RealDataTests.digest(pcl))")
        print("COMPARE \(name): \(ours.width)x\(ours.height) differing=\(differing) nan=\(nanOurs)/\(nanPCL) colors=\(ours.colors?.count ?? -1)/\(pcl.colors?.count ?? -1) colorsEqual=\(ours.colors == pcl.colors) pose=\(ours.sensorPose == pcl.sensorPose)")
    }
}
