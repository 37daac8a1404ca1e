import PlaneKitGeometry

/// A least-squares plane from point moments, computed directly.
///
/// The detector fits one plane per grid cell (7 000 for a 512×512 scan at object scale) and
/// refits regions while they grow, so the general Jacobi solver of `PointMoments.fit` would cost
/// a large share of the frame budget. For a symmetric 3×3 covariance the smallest eigenvalue is
/// the smallest root of a cubic, found by a few Newton steps (no trigonometric functions, which
/// took most of a fit's time), and its eigenvector is the largest cross product of two rows of
/// `C − λ₀I`. That vector is well conditioned exactly when the points are planar (λ₀ ≪ λ₁), the
/// only case where the normal matters; the residual is then recomputed as `nᵀCn`, which does not
/// suffer from cancellation in λ₀.
struct FastPlaneFit {
    /// Unit normal (sign arbitrary).
    var normal: SIMD3<Double>
    /// The mean point.
    var centroid: SIMD3<Double>
    /// Mean squared distance of the points from the plane (m²).
    var meanSquaredError: Double
    /// The middle covariance eigenvalue: the spread along the in-plane direction of least spread
    /// (m²). Small values mean a sliver, whose normal is poorly determined.
    var middleEigenvalue: Double
    /// The number of points.
    var count: Int

    /// The fit of `moments`, or `nil` with fewer than three points or no defined plane.
    ///
    /// `noise` is the scatter that sensor noise alone adds to the points (see ``NoiseScatter``).
    /// Depth noise displaces points along their viewing rays, which inflates the scatter along
    /// the ray and tilts a least-squares normal towards being perpendicular to it: for a patch
    /// whose width is only a few times the noise (a grid cell at 4 m) the tilt reaches several
    /// degrees. The normal is therefore taken from the scatter with the noise's share removed;
    /// ``meanSquaredError`` stays the measured residual along that normal.
    init?(_ moments: PointMoments, noise: NoiseScatter = NoiseScatter()) {
        guard moments.count >= 3 else { return nil }
        let c = PointCovariance(moments)
        let d = noise.diagonal / Double(moments.count), o = noise.offDiagonal / Double(moments.count)
        self.init(c00: c.c00 - d.x, c01: c.c01 - o.x, c02: c.c02 - o.y, c11: c.c11 - d.y, c12: c.c12 - o.z, c22: c.c22 - d.z,
                  centroid: c.mean, count: moments.count)
        // The residual actually measured along the normal, noise included.
        meanSquaredError = max(0, c.spread(along: normal))
    }

    /// The fit of the covariance with entries `cij`, or `nil` when it does not define a plane.
    init?(c00: Double, c01: Double, c02: Double, c11: Double, c12: Double, c22: Double,
          centroid: SIMD3<Double>, count: Int) {
        let trace = c00 + c11 + c22
        guard trace > 0, trace.isFinite else { return nil }
        // (With noise removed the matrix may be slightly indefinite; the start below allows for it.)
        let q = trace / 3
        let offDiagonal = c01 * c01 + c02 * c02 + c12 * c12
        let d0 = c00 - q, d1 = c11 - q, d2 = c22 - q
        let p = ((d0 * d0 + d1 * d1 + d2 * d2 + 2 * offDiagonal) / 6).squareRoot()
        // Isotropic: every direction is an eigenvector; no plane.
        guard p > 1e-15 * q else { return nil }
        // The smallest root of the characteristic polynomial f(λ) = det(C − λI) = −λ³ + tλ² − mλ + d
        // by Newton's method from its left, where f falls and is convex, so every step moves right
        // and stays left of the root. When m > 0 and d ≥ 0 no eigenvalue is negative and the
        // start is d / m, the first step from 0; otherwise Gershgorin's lowest disc edge. A
        // plane's λ₀ ≪ λ₁ converges in two or three steps, to 10⁻¹⁰ of the trace: the normal
        // is then off by about 10⁻¹⁰ · trace / (λ₁ − λ₀).
        let m = c00 * c11 + c00 * c22 + c11 * c22 - offDiagonal
        let d = c00 * (c11 * c22 - c12 * c12) - c01 * (c01 * c22 - c12 * c02) + c02 * (c01 * c12 - c11 * c02)
        var smallest = m > 0 && d >= 0 ? d / m : min(c00 - abs(c01) - abs(c02), c11 - abs(c01) - abs(c12), c22 - abs(c02) - abs(c12))
        for _ in 0..<64 {
            let f = ((trace - smallest) * smallest - m) * smallest + d
            let slope = (2 * trace - 3 * smallest) * smallest - m
            guard f > 0, slope < 0 else { break }
            let step = f / slope
            smallest -= step
            guard -step > 1e-10 * trace else { break }
        }
        // The other two roots sum to t − λ₀ and multiply to m − λ₀(t − λ₀).
        let rest = trace - smallest, product = m - smallest * rest
        let middle = (rest - max(0, rest * rest - 4 * product).squareRoot()) / 2
        // Rows of C − λ₀I; the null vector is perpendicular to all of them.
        let r0 = SIMD3(c00 - smallest, c01, c02)
        let r1 = SIMD3(c01, c11 - smallest, c12)
        let r2 = SIMD3(c02, c12, c22 - smallest)
        let x01 = Self.cross(r0, r1), x02 = Self.cross(r0, r2), x12 = Self.cross(r1, r2)
        let l01 = (x01 * x01).sum(), l02 = (x02 * x02).sum(), l12 = (x12 * x12).sum()
        var best = x01, bestLength = l01
        if l02 > bestLength { (best, bestLength) = (x02, l02) }
        if l12 > bestLength { (best, bestLength) = (x12, l12) }
        guard bestLength > 0, bestLength.isFinite else { return nil }
        let unit = best / bestLength.squareRoot()
        let cn = SIMD3(c00 * unit.x + c01 * unit.y + c02 * unit.z,
                       c01 * unit.x + c11 * unit.y + c12 * unit.z,
                       c02 * unit.x + c12 * unit.y + c22 * unit.z)
        normal = unit
        self.centroid = centroid
        meanSquaredError = max(0, (cn * unit).sum())
        middleEigenvalue = max(0, middle)
        self.count = count
    }

    @inline(__always) static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// The mean squared distance from this plane of the points behind `moments`.
    func meanSquaredDistance(of moments: PointMoments) -> Double {
        guard moments.count > 0 else { return 0 }
        let c = PointCovariance(moments)
        let shift = ((c.mean - centroid) * normal).sum()
        return max(0, c.spread(along: normal)) + shift * shift
    }

    /// The plane, its normal turned to face `viewpoint`.
    func plane(facing viewpoint: SIMD3<Float>) -> Plane {
        var n = SIMD3<Float>(normal)
        let c = SIMD3<Float>(centroid)
        if dot(n, viewpoint - c) < 0 { n = -n }
        return Plane(unitNormal: n, offset: -dot(n, c))
    }
}

/// The scatter Σ σ²·(p/z)(p/z)ᵀ that depth noise alone adds to a set of points: a depth error δz
/// moves the point `p` by `(δz/z)·p`, along its viewing ray. Summed per cell (count × σ² at the
/// centroid's depth × the centroid's ray), it is exact enough for the small spread of rays in
/// a cell.
struct NoiseScatter {
    /// Σ for the xx, yy, zz entries.
    var diagonal: SIMD3<Double> = .zero
    /// Σ for the xy, xz, yz entries.
    var offDiagonal: SIMD3<Double> = .zero

    init() {}

    /// The noise scatter of `count` points around `centroid` with depth noise `sigma`.
    init(count: Int, centroid: SIMD3<Float>, sigma: Float) {
        guard centroid.z > 0 else { return }
        let r = SIMD3<Double>(centroid / centroid.z)
        let w = Double(count) * Double(sigma) * Double(sigma)
        diagonal = w * r * r
        offDiagonal = w * SIMD3(r.x * r.y, r.x * r.z, r.y * r.z)
    }

    static func += (a: inout NoiseScatter, b: NoiseScatter) {
        a.diagonal += b.diagonal
        a.offDiagonal += b.offDiagonal
    }
}
