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
    /// The kept frames' samples (session world), oldest first.
    private var frames: [[(point: SIMD3<Float>, normal: SIMD3<Float>)]] = []

    /// An empty window of `frameLimit` frames (10: a third of a second at 30 fps), sampled every
    /// `pixelStride` pixels, counted in `voxelSize` voxels.
    public init(frameLimit: Int = 10, pixelStride: Int = 16, voxelSize: Float = 0.02) {
        self.frameLimit = max(1, frameLimit)
        self.pixelStride = max(1, pixelStride)
        self.voxelSize = voxelSize
    }

    /// The latest frame's samples (session world), empty before the first.
    public var latest: [(point: SIMD3<Float>, normal: SIMD3<Float>)] { frames.last ?? [] }

    /// Samples `cloud` (organized, camera coordinates) seen from `pose` (session world) and
    /// forgets the oldest frame beyond ``frameLimit``.
    public mutating func add(_ cloud: PointCloud, pose: Transform) {
        let samples = MapPointSampler.samples(of: cloud, stride: pixelStride, reach: 4).map { (p, n) in
            (point: pose.apply(toPoint: p), normal: pose.apply(toDirection: n))
        }
        frames.append(samples)
        if frames.count > frameLimit { frames.removeFirst(frames.count - frameLimit) }
    }

    /// Forgets every frame.
    public mutating func removeAll() { frames.removeAll() }

    /// The kept samples, at most one per voxel (the newest), so that a surface seen by several
    /// frames counts by its area, not by how long it stayed in view.
    public func distinct() -> [(point: SIMD3<Float>, normal: SIMD3<Float>)] {
        var seen = Set<SIMD3<Int32>>()
        var result: [(point: SIMD3<Float>, normal: SIMD3<Float>)] = []
        for frame in frames.reversed() {
            for sample in frame {
                let key = SparsePointMap.voxel(of: sample.point, size: voxelSize)
                if seen.insert(key).inserted { result.append(sample) }
            }
        }
        return result
    }
}
