import PlaneKitInput

/// One noise estimate kept across the frames of a stream.
///
/// Measuring every frame would let the detector's thresholds (and, for a scanner, its cell size)
/// wander with what each frame happens to show. A sensor's noise as a function of depth does not
/// change, so the first ``framesMeasured`` frames that can be measured are, and their median is
/// kept from then on; later frames cost nothing extra.
public struct StreamNoiseEstimate: Sendable {
    /// How many measurable frames make the kept estimate.
    public static let framesMeasured = 10

    /// The estimate in force: the median of the frames measured so far, `nil` before the first.
    public private(set) var current: DepthNoiseEstimate?
    private var measurements: [DepthNoiseEstimate] = []

    /// A stream with nothing measured yet.
    public init() {}

    /// `true` once the estimate is kept fixed.
    public var isSettled: Bool { measurements.count >= Self.framesMeasured }

    /// Measures `cloud` with `detector` unless the estimate is settled, and returns the estimate
    /// to detect it with.
    public mutating func update(with cloud: PointCloud, detector: OrganizedPlaneDetector) -> DepthNoiseEstimate? {
        guard !isSettled, let measured = detector.measureNoise(in: cloud) else { return current }
        measurements.append(measured)
        current = Self.median(of: measurements)
        return current
    }

    /// The estimate of median ``DepthNoiseEstimate/roughness`` (noise over point spacing, which
    /// does not depend on how far away each frame happened to look).
    static func median(of estimates: [DepthNoiseEstimate]) -> DepthNoiseEstimate? {
        estimates.sorted { $0.roughness < $1.roughness }.dropFirst(estimates.count / 2).first
    }
}
