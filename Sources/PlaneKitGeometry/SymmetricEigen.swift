/// The eigen-decomposition of a real symmetric 3×3 matrix.
///
/// Plane fitting needs the eigenvector of a covariance matrix with the smallest eigenvalue; a
/// cyclic Jacobi iteration gives it to full `Double` precision in a few sweeps with no branch
/// that can fail, which matters when the matrix is nearly singular (a perfect plane). It works
/// in fixed-size inline storage, so it allocates nothing and is cheap enough to run per grid cell.
public struct SymmetricEigenDecomposition: Sendable {
    /// Eigenvalues in ascending order.
    public let values: SIMD3<Double>
    /// Unit eigenvector of the smallest eigenvalue.
    public let smallestVector: SIMD3<Double>
    /// Unit eigenvector of the middle eigenvalue.
    public let middleVector: SIMD3<Double>
    /// Unit eigenvector of the largest eigenvalue.
    public let largestVector: SIMD3<Double>

    /// Decomposes the symmetric matrix with diagonal `(a00, a11, a22)` and off-diagonal
    /// `(a01, a02, a12)`.
    public init(a00: Double, a01: Double, a02: Double, a11: Double, a12: Double, a22: Double) {
        // Row-major 3x3 storage: element (r, c) at 3r + c.
        var a: InlineArray<9, Double> = [a00, a01, a02, a01, a11, a12, a02, a12, a22]
        var v: InlineArray<9, Double> = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        let pairs: InlineArray<3, (Int, Int)> = [(0, 1), (0, 2), (1, 2)]
        for _ in 0..<32 {
            let off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5]
            let diagonal = a[0] * a[0] + a[4] * a[4] + a[8] * a[8]
            if off <= 1e-30 * max(diagonal, 1e-300) { break }
            for i in 0..<3 {
                let (p, q) = pairs[i]
                let apq = a[3 * p + q]
                if apq == 0 { continue }
                // Rotate in the (p, q) plane so that a[p][q] becomes zero
                // (Golub & Van Loan, the symmetric Schur step).
                let theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot()
                let s = t * c
                for k in 0..<3 {
                    let akp = a[3 * k + p], akq = a[3 * k + q]
                    a[3 * k + p] = c * akp - s * akq
                    a[3 * k + q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[3 * p + k], aqk = a[3 * q + k]
                    a[3 * p + k] = c * apk - s * aqk
                    a[3 * q + k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[3 * k + p], vkq = v[3 * k + q]
                    v[3 * k + p] = c * vkp - s * vkq
                    v[3 * k + q] = s * vkp + c * vkq
                }
            }
        }
        var order = (0, 1, 2)
        if a[3 * order.1 + order.1] < a[3 * order.0 + order.0] { order = (order.1, order.0, order.2) }
        if a[3 * order.2 + order.2] < a[3 * order.1 + order.1] { order = (order.0, order.2, order.1) }
        if a[3 * order.1 + order.1] < a[3 * order.0 + order.0] { order = (order.1, order.0, order.2) }
        values = SIMD3(a[4 * order.0], a[4 * order.1], a[4 * order.2])
        smallestVector = SIMD3(v[order.0], v[3 + order.0], v[6 + order.0])
        middleVector = SIMD3(v[order.1], v[3 + order.1], v[6 + order.1])
        largestVector = SIMD3(v[order.2], v[3 + order.2], v[6 + order.2])
    }
}
