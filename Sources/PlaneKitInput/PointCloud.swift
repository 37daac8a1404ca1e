import PlaneKitGeometry

/// A point cloud, organized (an image layout, `height > 1`) or not (`height == 1`), following
/// PCL's `PointCloud` conventions.
///
/// Organized clouds keep one point per pixel in row-major order, with NaN coordinates where the
/// sensor measured nothing, so `points[v * width + u]` is the point seen at pixel `(u, v)`.
/// Coordinates are metres in the sensor frame: +X right, +Y down, +Z forward.
public struct PointCloud: Sendable {
    /// Points per row.
    public let width: Int
    /// Rows: 1 for an unorganized cloud.
    public let height: Int
    /// The points, `width × height` of them, row-major; NaN marks a hole in an organized cloud.
    public var points: ContiguousArray<SIMD3<Float>>
    /// Per-point colours (0–255 RGB), when the source had them; same count as `points`.
    public var colors: ContiguousArray<SIMD3<UInt8>>?
    /// The camera intrinsics that produced an organized cloud, when known (depth images).
    public var intrinsics: PinholeIntrinsics?
    /// The sensor's pose in the world (PCD's `VIEWPOINT`, or a stream frame's pose).
    public var sensorPose: Transform

    /// A cloud from its parts, or an error when the sizes disagree.
    public init(width: Int, height: Int, points: ContiguousArray<SIMD3<Float>>,
                colors: ContiguousArray<SIMD3<UInt8>>? = nil, intrinsics: PinholeIntrinsics? = nil,
                sensorPose: Transform = .identity) throws(InputError) {
        guard width >= 0, height >= 1 || (height == 0 && width == 0),
              width.multipliedReportingOverflow(by: height) == (points.count, false) else {
            throw InputError(source: "point cloud", problem: "\(width)×\(height) does not match \(points.count) points")
        }
        if let colors, colors.count != points.count {
            throw InputError(source: "point cloud", problem: "\(colors.count) colours for \(points.count) points")
        }
        self.width = width
        self.height = height
        self.points = points
        self.colors = colors
        self.intrinsics = intrinsics
        self.sensorPose = sensorPose
    }

    /// A cloud whose sizes the caller has already made consistent.
    init(checkedWidth width: Int, height: Int, points: ContiguousArray<SIMD3<Float>>,
         colors: ContiguousArray<SIMD3<UInt8>>? = nil, intrinsics: PinholeIntrinsics? = nil,
         sensorPose: Transform = .identity) {
        self.width = width
        self.height = height
        self.points = points
        self.colors = colors
        self.intrinsics = intrinsics
        self.sensorPose = sensorPose
    }

    /// An unorganized cloud of `points` (`height == 1`).
    public init(unorganized points: ContiguousArray<SIMD3<Float>>, colors: ContiguousArray<SIMD3<UInt8>>? = nil) {
        width = points.count
        height = 1
        self.points = points
        self.colors = colors?.count == points.count ? colors : nil
        intrinsics = nil
        sensorPose = .identity
    }

    /// `true` when the cloud has an image layout (more than one row).
    @inlinable public var isOrganized: Bool { height > 1 }

    /// How many points there are, holes included.
    @inlinable public var count: Int { points.count }

    /// How many points have finite coordinates.
    public var finiteCount: Int {
        points.withUnsafeBufferPointer { buffer in
            var count = 0
            for point in buffer {
                // p − p is 0 in every lane where the coordinate is finite and NaN where not
                // (∞ − ∞ too), so the lanes' sum is 0 exactly for a finite point and cannot
                // overflow: one vector subtraction and one comparison instead of three tests.
                let difference = point - point
                count &+= difference.x + difference.y + difference.z == 0 ? 1 : 0
            }
            return count
        }
    }

    /// The point at column `u`, row `v` of an organized cloud.
    @inlinable public subscript(u: Int, v: Int) -> SIMD3<Float> {
        points[v * width + u]
    }
}

extension PointCloud {
    /// The up direction (against gravity) in the cloud's own coordinates, when nothing else says:
    /// from ``sensorPose`` when the cloud has one (world +Y up, as in ARKit), otherwise camera −Y,
    /// because PCL and OpenCV cameras have +Y pointing down and a level camera is the common case.
    public var defaultUp: SIMD3<Float> {
        sensorPose == .identity ? SIMD3(0, -1, 0) : sensorPose.inverse.apply(toDirection: SIMD3(0, 1, 0))
    }
}
