/// The mean and covariance of a point set, from its ``PointMoments``.
///
/// Both the general plane fit (``PointMoments/fit``) and the detector's direct fits start
/// from these six entries; the functions are inlinable because the detector forms them for every
/// grid cell and region it fits.
public struct PointCovariance: Sendable {
    /// The mean point.
    public var mean: SIMD3<Double>
    /// The xx, yy and zz entries.
    public var c00, c11, c22: Double
    /// The xy, xz and yz entries.
    public var c01, c02, c12: Double

    /// The covariance of the points behind `moments`, which must hold at least one point.
    @inlinable public init(_ moments: PointMoments) {
        let n = Double(moments.count)
        mean = moments.sum / n
        c00 = moments.sumSquares.x / n - mean.x * mean.x
        c11 = moments.sumSquares.y / n - mean.y * mean.y
        c22 = moments.sumSquares.z / n - mean.z * mean.z
        c01 = moments.sumCross.x / n - mean.x * mean.y
        c02 = moments.sumCross.y / n - mean.x * mean.z
        c12 = moments.sumCross.z / n - mean.y * mean.z
    }

    /// The variance along the unit vector `u`: uᵀCu.
    @inlinable public func spread(along u: SIMD3<Double>) -> Double {
        c00 * u.x * u.x + c11 * u.y * u.y + c22 * u.z * u.z + 2 * (c01 * u.x * u.y + c02 * u.x * u.z + c12 * u.y * u.z)
    }
}
