import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitTracking

/// What `analyze` found in one file, in the shape `--json` prints.
struct AnalysisReport: Encodable {
    /// The path that was read.
    let file: String
    /// Points per row.
    let width: Int
    /// Rows (1 for an unorganized cloud).
    let height: Int
    /// Whether the cloud has an image layout.
    let organized: Bool
    /// The points the detector measured (``PlaneDetectionResult/validPointCount``).
    let validPoints: Int
    /// The up direction used for alignment and classification.
    let up: SIMD3<Float>
    /// Detection time in milliseconds (reading excluded).
    let milliseconds: Double
    /// The planes, largest first; plane k has label k in the label image.
    let planes: [DetectedPlane]
    /// The organized detector's noise model and scale for this cloud (`nil` for an unorganized one).
    let sensor: SensorSettings?

    init(file: String, cloud: PointCloud, result: PlaneDetectionResult, up: SIMD3<Float>, elapsed: Duration) {
        self.file = file
        width = cloud.width
        height = cloud.height
        organized = cloud.isOrganized
        validPoints = result.validPointCount
        self.up = up
        milliseconds = elapsed.milliseconds
        planes = result.planes
        sensor = result.sensorSettings
    }
}

/// JSON text with stable key order, so output diffs cleanly.
enum JSONOutput {
    static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
