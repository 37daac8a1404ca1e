#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// A careful reference plane fit: RANSAC over three-point hypotheses, then least-squares refits
/// on the inliers until the inlier set settles.
///
/// It is deterministic: the same points, settings and ``seed`` give the same plane. Hypotheses
/// are scored with the truncated quadratic loss of MSAC (Torr & Zisserman), which prefers the
/// hypothesis that fits its inliers best among those with similar support; the number of
/// hypotheses adapts to the inlier ratio found so far (``confidence``). Hypotheses are scored on
/// a regular subsample of at most ``maximumScoringPoints`` points, the refits use every point.
///
/// PlaneKit's accuracy tests use it as ground truth on real frames, and hit testing uses it to
/// estimate a plane from the points near a ray.
public struct RANSACPlaneFitter: Sendable, Hashable {
    /// A point is an inlier when it lies within this distance of the plane (m).
    public var inlierThreshold: Float
    /// The most hypotheses tried.
    public var maximumIterations: Int
    /// Stop trying hypotheses once an all-inlier sample has been drawn with this probability.
    public var confidence: Double
    /// The most least-squares refits after RANSAC.
    public var refinementIterations: Int
    /// Hypotheses are scored on at most this many points.
    public var maximumScoringPoints: Int
    /// The random seed.
    public var seed: UInt64

    /// A fitter with the given settings.
    public init(inlierThreshold: Float = 0.01, maximumIterations: Int = 1000, confidence: Double = 0.999,
                refinementIterations: Int = 20, maximumScoringPoints: Int = 20_000, seed: UInt64 = 0x5EED_F17) {
        self.inlierThreshold = inlierThreshold
        self.maximumIterations = maximumIterations
        self.confidence = confidence
        self.refinementIterations = refinementIterations
        self.maximumScoringPoints = maximumScoringPoints
        self.seed = seed
    }

    /// The result of a fit.
    public struct Fit: Sendable {
        /// The plane, its normal facing the origin (the sensor).
        public var plane: Plane
        /// Indices (into the points given) of the inliers of ``plane``.
        public var inliers: [Int]
        /// Root-mean-square distance of the inliers from ``plane`` (m).
        public var rmsError: Float
        /// How many hypotheses were scored.
        public var iterations: Int

        /// How many inliers ``plane`` has.
        public var inlierCount: Int { inliers.count }
    }

    /// The plane best supported by `points` (non-finite points are ignored), or `nil` when fewer
    /// than three finite points are given or no three of them span a plane.
    public func fit<C: Collection>(_ points: C) -> Fit? where C.Element == SIMD3<Float> {
        var finite = ContiguousArray<SIMD3<Float>>()
        var original = ContiguousArray<Int>()
        finite.reserveCapacity(points.count)
        original.reserveCapacity(points.count)
        for (i, p) in points.enumerated() where p.isFinite {
            finite.append(p)
            original.append(i)
        }
        guard finite.count >= 3, inlierThreshold > 0, inlierThreshold.isFinite else { return nil }
        return finite.withUnsafeBufferPointer { buffer in
            fit(buffer, original: original)
        }
    }

    private func fit(_ points: UnsafeBufferPointer<SIMD3<Float>>, original: ContiguousArray<Int>) -> Fit? {
        var random = SplitMix64(seed: seed)
        let count = points.count
        let scoringStride = max(1, (count + maximumScoringPoints - 1) / max(1, maximumScoringPoints))
        let threshold2 = inlierThreshold * inlierThreshold

        var best: Plane? = nil
        var bestCost = Float.infinity
        var iterations = 0, needed = max(1, maximumIterations)
        while iterations < needed {
            iterations += 1
            let a = random.below(count), b = random.below(count), c = random.below(count)
            guard a != b, b != c, a != c, let hypothesis = Plane(points[a], points[b], points[c]) else { continue }
            var cost: Float = 0, inliers = 0, scored = 0
            var i = 0
            while i < count {
                let d = hypothesis.signedDistance(to: points[i])
                let d2 = d * d
                if d2 < threshold2 { cost += d2; inliers += 1 } else { cost += threshold2 }
                scored += 1
                i += scoringStride
            }
            if cost < bestCost {
                bestCost = cost
                best = hypothesis
                // Adaptive stopping: enough samples to have drawn three inliers with `confidence`.
                let ratio = Double(inliers) / Double(scored)
                let allInliers = pow(ratio, 3)
                if allInliers >= 1 - 1e-12 {
                    needed = iterations
                } else if allInliers > 0 {
                    let k = log(1 - confidence) / log(1 - allInliers)
                    if k.isFinite { needed = min(maximumIterations, max(iterations, Int(k.rounded(.up)))) }
                }
            }
        }
        guard var plane = best else { return nil }

        // Least-squares refits on every inlier until the inlier set stops changing.
        var inliers = inlierIndices(of: plane, in: points)
        for _ in 0..<refinementIterations {
            var moments = PointMoments()
            for i in inliers { moments.add(points[i]) }
            guard let refit = moments.fit?.plane else { break }
            let next = inlierIndices(of: refit, in: points)
            guard next.count >= 3 else { break }
            let settled = next == inliers
            plane = refit
            inliers = next
            if settled { break }
        }
        var squared: Double = 0
        for i in inliers {
            let d = Double(plane.signedDistance(to: points[i]))
            squared += d * d
        }
        return Fit(plane: plane.facing(.zero), inliers: inliers.map { original[$0] },
                   rmsError: Float((squared / Double(max(1, inliers.count))).squareRoot()), iterations: iterations)
    }

    private func inlierIndices(of plane: Plane, in points: UnsafeBufferPointer<SIMD3<Float>>) -> [Int] {
        var result: [Int] = []
        for i in 0..<points.count where abs(plane.signedDistance(to: points[i])) <= inlierThreshold {
            result.append(i)
        }
        return result
    }
}
