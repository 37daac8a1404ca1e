import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitTestSupport
import PlaneKitCloudIO
import PlaneKitUnorganizedDetection

/// The detector on PCL's real organized frames (../shared/data/pcl): the frame's dominant surface,
/// found independently of the detector by RANSAC over every finite point of the frame, must come
/// out as one detected plane that agrees with RANSAC's.
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

    /// The reference: RANSAC over all finite points of the frame, with a 1.2 cm inlier band
    /// (about 3σ of Kinect noise at 1.5 m, so the far, noisier part of a floor still counts
    /// towards its plane while the clutter on it does not), many hypotheses, a fixed seed and
    /// least-squares refits on the inliers. It never sees the detector's labels.
    static let reference = RANSACPlaneFitter(inlierThreshold: 0.012, maximumIterations: 5000, confidence: 0.9999,
                                             refinementIterations: 30, maximumScoringPoints: 40_000)

    /// Checks the detector against RANSAC's dominant plane of `cloud`: the detected plane holding
    /// most of RANSAC's inliers must hold at least 90% of the inliers the detector labels at all
    /// (one surface, one plane) and at least 90% of all of them, its normal must be within 1° and
    /// its offset within 1 cm of RANSAC's.
    func checkDominantPlane(of cloud: PointCloud, name: String) throws {
        let result = try OrganizedPlaneDetector().detect(in: cloud)
        let fit = try #require(RealFrameAccuracyTests.reference.fit(cloud.points), "\(name): RANSAC found no plane")
        // The fitter skips non-finite points but reports indices into what it was given: pixels.
        var perLabel = [Int](repeating: 0, count: result.planes.count + 1)
        for pixel in fit.inliers { perLabel[Int(result.labels[pixel])] += 1 }
        let labelled = perLabel.dropFirst().reduce(0, +)
        let label = try #require(perLabel.indices.dropFirst().max { perLabel[$0] < perLabel[$1] },
                                 "\(name): no plane detected")
        let detected = result.planes[label - 1]
        let share = Double(perLabel[label]) / Double(max(labelled, 1))
        let coverage = Double(perLabel[label]) / Double(fit.inlierCount)
        let angle = angleDegrees(detected.normal, fit.plane.normal)
        let offset = abs(detected.offset - fit.plane.offset)
        print("\(name): RANSAC \(fit.inlierCount) inliers (rms \(fit.rmsError * 1000) mm); plane \(label) of "
              + "\(result.planes.count) (\(detected.alignment), \(detected.pointCount) px) holds "
              + "\(perLabel[label]) of them: \(share * 100)% of those labelled, \(coverage * 100)% of all; "
              + "normal off by \(angle)°, offset by \(offset * 1000) mm")
        #expect(share >= 0.9, "\(name): RANSAC's plane is split: only \(share * 100)% of its labelled inliers in one plane")
        // And that plane is not a fragment: it holds at least 90% of all of RANSAC's inliers.
        #expect(coverage >= 0.9, "\(name): the plane holds only \(coverage * 100)% of RANSAC's inliers")
        #expect(angle <= 1, "\(name): normal \(angle)° from RANSAC")
        #expect(offset <= 0.01, "\(name): offset \(offset) m from RANSAC")
        // One plane: no other detected plane is the same surface.
        for other in result.planes where other.label != label {
            let sameSurface = angleDegrees(other.normal, detected.normal) < 3
                && abs(detected.plane.signedDistance(to: other.centroid)) < 0.03
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
