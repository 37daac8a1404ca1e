import PlaneKitPlanes
/// What a detector found in one cloud: the planes and, for an organized cloud, which plane each
/// pixel belongs to.
public struct PlaneDetectionResult: Sendable {
    /// The planes, largest first; `planes[k - 1].label == k`.
    public var planes: [DetectedPlane]
    /// One label per point, row-major for an organized cloud: 0 = no plane, k = `planes[k - 1]`.
    public var labels: ContiguousArray<UInt16>
    /// Points per row of the cloud the labels belong to.
    public var width: Int
    /// Rows of the cloud the labels belong to (1 for an unorganized cloud).
    public var height: Int
    /// The noise model, cell size, minimum plane size and merge tolerance the organized detector
    /// used (measured from the frame with ``SensorProfile/auto``); `nil` for an unorganized cloud.
    public var sensorSettings: SensorSettings?
    /// The points the detector measured. For ``OrganizedPlaneDetector``, those with a depth in
    /// (0, ∞) as it viewed the cloud: for a camera image (a cloud with intrinsics) z in (0, ∞); a
    /// grid that is not one is moved in front of its origin first, so every finite point counts
    /// but the exact zeros that mark its holes. Depth spikes that object-scale detection turns into
    /// holes before fitting (a scanner's decoding errors, see `DepthSpikes`) are not counted.
    /// For the PCL-backed detectors, those with finite
    /// coordinates. Counted during detection, so that a caller reporting it need not read the
    /// whole cloud again.
    public var validPointCount: Int

    /// A result from its parts; `labels` must have `width × height` entries.
    public init(planes: [DetectedPlane], labels: ContiguousArray<UInt16>, width: Int, height: Int, validPointCount: Int) {
        precondition(labels.count == width * height, "labels must cover every point")
        self.planes = planes
        self.labels = labels
        self.width = width
        self.height = height
        self.validPointCount = validPointCount
    }
}
