import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitPlanes

/// What `analyze` found in one file, in the shape `--json` prints.
package struct AnalysisReport: Encodable {
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
    /// The planes, largest first (plane k has label k in the label image), each with its
    /// inlier indices when `--indices` asked for them; printed as `"planes"`.
    let planeEntries: [PlaneEntry]
    /// The organized detector's noise model and scale for this cloud (`nil` for an unorganized one).
    let sensor: SensorSettings?

    /// The planes, largest first; plane k has label k in the label image.
    var planes: [DetectedPlane] { planeEntries.map(\.plane) }

    package init(file: String, cloud: PointCloud, result: PlaneDetectionResult, up: SIMD3<Float>, elapsed: Duration, withIndices: Bool = false) {
        self.file = file
        width = cloud.width
        height = cloud.height
        organized = cloud.isOrganized
        validPoints = result.validPointCount
        self.up = up
        milliseconds = elapsed.milliseconds
        let indices = withIndices ? AnalysisReport.inlierIndices(labels: result.labels, planes: result.planes.count) : nil
        planeEntries = result.planes.enumerated().map { PlaneEntry(plane: $1, indices: indices?[$0]) }
        sensor = result.sensorSettings
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
        case file, width, height, organized, validPoints, up, milliseconds, planeEntries = "planes", sensor
    }

    /// A plane as ``DetectedPlane`` encodes it, with `"indices"` (its inlier indices, row-major)
    /// added inside it when asked for.
    struct PlaneEntry: Encodable {
        let plane: DetectedPlane
        let indices: [Int]?

        private enum IndexKey: String, CodingKey { case indices }

        func encode(to encoder: any Encoder) throws {
            try plane.encode(to: encoder)
            var container = encoder.container(keyedBy: IndexKey.self)
            try container.encodeIfPresent(indices, forKey: .indices)
        }
    }
}

/// JSON text with stable key order, so output diffs cleanly.
package enum JSONOutput {
    package static func string<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
