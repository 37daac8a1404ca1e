import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport
import Testing
import PlaneKitCloudIO
import PlaneKitUnorganizedDetection

/// The PCL-backed detectors on PCL's own test data in `../shared/data/pcl/`.
@Suite("PCL-backed detection on real data", .enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl"))
struct PCLRealDataTests {
    @Test("sac_plane_test.pcd: one dominant plane")
    func sacPlaneTest() throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/sac_plane_test.pcd"))
        #expect(cloud.count == 3283 && !cloud.isOrganized)
        let result = try UnorganizedPlaneDetector().detect(in: cloud)
        let dominant = try #require(result.planes.first)
        // The reference is an independent fit of the same file (a plain RANSAC over all points
        // with a 1 cm threshold, then least squares on the points within 1 cm, repeated to
        // convergence): normal (−0.5492, −0.3640, −0.7522), offset 0.6143, 2334 points within 1 cm.
        let reference = try #require(Plane(normal: SIMD3(-0.5492, -0.3640, -0.7522), offset: 0.6143))
        #expect(dominant.normal.angle(to: reference.normal) < 1 * .pi / 180, "normal \(dominant.normal)")
        #expect(abs(dominant.offset - reference.offset) < 0.005, "offset \(dominant.offset)")
        // It holds most of the cloud, fits tightly and is much larger than anything else.
        #expect(dominant.pointCount >= cloud.count * 6 / 10, "\(dominant.pointCount) points")
        #expect(dominant.rmsError < 0.005)
        for other in result.planes.dropFirst() { #expect(other.pointCount * 2 < dominant.pointCount) }
        #expect(result.labels.filter { $0 == 1 }.count == dominant.pointCount)
    }

    @Test("a Kinect frame: PCL's organized baseline and the unorganized detector agree on the main plane")
    func kinectFrame() throws {
        let cloud = try PointCloudReader.read(path: SharedData.path("pcl/frame_20121214T142255.814212.pcd"))
        try #require(cloud.width == 640 && cloud.height == 480)
        let organized = try PCLOrganizedSegmentation().segment(cloud)
        let main = try #require(organized.planes.first)
        // The table fills much of the view.
        #expect(main.pointCount > cloud.finiteCount / 3, "\(main.pointCount) of \(cloud.finiteCount)")
        for (k, plane) in organized.planes.enumerated() {
            #expect(plane.label == k + 1)
            #expect(plane.offset > 0, "normals face the camera")
            #expect(plane.rmsError < 0.02)
            #expect(organized.labels.filter { Int($0) == plane.label }.count == plane.pointCount)
            if k > 0 { #expect(plane.pointCount <= organized.planes[k - 1].pointCount) }
        }
        // Every fourth point as an unorganized cloud (about 68 000 points).
        var sparse = ContiguousArray<SIMD3<Float>>()
        for i in stride(from: 0, to: cloud.count, by: 4) where cloud.points[i].isFinite { sparse.append(cloud.points[i]) }
        let unorganized = try UnorganizedPlaneDetector().detect(in: PointCloud(unorganized: sparse))
        let same = try #require(unorganized.planes.first)
        #expect(same.normal.angle(to: main.normal) < 2 * .pi / 180, "\(same.normal) vs \(main.normal)")
        #expect(abs(same.offset - main.offset) < 0.02, "\(same.offset) vs \(main.offset)")
    }
}
