import PlaneKit

/// Pictures of a segmentation a person can look at: each plane in its own colour, shaded by
/// depth so shapes read, other measured points in grey, holes black, plane borders darkened.
struct SegmentationPicture {
    let cloud: PointCloud
    let result: PlaneDetectionResult

    /// The colour of plane `label` (1-based): hues spaced by the golden angle, so neighbouring
    /// labels never look alike.
    static func colour(label: Int) -> SIMD3<Float> {
        let hue = (Float(label) * 0.618_034).truncatingRemainder(dividingBy: 1)
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

    /// The RGB picture, one pixel per point of the organized cloud.
    func image() throws -> RGBImage {
        let (width, height) = (cloud.width, cloud.height)
        let depths = cloud.points.lazy.filter(\.isFinite).map { $0.length }
        let far = max(depths.max() ?? 1, 0.5)
        var pixels = ContiguousArray<SIMD3<UInt8>>(repeating: .zero, count: width * height)
        for v in 0..<height {
            for u in 0..<width {
                let i = v * width + u
                let p = cloud.points[i]
                guard p.isFinite else { continue }
                // Nearer is brighter: 1.0 at the sensor, 0.45 at the farthest point.
                let shade = 1 - 0.55 * min(1, p.length / far)
                let label = Int(result.labels[i])
                var rgb: SIMD3<Float>
                if label == 0 {
                    rgb = SIMD3(repeating: 0.55 * shade)
                } else {
                    rgb = SegmentationPicture.colour(label: label) * shade
                    if isBorder(u, v, label: result.labels[i]) { rgb *= 0.35 }
                }
                pixels[i] = SIMD3<UInt8>(clamping: SIMD3<Int32>((rgb * 255).rounded(.toNearestOrEven)))
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    private func isBorder(_ u: Int, _ v: Int, label: UInt16) -> Bool {
        let labels = result.labels, width = cloud.width
        return (u > 0 && labels[v * width + u - 1] != label) || (u + 1 < width && labels[v * width + u + 1] != label)
            || (v > 0 && labels[(v - 1) * width + u] != label) || (v + 1 < cloud.height && labels[(v + 1) * width + u] != label)
    }

    /// The cloud with each point coloured by its plane (grey for points on no plane).
    static func colouredCloud(_ cloud: PointCloud, result: PlaneDetectionResult) -> PointCloud {
        var coloured = cloud
        coloured.colors = ContiguousArray(result.labels.map { label -> SIMD3<UInt8> in
            label == 0 ? SIMD3(140, 140, 140) : SIMD3<UInt8>(clamping: SIMD3<Int32>((colour(label: Int(label)) * 255).rounded(.toNearestOrEven)))
        })
        return coloured
    }
}
