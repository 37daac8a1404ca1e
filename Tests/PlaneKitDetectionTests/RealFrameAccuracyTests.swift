import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport

/// The detector on PCL's real organized frames (../shared/data/pcl): the dominant surface (the
/// table top or floor: the largest plane) must come out as one plane that agrees with a careful
/// RANSAC fit to the same points.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data/pcl beside the repository"))
struct RealFrameAccuracyTests {
    static let pointClouds = [
        "pcl/table_scene_mug_stereo_textured.pcd",
        "pcl/milk_cartoon_all_small_clorox.pcd",
        "pcl/frame_20121214T142255.814212.pcd",
        "pcl/frame_20121214T142256.068683.pcd",
        "pcl/frame_20121214T142256.332395.pcd",
    ]
    static let depthImages = [
        "pcl/depth/frame_20121214T142255.814212_depth.tiff",
        "pcl/depth/frame_20121214T142256.068683_depth.tiff",
        "pcl/depth/frame_20121214T142256.332395_depth.tiff",
    ]

    /// Checks the largest plane of `cloud` against RANSAC on its own points.
    func checkDominantPlane(of cloud: PointCloud, name: String) throws {
        let result = try OrganizedPlaneDetector().detect(in: cloud)
        let dominant = try #require(result.planes.first, "\(name): no plane found")
        var points: [SIMD3<Float>] = []
        for (i, label) in result.labels.enumerated() where label == 1 { points.append(cloud.points[i]) }
        #expect(points.count == dominant.pointCount)
        // A careful reference fit: 1.5 cm inlier band (several σ of Kinect noise at 1–2 m), fixed seed.
        let reference = try #require(RANSACPlaneFitter(inlierThreshold: 0.015, maximumIterations: 2000).fit(points))
        #expect(Double(reference.inlierCount) >= 0.9 * Double(points.count), "\(name): the plane's points are not one plane")
        let angle = angleDegrees(dominant.normal, reference.plane.normal)
        let offset = abs(dominant.offset - reference.plane.offset)
        print("\(name): \(result.planes.count) planes; dominant \(dominant.pointCount) points, "
              + "\(dominant.alignment), normal off RANSAC by \(angle)°, offset by \(offset * 1000) mm")
        #expect(angle <= 1, "\(name): normal \(angle)° from RANSAC")
        #expect(offset <= 0.01, "\(name): offset \(offset) m from RANSAC")
        // One plane: no other detected plane is the same surface.
        for other in result.planes.dropFirst() {
            let sameSurface = angleDegrees(other.normal, dominant.normal) < 3
                && abs(dominant.plane.signedDistance(to: other.centroid)) < 0.03
            #expect(!sameSurface, "\(name): the dominant surface is split (plane \(other.label))")
        }
    }

    @Test(arguments: pointClouds)
    func dominantPlaneOfPointCloud(_ path: String) throws {
        let cloud = try PointCloudReader.read(path: SharedData.path(path))
        try #require(cloud.isOrganized)
        try checkDominantPlane(of: cloud, name: path)
    }

    @Test(arguments: depthImages)
    func dominantPlaneOfDepthImage(_ path: String) throws {
        let (image, intrinsics, _) = try DepthImageReader.read(path: SharedData.path(path))
        let cloud = image.pointCloud(intrinsics: try #require(intrinsics))
        try checkDominantPlane(of: cloud, name: path)
    }
}
