import PCLBridgeInterface
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes
import PlaneKitDetection

/// PCL's organized plane segmentation, the baseline PlaneKit's organized detector is measured
/// against: `IntegralImageNormalEstimation` (covariance-matrix method) followed by
/// `OrganizedMultiPlaneSegmentation` with refinement.
///
/// The defaults are those of PCL's tutorials and demo, as a competent PCL user would set them
/// (the bridge's `organized_segmentation.cpp` explains each). Planes are described by
/// ``describer`` from the pixels PCL labelled, with PCL's plane coefficients, normals facing the
/// camera at the origin (an organized cloud is in its camera's frame).
public struct PCLOrganizedSegmentation: Sendable {
    /// Depth change, relative to depth, that ends a normal-smoothing window (occlusion edges).
    public var maxDepthChangeFactor: Float = 0.02
    /// Normal-smoothing window size (pixels).
    public var normalSmoothingSize: Float = 10
    /// The fewest pixels of a plane (3000 = 1% of a VGA frame).
    public var minimumInliers: Int = 3000
    /// Largest normal difference between neighbouring pixels of one plane (radians; 3°).
    public var angularThreshold: Float = 3 * .pi / 180
    /// Largest plane-offset difference between neighbouring pixels (m, grown with depth by PCL).
    public var distanceThreshold: Float = 0.02
    /// Largest curvature (smallest eigenvalue over their sum) of a plane's fit.
    public var maximumCurvature: Float = 0.001
    /// Grow planes into neighbouring pixels that fit their model (`segmentAndRefine`).
    public var refine: Bool = true
    /// How planes are described (up direction, outline resolution).
    public var describer: PlaneDescriber

    /// A segmentation with PCL's recommended parameters.
    public init(describer: PlaneDescriber = PlaneDescriber()) {
        self.describer = describer
    }

    /// The planes of the organized `cloud`, with one label per pixel. Throws for an unorganized
    /// cloud, out-of-range parameters or a PCL failure.
    public func segment(_ cloud: PointCloud) throws(PCLBridgeError) -> PlaneDetectionResult {
        let operation = "PCL organized segmentation"
        guard cloud.isOrganized else {
            throw PCLBridgeError(operation: operation, problem: "the cloud is not organized (height \(cloud.height))")
        }
        guard let width = Int32(exactly: cloud.width), let height = Int32(exactly: cloud.height) else {
            throw PCLBridgeError(operation: operation, problem: "\(cloud.width)×\(cloud.height) is too large")
        }
        var params = pk_organized_plane_params()
        let bridge = try PCLPlaneLabelling.bridge(operation)
        bridge.organized_plane_params_default(&params)
        params.max_depth_change_factor = maxDepthChangeFactor
        params.normal_smoothing_size = normalSmoothingSize
        params.min_inliers = try UnorganizedPlaneDetector.int32(minimumInliers, "minimum inliers", operation)
        params.angular_threshold = angularThreshold
        params.distance_threshold = distanceThreshold
        params.maximum_curvature = maximumCurvature
        params.refine = refine ? 1 : 0

        var list = pk_plane_list()
        var status = pk_status()
        defer { bridge.plane_list_free(&list) }
        var succeeded: Int32 = 0
        let labels = PCLPlaneLabelling.withBridgeBuffers(cloud) { points, stride, labels in
            succeeded = bridge.segment_organized_planes(points, width, height, stride, &params, labels, &list, &status)
        }
        guard succeeded == 1 else { throw PCLBridgeError(operation: operation, status: status) }
        return PCLPlaneLabelling.result(cloud: cloud, labels: labels, fits: PCLPlaneLabelling.fits(of: list),
                                        viewpoint: .zero, describer: describer)
    }
}
