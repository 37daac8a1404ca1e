#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry
import PlaneKitInput

/// The latest frame's measured points in world coordinates, kept compact for ray queries
/// (estimated planes and feature points).
///
/// The points are subsampled to at most ``maximumCount`` (every k-th finite point, so an
/// organized frame keeps an even spread) and stored as three flat coordinate arrays, so a query
/// is one linear pass of a few multiply-adds per point with no reference counting: about
/// 0.1 ms for the default 60 000 points, far below a frame's time, for a query made once per
/// touch or tracked ray.
public struct MeasuredPoints: Sendable {
    /// Subsampled x, y and z, world coordinates.
    @usableFromInline let xs: ContiguousArray<Float>
    @usableFromInline let ys: ContiguousArray<Float>
    @usableFromInline let zs: ContiguousArray<Float>

    /// The default cap on stored points.
    public static let defaultMaximumCount = 60_000

    /// How many points are kept.
    public var count: Int { xs.count }

    /// The cap the points were subsampled to.
    public let maximumCount: Int

    /// Points from any collection (world coordinates), skipping non-finite ones and keeping
    /// every k-th of the rest so that at most `maximumCount` remain.
    public init<C: Collection>(_ points: C, maximumCount: Int = MeasuredPoints.defaultMaximumCount)
    where C.Element == SIMD3<Float> {
        let cap = max(1, maximumCount)
        var finite = 0
        for p in points where p.isFinite { finite += 1 }
        let stride = max(1, (finite + cap - 1) / cap)
        var xs = ContiguousArray<Float>(), ys = ContiguousArray<Float>(), zs = ContiguousArray<Float>()
        let kept = (finite + stride - 1) / stride
        xs.reserveCapacity(kept); ys.reserveCapacity(kept); zs.reserveCapacity(kept)
        var k = 0
        for p in points where p.isFinite {
            if k % stride == 0 {
                xs.append(p.x); ys.append(p.y); zs.append(p.z)
            }
            k += 1
        }
        self.xs = xs
        self.ys = ys
        self.zs = zs
        self.maximumCount = cap
    }

    /// Points that are already finite and in world coordinates, given as three coordinate
    /// columns of equal length and kept as they are: for a caller that sampled a frame itself,
    /// so the points are neither checked nor copied again. The cap is the larger of the count
    /// and ``defaultMaximumCount``.
    package init(xs: ContiguousArray<Float>, ys: ContiguousArray<Float>, zs: ContiguousArray<Float>) {
        precondition(xs.count == ys.count && ys.count == zs.count, "coordinate columns of one length")
        self.xs = xs
        self.ys = ys
        self.zs = zs
        maximumCount = max(MeasuredPoints.defaultMaximumCount, xs.count)
    }

    /// A cloud's points moved into the world with `worldFromCloud`.
    public init(cloud: PointCloud, worldFromCloud: Transform = .identity,
                maximumCount: Int = MeasuredPoints.defaultMaximumCount) {
        if worldFromCloud == .identity {
            self.init(cloud.points, maximumCount: maximumCount)
        } else {
            self.init(cloud.points.lazy.map { worldFromCloud.apply(toPoint: $0) }, maximumCount: maximumCount)
        }
    }

    /// The point at `index`.
    @inlinable public subscript(index: Int) -> SIMD3<Float> {
        SIMD3(xs[index], ys[index], zs[index])
    }

    /// The point most nearly in the ray's direction (smallest angle seen from the origin),
    /// within `maximumAngle` radians and in front of the origin; ties go to the nearer point.
    /// Returns its index and its distance along the ray.
    public func nearestToRay(_ ray: Ray, maximumAngle: Float) -> (index: Int, distance: Float)? {
        var bestIndex = -1, bestRatio = Float.infinity, bestT = Float.infinity
        forEachPoint(inConeOf: ray, maximumAngle: maximumAngle) { i, t, squared in
            let ratio = (squared - t * t) / squared
            if ratio < bestRatio || (ratio == bestRatio && t < bestT) {
                (bestIndex, bestRatio, bestT) = (i, ratio, t)
            }
        }
        return bestIndex < 0 ? nil : (bestIndex, bestT)
    }

    /// The distances along the ray of every point within `maximumAngle` of it (in front of the
    /// origin), ascending.
    public func distancesInCone(_ ray: Ray, maximumAngle: Float) -> [Float] {
        var result: [Float] = []
        forEachPoint(inConeOf: ray, maximumAngle: maximumAngle) { _, t, _ in result.append(t) }
        result.sort()
        return result
    }

    /// Calls `body(index, t, |v|²)` for every point within `maximumAngle` of the ray and in front
    /// of its origin, where `v` runs from the origin to the point and `t = v·d` is its distance
    /// along the ray. One pass over the flat coordinate arrays; the body is inlined.
    @inline(__always)
    private func forEachPoint(inConeOf ray: Ray, maximumAngle: Float, _ body: (Int, Float, Float) -> Void) {
        let o = ray.origin, d = ray.direction
        // sin²(angle) = |v × d|² / |v|² = (|v|² − t²) / |v|²; compared without a square root or a
        // division per point.
        let limit = sinSquared(maximumAngle)
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                zs.withUnsafeBufferPointer { zs in
                    for i in 0..<xs.count {
                        let vx = xs[i] - o.x, vy = ys[i] - o.y, vz = zs[i] - o.z
                        let t = vx * d.x + vy * d.y + vz * d.z
                        guard t > 0 else { continue }
                        let squared = vx * vx + vy * vy + vz * vz
                        if squared - t * t <= limit * squared { body(i, t, squared) }
                    }
                }
            }
        }
    }

    /// Every point within `radius` of `center`.
    public func points(within radius: Float, of center: SIMD3<Float>) -> [SIMD3<Float>] {
        let r2 = radius * radius
        var result: [SIMD3<Float>] = []
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                zs.withUnsafeBufferPointer { zs in
                    for i in 0..<xs.count {
                        let dx = xs[i] - center.x, dy = ys[i] - center.y, dz = zs[i] - center.z
                        if dx * dx + dy * dy + dz * dz <= r2 { result.append(SIMD3(xs[i], ys[i], zs[i])) }
                    }
                }
            }
        }
        return result
    }

    private func sinSquared(_ angle: Float) -> Float {
        guard angle.isFinite else { return angle > 0 ? 1 : 0 }
        let a = min(max(angle, 0), .pi / 2)
        let s = sinf(a)
        return s * s
    }
}
