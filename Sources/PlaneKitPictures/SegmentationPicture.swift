import PlaneKitDetection
import PlaneKitInput

/// Pictures of a segmentation a person can look at: each plane in its own colour, shaded by
/// depth so shapes read, other measured points in grey, holes black, plane borders darkened.
///
/// The colour of a plane comes from a key: `analyze` keys planes by their label, `stream` by
/// their anchor's identifier, so a tracked surface keeps its colour from frame to frame.
public struct SegmentationPicture: Sendable {
    /// The organized cloud (one pixel per point).
    public let cloud: PointCloud
    /// The label of every point (0 = no plane).
    public let labels: ContiguousArray<UInt16>
    /// The colour key of label `k` at `keys[k − 1]`.
    public let keys: [UInt64]

    /// The picture of `result`, plane `k` coloured by key `k`.
    public init(cloud: PointCloud, result: PlaneDetectionResult) {
        self.init(cloud: cloud, labels: result.labels, keys: result.planes.indices.map { UInt64($0 + 1) })
    }

    /// The picture of `labels` over `cloud`, label `k` coloured by `keys[k − 1]` (labels without
    /// a key are drawn as points on no plane).
    public init(cloud: PointCloud, labels: ContiguousArray<UInt16>, keys: [UInt64]) {
        self.cloud = cloud
        self.labels = labels
        self.keys = keys
    }

    /// The colour of key `key`: hues spaced by the golden angle, so neighbouring keys never
    /// look alike.
    public static func colour(key: UInt64) -> SIMD3<Float> {
        let hue = (Float(key % 1_000_003) * 0.618_034).truncatingRemainder(dividingBy: 1)
        let sector = hue * 6
        let f = sector - sector.rounded(.down)
        let (p, q, t): (Float, Float, Float) = (0.25, 1 - 0.75 * f, 0.25 + 0.75 * f)
        switch Int(sector) % 6 {
        case 0: return SIMD3(1, t, p)
        case 1: return SIMD3(q, 1, p)
        case 2: return SIMD3(p, 1, t)
        case 3: return SIMD3(p, q, 1)
        case 4: return SIMD3(t, p, 1)
        default: return SIMD3(1, p, q)
        }
    }

    /// The RGB picture, one pixel per point of the organized cloud; an error when the cloud
    /// has no image layout or the labels do not cover it.
    public func image() throws(InputError) -> RGBImage {
        let (width, height) = (cloud.width, cloud.height)
        guard cloud.isOrganized, labels.count == cloud.count else {
            throw InputError(source: "picture", problem: "a picture needs an organized cloud with one label per point")
        }
        let palette = keys.map { SegmentationPicture.colour(key: $0) }
        var far: Float = 0.5
        for p in cloud.points where p.isFinite { far = max(far, p.length) }
        var pixels = ContiguousArray<SIMD3<UInt8>>(repeating: .zero, count: width * height)
        for v in 0..<height {
            for u in 0..<width {
                let i = v * width + u
                let p = cloud.points[i]
                guard p.isFinite else { continue }
                // Nearer is brighter: 1.0 at the sensor, 0.45 at the farthest point.
                let shade = 1 - 0.55 * min(1, p.length / far)
                let label = Int(labels[i])
                var rgb: SIMD3<Float>
                if label == 0 || label > palette.count {
                    rgb = SIMD3(repeating: 0.55 * shade)
                } else {
                    rgb = palette[label - 1] * shade
                    if isBorder(u, v, label: labels[i]) { rgb *= 0.35 }
                }
                pixels[i] = SIMD3<UInt8>(clamping: SIMD3<Int32>((rgb * 255).rounded(.toNearestOrEven)))
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    private func isBorder(_ u: Int, _ v: Int, label: UInt16) -> Bool {
        let width = cloud.width
        return (u > 0 && labels[v * width + u - 1] != label) || (u + 1 < width && labels[v * width + u + 1] != label)
            || (v > 0 && labels[(v - 1) * width + u] != label) || (v + 1 < cloud.height && labels[(v + 1) * width + u] != label)
    }

    /// The cloud with each point coloured by its plane (grey for points on no plane).
    public static func colouredCloud(_ cloud: PointCloud, result: PlaneDetectionResult) -> PointCloud {
        var coloured = cloud
        coloured.colors = ContiguousArray(result.labels.map { label -> SIMD3<UInt8> in
            label == 0 ? SIMD3(140, 140, 140) : SIMD3<UInt8>(clamping: SIMD3<Int32>((colour(key: UInt64(label)) * 255).rounded(.toNearestOrEven)))
        })
        return coloured
    }
}
