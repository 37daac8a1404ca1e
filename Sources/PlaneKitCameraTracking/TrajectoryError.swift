import PlaneKitGeometry

/// How far an estimated camera trajectory is from a reference one: the estimate is moved
/// rigidly so that its first pose coincides with the reference's first pose, then the camera
/// positions are compared frame by frame (absolute trajectory error with first-frame alignment,
/// which charges all drift to the estimate, and is what an AR user sees: content stays where it
/// was placed at the start). ``rigidFitRMSE`` is the same error after the rigid motion that fits
/// the whole estimated path best onto the reference's (as TUM RGB-D's tools and most papers
/// report it), which spreads the drift over the walk.
public struct TrajectoryError: Sendable, Hashable {
    /// Root mean square of the position errors (m) after the first-frame alignment.
    public var rmse: Float
    /// Root mean square of the position errors (m) after the best rigid fit of all positions
    /// (Horn's closed form, no scale).
    public var rigidFitRMSE: Float
    /// The largest position error (m).
    public var maximum: Float
    /// The position error of the last pose (m).
    public var final: Float
    /// The largest rotation error (radians).
    public var maximumRotation: Float
    /// Poses compared.
    public var count: Int

    /// The error of `estimated` against `reference` (same length, pose `i` of one for pose `i`
    /// of the other), or `nil` when they are empty or of different lengths.
    public init?(estimated: [Transform], reference: [Transform]) {
        guard let aligned = Self.aligned(estimated, to: reference) else { return nil }
        var squares: Double = 0
        var maximum: Float = 0, maximumRotation: Float = 0, last: Float = 0
        for (a, r) in zip(aligned, reference) {
            let error = length(a.translation - r.translation)
            squares += Double(error * error)
            maximum = max(maximum, error)
            last = error
            // From the quaternion, as ``RelativePoseError`` measures it: a reference rotation rigid
            // only to a few decimals would look turned by a degree through the trace.
            maximumRotation = max(maximumRotation, Quaternion(r.rotation.transposed * a.rotation).angle)
        }
        rmse = Float((squares / Double(estimated.count)).squareRoot())
        rigidFitRMSE = Self.rigidFitRMSE(estimated.map(\.translation), reference.map(\.translation))
        self.maximum = maximum
        final = last
        self.maximumRotation = maximumRotation
        count = estimated.count
    }

    /// Each estimated position minus its reference (m), after the first-frame alignment: where
    /// along a walk the error grows, and in which direction. `nil` as for ``init(estimated:reference:)``.
    public static func positionErrors(estimated: [Transform], reference: [Transform]) -> [SIMD3<Float>]? {
        aligned(estimated, to: reference).map { zip($0, reference).map { $0.translation - $1.translation } }
    }

    /// `estimated` moved rigidly so that its first pose is the reference's first.
    private static func aligned(_ estimated: [Transform], to reference: [Transform]) -> [Transform]? {
        guard !estimated.isEmpty, estimated.count == reference.count else { return nil }
        let alignment = reference[0] * estimated[0].inverse
        return estimated.map { alignment * $0 }
    }

    /// The RMS distance (m) between `reference` and `estimated` moved by the rotation and
    /// translation that minimise it. The rotation is Horn's (1987): the unit quaternion of the
    /// largest eigenvalue of the 4×4 matrix built from the cross-covariance of the centred paths.
    static func rigidFitRMSE(_ estimated: [SIMD3<Float>], _ reference: [SIMD3<Float>]) -> Float {
        let count = Double(estimated.count)
        let e = estimated.map { SIMD3<Double>($0) }, g = reference.map { SIMD3<Double>($0) }
        let eMean = e.reduce(.zero, +) / count, gMean = g.reduce(.zero, +) / count
        // s[a][b] = Σ e_a·g_b over the centred positions.
        var s = [[Double]](repeating: [0, 0, 0], count: 3)
        for (p, q) in zip(e, g) {
            let a = p - eMean, b = q - gMean
            for i in 0..<3 { for j in 0..<3 { s[i][j] += a[i] * b[j] } }
        }
        let n: [[Double]] = [
            [s[0][0] + s[1][1] + s[2][2], s[1][2] - s[2][1], s[2][0] - s[0][2], s[0][1] - s[1][0]],
            [s[1][2] - s[2][1], s[0][0] - s[1][1] - s[2][2], s[0][1] + s[1][0], s[2][0] + s[0][2]],
            [s[2][0] - s[0][2], s[0][1] + s[1][0], -s[0][0] + s[1][1] - s[2][2], s[1][2] + s[2][1]],
            [s[0][1] - s[1][0], s[2][0] + s[0][2], s[1][2] + s[2][1], -s[0][0] - s[1][1] + s[2][2]],
        ]
        let q = largestEigenvector(n)
        let rotation = Quaternion(x: Float(q[1]), y: Float(q[2]), z: Float(q[3]), w: Float(q[0])).normalized.matrix
        var squares: Double = 0
        for (p, r) in zip(estimated, reference) {
            let offset = rotation * (p - SIMD3<Float>(eMean)) + SIMD3<Float>(gMean) - r
            squares += Double(dot(offset, offset))
        }
        return Float((squares / count).squareRoot())
    }

    /// The unit eigenvector of a symmetric 4×4 matrix's largest eigenvalue, by cyclic Jacobi
    /// rotations (a few sweeps reach double precision at this size).
    private static func largestEigenvector(_ matrix: [[Double]]) -> [Double] {
        var a = matrix
        var v: [[Double]] = (0..<4).map { i in (0..<4).map { $0 == i ? 1 : 0 } }
        for _ in 0..<50 {
            var off: Double = 0
            for i in 0..<4 { for j in (i + 1)..<4 { off += a[i][j] * a[i][j] } }
            if off < 1e-30 { break }
            for p in 0..<4 {
                for q in (p + 1)..<4 where a[p][q] != 0 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), sn = t * c
                    for k in 0..<4 {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = c * akp - sn * akq
                        a[k][q] = sn * akp + c * akq
                    }
                    for k in 0..<4 {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = c * apk - sn * aqk
                        a[q][k] = sn * apk + c * aqk
                    }
                    for k in 0..<4 {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = c * vkp - sn * vkq
                        v[k][q] = sn * vkp + c * vkq
                    }
                }
            }
        }
        let best = (0..<4).max { a[$0][$0] < a[$1][$1] }!
        return (0..<4).map { v[$0][best] }
    }
}
