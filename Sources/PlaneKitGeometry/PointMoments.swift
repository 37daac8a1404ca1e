/// Running first and second moments of a point set: enough to fit a plane by least squares
/// and to merge two sets without revisiting their points.
///
/// Sums are kept in `Double`: a VGA frame adds 300 000 squared coordinates, which `Float`
/// would round badly. Adding, merging and removing are exact inverses, so region growing can
/// combine cells cheaply.
public struct PointMoments: Hashable, Sendable, Codable {
    /// How many points were added.
    public var count: Int = 0
    /// Σp.
    public var sum: SIMD3<Double> = .zero
    /// Σx², Σy², Σz².
    public var sumSquares: SIMD3<Double> = .zero
    /// Σxy, Σxz, Σyz.
    public var sumCross: SIMD3<Double> = .zero

    /// No points.
    public init() {}

    /// The moments of `points` (non-finite points skipped).
    public init<S: Sequence>(_ points: S) where S.Element == SIMD3<Float> {
        for p in points where p.isFinite { add(p) }
    }

    /// Adds one point.
    @inlinable public mutating func add(_ p: SIMD3<Float>) {
        let d = SIMD3<Double>(p)
        count += 1
        sum += d
        sumSquares += d * d
        sumCross += SIMD3(d.x * d.y, d.x * d.z, d.y * d.z)
    }

    /// Adds every point of `other`.
    @inlinable public mutating func merge(_ other: PointMoments) {
        count += other.count
        sum += other.sum
        sumSquares += other.sumSquares
        sumCross += other.sumCross
    }

    /// The union of two point sets' moments.
    @inlinable public static func + (a: PointMoments, b: PointMoments) -> PointMoments {
        var result = a
        result.merge(b)
        return result
    }

    /// The mean point, or `nil` for no points.
    public var centroid: SIMD3<Float>? {
        count > 0 ? SIMD3<Float>(sum / Double(count)) : nil
    }

    /// The least-squares plane fit of the points.
    public struct Fit: Sendable {
        /// The best-fitting plane (normal along the smallest eigenvector of the covariance).
        public let plane: Plane
        /// The mean point.
        public let centroid: SIMD3<Float>
        /// Covariance eigenvalues, ascending (m²). The smallest is the mean squared distance of
        /// the points from the plane.
        public let eigenvalues: SIMD3<Float>
        /// The direction of greatest spread within the plane.
        public let majorAxis: SIMD3<Float>

        /// The root-mean-square distance of the points from the plane (m).
        public var rmsDistance: Float { max(0, eigenvalues.x).squareRoot() }

        /// The smallest eigenvalue over their sum: 0 for a perfect plane, 1/3 for an isotropic blob.
        /// Called "surface variation" or curvature in PCL.
        public var curvature: Float {
            let total = eigenvalues.sum()
            return total > 0 ? max(0, eigenvalues.x) / total : 0
        }
    }

    /// The least-squares plane through the points, or `nil` with fewer than three points or when
    /// they do not span a plane (all on one line).
    public var fit: Fit? {
        guard count >= 3 else { return nil }
        let c = PointCovariance(self)
        let mean = c.mean
        let eigen = SymmetricEigenDecomposition(a00: c.c00, a01: c.c01, a02: c.c02, a11: c.c11, a12: c.c12, a22: c.c22)
        // Collinear points leave two eigenvalues near zero: the plane is undetermined.
        guard eigen.values.z > 0, eigen.values.y > 1e-9 * eigen.values.z else { return nil }
        let centroid = SIMD3<Float>(mean)
        guard let plane = Plane(point: centroid, normal: SIMD3<Float>(eigen.smallestVector)) else { return nil }
        return Fit(plane: plane, centroid: centroid, eigenvalues: SIMD3<Float>(eigen.values),
                   majorAxis: SIMD3<Float>(eigen.largestVector))
    }
}
