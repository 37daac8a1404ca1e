import PlaneKitGeometry
import PlaneKitInput

/// The sampled depth of a session's latest frames, in the session's world: what a relocalization
/// attempt checks against the map. Relocalization decides on evidence, and a view's evidence
/// comes and goes as the camera turns — a table leaves the view as the corner that fixes the
/// registration comes in — so what the last few tracked frames saw counts together (they share
/// one session world, so their points agree to within the tracking's drift over a fraction of a
/// second).
public struct RecentSamples: Sendable {
    /// How many frames are kept.
    public let frameLimit: Int
    /// Pixels between samples of a frame (both directions).
    public let pixelStride: Int
    /// Side of the voxels that count a surface once however many frames saw it (m).
    public let voxelSize: Float
    /// Samples farther from their camera than this (m) are left out of ``distinct()``: the depth
    /// noise of a consumer depth sensor there (σ ≈ 2 cm at 3.5 m, growing with the square of the
    /// range) is as large as the few centimetres that tell furniture from a wall.
    public let precisionRange: Float
    /// The kept frames' samples (session world) with their depth in the camera, oldest first.
    private var frames: [[(point: SIMD3<Float>, normal: SIMD3<Float>, depth: Float)]] = []

    /// An empty window of `frameLimit` frames (10: a third of a second at 30 fps), sampled every
    /// `pixelStride` pixels, counted in `voxelSize` voxels up to `precisionRange`.
    public init(frameLimit: Int = 10, pixelStride: Int = 16, voxelSize: Float = 0.02, precisionRange: Float = 3.5) {
        self.frameLimit = max(1, frameLimit)
        self.pixelStride = max(1, pixelStride)
        self.voxelSize = voxelSize
        self.precisionRange = precisionRange
    }

    /// The latest frame's samples (session world), empty before the first.
    public var latest: [(point: SIMD3<Float>, normal: SIMD3<Float>)] { (frames.last ?? []).map { ($0.point, $0.normal) } }

    /// Samples `cloud` (organized, camera coordinates) seen from `pose` (session world) and
    /// forgets the oldest frame beyond ``frameLimit``.
    public mutating func add(_ cloud: PointCloud, pose: Transform) {
        let samples = MapPointSampler.samples(of: cloud, stride: pixelStride, reach: 4).map { (p, n) in
            (point: pose.apply(toPoint: p), normal: pose.apply(toDirection: n), depth: p.z)
        }
        frames.append(samples)
        if frames.count > frameLimit { frames.removeFirst(frames.count - frameLimit) }
    }

    /// Forgets every frame.
    public mutating func removeAll() { frames.removeAll() }

    /// The kept samples within ``precisionRange`` of their camera, at most one per voxel (the
    /// newest), so that a surface seen by several frames counts by its area, not by how long it
    /// stayed in view.
    public func distinct() -> [(point: SIMD3<Float>, normal: SIMD3<Float>)] {
        var seen = Set<SIMD3<Int32>>()
        var result: [(point: SIMD3<Float>, normal: SIMD3<Float>)] = []
        for frame in frames.reversed() {
            for sample in frame where sample.depth <= precisionRange {
                let key = SparsePointMap.voxel(of: sample.point, size: voxelSize)
                if seen.insert(key).inserted { result.append((sample.point, sample.normal)) }
            }
        }
        return result
    }
}
