import PlaneKitGeometry
import PlaneKitInput
import PlaneKitPlanes
import PlaneKitDetection

/// Finds the planes of any cloud with the right detector: PlaneKit's grid-based
/// `OrganizedPlaneDetector` for organized clouds and depth frames, PCL through
/// ``UnorganizedPlaneDetector`` for clouds with no image layout. Both results are described and
/// classified the same way.
public struct PlaneFinder: Sendable {
    /// The detector for organized clouds (its `up` is kept equal to ``up``).
    public var organized: OrganizedPlaneDetector
    /// The detector for unorganized clouds (its describer's `up` is kept equal to ``up``).
    public var unorganized: UnorganizedPlaneDetector
    /// Classifies the unorganized detector's planes, as the organized detector does its own.
    public var classifier = PlaneClassifier()

    /// The up direction (against gravity) in the cloud's coordinates.
    public var up: SIMD3<Float> {
        didSet { applyUp() }
    }

    /// A finder for clouds whose up direction is `up` (camera −Y by default; see
    /// `PointCloud.defaultUp`).
    public init(up: SIMD3<Float> = SIMD3(0, -1, 0)) {
        self.up = normalize(up)
        organized = OrganizedPlaneDetector()
        unorganized = UnorganizedPlaneDetector()
        applyUp()
    }

    /// Tuning asked for by hand over the sensor's settings: handed to the organized detector,
    /// applied to the unorganized one, and a minimum area filters both's planes.
    public var overrides = DetectionOverrides() {
        didSet {
            organized.configuration.overrides = overrides
            overrides.apply(to: &unorganized)
        }
    }

    private mutating func applyUp() {
        organized.configuration.up = up
        unorganized.describer.up = up
    }

    /// The planes of `cloud`, largest first, with one label per point.
    public func detect(in cloud: PointCloud) throws -> PlaneDetectionResult {
        if cloud.isOrganized {
            return overrides.filtered(try organized.detect(in: cloud))
        }
        var result = try unorganized.detect(in: cloud)
        classifier.classify(&result.planes, up: up, sensor: cloud.sensorPose.translation)
        return overrides.filtered(result)
    }
}
