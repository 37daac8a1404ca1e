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
    /// With `--indices`: plane k's inlier indices (row-major, the points labelled k) at `k − 1`.
    let indices: [[Int]]?

    init(file: String, cloud: PointCloud, result: PlaneDetectionResult, up: SIMD3<Float>, elapsed: Duration, withIndices: Bool = false) {
        self.file = file
        width = cloud.width
        height = cloud.height
        organized = cloud.isOrganized
        validPoints = result.validPointCount
        self.up = up
        milliseconds = elapsed.milliseconds
        planes = result.planes
        sensor = result.sensorSettings
        indices = withIndices ? AnalysisReport.inlierIndices(labels: result.labels, planes: result.planes.count) : nil
    }

    /// The indices of the points labelled k, for k = 1 … `planes`, in row-major order.
    static func inlierIndices(labels: ContiguousArray<UInt16>, planes: Int) -> [[Int]] {
        var lists = [[Int]](repeating: [], count: planes)
        for (index, label) in labels.enumerated() where label > 0 && Int(label) <= planes {
            lists[Int(label) - 1].append(index)
        }
        return lists
    }

    private enum CodingKeys: String, CodingKey {
        case file, width, height, organized, validPoints, up, milliseconds, planes, sensor
    }

    private enum IndexKey: String, CodingKey { case indices }

    /// Each plane as ``DetectedPlane`` encodes it, with `"indices"` added inside it when asked for.
    private struct PlaneEntry: Encodable {
        let plane: DetectedPlane
        let indices: [Int]?

        func encode(to encoder: any Encoder) throws {
            try plane.encode(to: encoder)
            var container = encoder.container(keyedBy: IndexKey.self)
            try container.encodeIfPresent(indices, forKey: .indices)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(organized, forKey: .organized)
        try container.encode(validPoints, forKey: .validPoints)
        try container.encode(up, forKey: .up)
        try container.encode(milliseconds, forKey: .milliseconds)
        try container.encode(planes.enumerated().map { PlaneEntry(plane: $1, indices: indices?[$0]) }, forKey: .planes)
        try container.encodeIfPresent(sensor, forKey: .sensor)
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
