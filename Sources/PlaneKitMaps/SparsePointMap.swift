import PlaneKitGeometry
import PlaneKitInput

/// A sparse sample of measured surface points with normals, at most one per cubic voxel
/// (5 cm by default): what a world map keeps of the raw depth, and what relocalization checks
/// a candidate registration against. Lookups go through a voxel hash.
public struct SparsePointMap: Sendable {
    /// Side of a voxel (m).
    public let voxelSize: Float
    /// The points (world).
    public private(set) var points: [SIMD3<Float>] = []
    /// Their unit normals.
    public private(set) var normals: [SIMD3<Float>] = []
    /// The most points kept: a bound on memory and map size (2 M points ≈ 30 MB in memory).
    public let capacity: Int
    private var voxels: [SIMD3<Int32>: Int32] = [:]

    /// An empty map of `voxelSize` voxels holding at most `capacity` points.
    public init(voxelSize: Float = 0.05, capacity: Int = 2_000_000) {
        self.voxelSize = voxelSize
        self.capacity = capacity
    }

    /// A map holding `points` and `normals` (the first point of each voxel kept).
    public init(points: [SIMD3<Float>], normals: [SIMD3<Float>], voxelSize: Float = 0.05, capacity: Int = 2_000_000) {
        self.init(voxelSize: voxelSize, capacity: capacity)
        for (p, n) in zip(points, normals) { insert(p, normal: n) }
    }

    /// How many points are kept.
    public var count: Int { points.count }

    /// The voxel holding `p`.
    @inline(__always) func voxel(of p: SIMD3<Float>) -> SIMD3<Int32> { Self.voxel(of: p, size: voxelSize) }

    /// The voxel of side `size` holding `p` (coordinates clamped far out, so no point traps).
    @inline(__always) static func voxel(of p: SIMD3<Float>, size: Float) -> SIMD3<Int32> {
        let q = (p / size).rounded(.down)
        let limit = Float(Int32.max / 2)
        return SIMD3<Int32>(pointwiseMin(pointwiseMax(q, SIMD3(repeating: -limit)), SIMD3(repeating: limit)))
    }

    /// Keeps `p` unless its voxel already holds a point or the map is full; `true` when kept.
    @discardableResult
    public mutating func insert(_ p: SIMD3<Float>, normal n: SIMD3<Float>) -> Bool {
        guard points.count < capacity, p.isFinite, n.isFinite else { return false }
        let key = voxel(of: p)
        guard voxels[key] == nil else { return false }
        voxels[key] = Int32(points.count)
        points.append(p)
        normals.append(n)
        return true
    }

    /// `true` when some kept point within the 27 voxels around `p` lies within `distance` of
    /// `p`'s plane along its own normal, with a normal within `normalCosine` of `n` (either
    /// orientation is fine for open surfaces, so the absolute cosine is compared).
    public func supports(_ p: SIMD3<Float>, normal n: SIMD3<Float>, distance: Float, normalCosine: Float) -> Bool {
        let c = voxel(of: p)
        for dz in Int32(-1)...1 {
            for dy in Int32(-1)...1 {
                for dx in Int32(-1)...1 {
                    guard let i = voxels[c &+ SIMD3(dx, dy, dz)] else { continue }
                    let q = points[Int(i)], m = normals[Int(i)]
                    if abs(dot(m, p - q)) <= distance, abs(dot(m, n)) >= normalCosine { return true }
                }
            }
        }
        return false
    }

    /// The map moved by `transform` (a rigid change of world).
    public func transformed(by transform: Transform) -> SparsePointMap {
        SparsePointMap(points: points.map(transform.apply(toPoint:)), normals: normals.map(transform.apply(toDirection:)),
                       voxelSize: voxelSize, capacity: capacity)
    }
}

/// Takes keyframes from a session's frames and samples their depth into a ``SparsePointMap``
/// (world): a frame becomes a keyframe when it is the first, or the camera has moved
/// ``keyframeTravel`` (0.3 m) or turned ``keyframeTurn`` (15°) since the last keyframe. A
/// keyframe is sampled every ``pixelStride`` (8) pixels of every 8th row; each sample's normal
/// comes from its neighbours ``normalReach`` (4) pixels away on either side at 1 m, farther with
/// depth (12 pixels from 3 m: a Kinect's depth steps are 2.6 cm there, and 4 pixels apart they
/// turned normals by a median 17° on a flat wall), and a sample at a depth edge (neighbours more
/// than 5 cm + 2 % of the depth away) is skipped.
public struct MapPointSampler: Sendable {
    /// Distance (m) after which a new keyframe is taken.
    public var keyframeTravel: Float = 0.3
    /// Turn (rad) after which a new keyframe is taken.
    public var keyframeTurn: Float = 15 * .pi / 180
    /// Pixels between samples, in both directions.
    public var pixelStride = 8
    /// Pixels to the neighbours a normal is taken from, at 1 m depth.
    public var normalReach = 4
    /// The sampled points.
    public private(set) var points = SparsePointMap()
    /// The keyframe poses (world-from-camera).
    public private(set) var keyframes: [Transform] = []

    /// A sampler with nothing sampled.
    public init() {}

    /// A sampler continuing from a loaded map's keyframes and points.
    public init(keyframes: [Transform], points: SparsePointMap) {
        self.keyframes = keyframes
        self.points = points
    }

    /// `true` when a frame with camera `pose` would be a keyframe.
    public func isKeyframe(_ pose: Transform) -> Bool {
        guard let last = keyframes.last else { return true }
        return distance(last.translation, pose.translation) >= keyframeTravel || last.zAxis.angle(to: pose.zAxis) >= keyframeTurn
    }

    /// Samples `cloud` (organized, camera coordinates) seen from `pose` when it is a keyframe;
    /// returns whether it was.
    @discardableResult
    public mutating func add(_ cloud: PointCloud, pose: Transform) -> Bool {
        guard cloud.isOrganized, isKeyframe(pose) else { return false }
        keyframes.append(pose)
        let samples = MapPointSampler.samples(of: cloud, stride: pixelStride, reach: normalReach)
        for (p, n) in samples { points.insert(pose.apply(toPoint: p), normal: pose.apply(toDirection: n)) }
        return true
    }

    /// Every sample of `cloud` (camera coordinates): points on a `stride` grid with a normal
    /// from neighbours `reach` pixels away at 1 m depth (farther out with depth, at most three
    /// times), facing the camera; depth edges skipped.
    public static func samples(of cloud: PointCloud, stride: Int, reach: Int) -> [(SIMD3<Float>, SIMD3<Float>)] {
        let w = cloud.width, h = cloud.height
        var result: [(SIMD3<Float>, SIMD3<Float>)] = []
        guard w > 2 * reach, h > 2 * reach else { return result }
        result.reserveCapacity((w / stride + 1) * (h / stride + 1))
        cloud.points.withUnsafeBufferPointer { pts in
            var v = reach
            while v < h - reach {
                var u = reach
                while u < w - reach {
                    let p = pts[v * w + u]
                    // Depth steps grow with the square of depth, a pixel's width with depth: the
                    // neighbours move out with depth (`reach` pixels at 1 m, up to three times
                    // that) so that a normal spans more than a step or two. The depth is clamped
                    // before the conversion: a damaged frame's can be any float.
                    let scaled = p.z.isFinite ? Int(Float(reach) * min(3, max(1, p.z))) : reach
                    let r = min(scaled, u, w - 1 - u, v, h - 1 - v)
                    let left = pts[v * w + u - r], right = pts[v * w + u + r]
                    let up = pts[(v - r) * w + u], down = pts[(v + r) * w + u]
                    if p.isFinite, left.isFinite, right.isFinite, up.isFinite, down.isFinite {
                        let edge = 0.05 + 0.02 * p.z
                        if abs(left.z - p.z) < edge, abs(right.z - p.z) < edge, abs(up.z - p.z) < edge, abs(down.z - p.z) < edge,
                           var n = cross(right - left, down - up).normalized {
                            if dot(n, p) > 0 { n = -n }
                            result.append((p, n))
                        }
                    }
                    u += stride
                }
                v += stride
            }
        }
        return result
    }
}
