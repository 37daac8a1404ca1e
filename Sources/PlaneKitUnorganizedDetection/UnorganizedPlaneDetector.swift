import PCLBridgeInterface
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes
import PlaneKitDetection

/// Finds planes in unorganized clouds (scans, merged maps, PLY/XYZ files) with PCL.
///
/// Normals are estimated over a kd-tree (by default within a radius of three mean neighbour
/// spacings, measured from the cloud), then planes are extracted one after another with RANSAC
/// on a plane model that also compares normals (PCL's `SACMODEL_NORMAL_PLANE`), each refit by
/// least squares on its inliers and kept to its largest connected piece, until no plane with
/// ``minimumPlanePoints`` remains. The result has the same form as the organized detector's:
/// one label per point (height 1 for an unorganized cloud), planes largest first, described by
/// ``describer`` with normals facing the sensor at `sensorPose.translation`.
///
/// Organized clouds are accepted too (their layout is ignored and their labels keep it).
public struct UnorganizedPlaneDetector: Sendable {
    /// Largest distance of a plane's point from the plane (m). 2 cm suits depth sensors at
    /// 2–3 m; lower it for laser scans.
    public var distanceThreshold: Float = 0.02
    /// Largest angle between a point's estimated normal and its plane's normal (radians).
    public var angularThreshold: Float = 20 * .pi / 180
    /// The fewest points a plane may have; extraction stops when no larger plane remains.
    public var minimumPlanePoints: Int = 500
    /// The most planes to extract.
    public var maximumPlaneCount: Int = 32
    /// Normal-estimation radius (m); `nil` chooses it from the cloud's density unless
    /// ``normalNeighbours`` is set.
    public var normalRadius: Float?
    /// Normal estimation from this many nearest neighbours instead of a radius (`nil`: radius).
    public var normalNeighbours: Int?
    /// Largest gap between neighbouring points of one plane (m); `nil` chooses three mean
    /// neighbour spacings, `0` turns the connectivity check off.
    public var clusterTolerance: Float?
    /// RANSAC iterations per plane, at most.
    public var maximumIterations: Int = 200
    /// How planes are described (up direction, outline resolution).
    public var describer: PlaneDescriber

    /// A detector with the default parameters that describes planes with `describer` (whose
    /// up direction is the camera convention's −Y by default).
    public init(describer: PlaneDescriber = PlaneDescriber()) {
        self.describer = describer
    }

    /// The planes of `cloud`. Throws when a parameter is out of range or PCL fails; an empty
    /// cloud, or one with only NaN points, has no planes.
    public func detect(in cloud: PointCloud) throws(PCLBridgeError) -> PlaneDetectionResult {
        let operation = "unorganized plane detection"
        var params = pk_unorganized_plane_params()
        let bridge = try PCLPlaneLabelling.bridge(operation)
        bridge.unorganized_plane_params_default(&params)
        params.distance_threshold = distanceThreshold
        params.angular_threshold = angularThreshold
        params.min_plane_points = try Self.int32(minimumPlanePoints, "minimum plane points", operation)
        params.max_planes = try Self.int32(min(maximumPlaneCount, Int(UInt16.max)), "maximum plane count", operation)
        params.normal_radius = normalRadius ?? 0
        params.normal_neighbours = try Self.int32(normalNeighbours ?? 0, "normal neighbours", operation)
        if let clusterTolerance {
            // The bridge reads 0 as "automatic" and a negative value as "off".
            params.cluster_tolerance = clusterTolerance == 0 ? -1 : clusterTolerance
        }
        params.max_iterations = try Self.int32(maximumIterations, "maximum iterations", operation)
        let viewpoint = cloud.sensorPose.translation
        params.viewpoint = (viewpoint.x, viewpoint.y, viewpoint.z)

        var list = pk_plane_list()
        var status = pk_status()
        defer { bridge.plane_list_free(&list) }
        var succeeded: Int32 = 0
        let labels = PCLPlaneLabelling.withBridgeBuffers(cloud) { points, stride, labels in
            succeeded = bridge.segment_unorganized_planes(points, Int64(cloud.count), stride, &params, labels, &list, &status)
        }
        guard succeeded == 1 else { throw PCLBridgeError(operation: operation, status: status) }
        return PCLPlaneLabelling.result(cloud: cloud, labels: labels, fits: PCLPlaneLabelling.fits(of: list),
                                        viewpoint: viewpoint, describer: describer)
    }

    /// `value` as an `Int32` for the bridge, or an error naming the parameter.
    static func int32(_ value: Int, _ name: String, _ operation: String) throws(PCLBridgeError) -> Int32 {
        guard let narrow = Int32(exactly: value) else {
            throw PCLBridgeError(operation: operation, problem: "\(name) \(value) is out of range")
        }
        return narrow
    }
}
