import PlaneKitGeometry
import Testing

@Suite("Symmetric eigen-decomposition")
struct SymmetricEigenTests {
    /// `|a·b|`, 1 when two unit vectors are parallel whatever their signs.
    func alignment(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        Swift.abs((a * b).sum())
    }

    func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    /// Checks that `vectors` are orthonormal and that `A v = λ v` for each pair.
    func expectEigenpairs(_ e: SymmetricEigenDecomposition, of m: [[Double]], tolerance: Double,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        let vectors = [e.smallestVector, e.middleVector, e.largestVector]
        let values = [e.values.x, e.values.y, e.values.z]
        for (i, v) in vectors.enumerated() {
            #expect(Swift.abs(length(v) - 1) < 1e-12, sourceLocation: sourceLocation)
            for j in 0..<i {
                #expect(Swift.abs((v * vectors[j]).sum()) < 1e-12, sourceLocation: sourceLocation)
            }
            for row in 0..<3 {
                let av = m[row][0] * v.x + m[row][1] * v.y + m[row][2] * v.z
                #expect(Swift.abs(av - values[i] * v[row]) <= tolerance, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func diagonalMatrixIsSortedAscending() {
        let e = SymmetricEigenDecomposition(a00: 3, a01: 0, a02: 0, a11: 1, a12: 0, a22: 2)
        #expect(e.values == SIMD3(1, 2, 3))
        // Already diagonal: the eigenvectors are the axes, exactly.
        #expect(e.smallestVector == SIMD3(0, 1, 0))
        #expect(e.middleVector == SIMD3(0, 0, 1))
        #expect(e.largestVector == SIMD3(1, 0, 0))
    }

    @Test func twoByTwoBlock() {
        // [[2,1,0],[1,2,0],[0,0,5]]: the block has eigenvalues 2 ∓ 1 with vectors (1,∓1)/√2.
        let e = SymmetricEigenDecomposition(a00: 2, a01: 1, a02: 0, a11: 2, a12: 0, a22: 5)
        #expect(Swift.abs(e.values.x - 1) < 1e-14)
        #expect(Swift.abs(e.values.y - 3) < 1e-14)
        #expect(Swift.abs(e.values.z - 5) < 1e-14)
        let r = 0.5.squareRoot()
        #expect(Swift.abs(alignment(e.smallestVector, SIMD3(r, -r, 0)) - 1) < 1e-14)
        #expect(Swift.abs(alignment(e.middleVector, SIMD3(r, r, 0)) - 1) < 1e-14)
        #expect(Swift.abs(alignment(e.largestVector, SIMD3(0, 0, 1)) - 1) < 1e-14)
    }

    @Test func fullyRotatedMatrix() {
        // U = (1/3)[[1,2,2],[2,1,−2],[2,−2,1]] is orthogonal (rows have length 3, dot products
        // 2+2−4 = 2−4+2 = 4−2−2 = 0). With u1 = (1,2,2)/3, u2 = (2,1,−2)/3, u3 = (2,−2,1)/3,
        // A = 9·u1u1ᵀ + 18·u2u2ᵀ + 27·u3u3ᵀ = (1,2,2)(1,2,2)ᵀ + 2(2,1,−2)(…)ᵀ + 3(2,−2,1)(…)ᵀ
        //   = [[1,2,2],[2,4,4],[2,4,4]] + [[8,4,−8],[4,2,−4],[−8,−4,8]] + [[12,−12,6],[−12,12,−6],[6,−6,3]]
        //   = [[21,−6,0],[−6,18,−6],[0,−6,15]]   (trace 54 = 9 + 18 + 27).
        let m: [[Double]] = [[21, -6, 0], [-6, 18, -6], [0, -6, 15]]
        let e = SymmetricEigenDecomposition(a00: 21, a01: -6, a02: 0, a11: 18, a12: -6, a22: 15)
        #expect(Swift.abs(e.values.x - 9) < 1e-12)
        #expect(Swift.abs(e.values.y - 18) < 1e-12)
        #expect(Swift.abs(e.values.z - 27) < 1e-12)
        #expect(Swift.abs(alignment(e.smallestVector, SIMD3(1, 2, 2) / 3) - 1) < 1e-14)
        #expect(Swift.abs(alignment(e.middleVector, SIMD3(2, 1, -2) / 3) - 1) < 1e-14)
        #expect(Swift.abs(alignment(e.largestVector, SIMD3(2, -2, 1) / 3) - 1) < 1e-14)
        expectEigenpairs(e, of: m, tolerance: 1e-12)
    }

    @Test func negativeEigenvaluesSortBelowPositive() {
        // −A from above: eigenvalues −27, −18, −9 with the vectors in reverse order.
        let e = SymmetricEigenDecomposition(a00: -21, a01: 6, a02: 0, a11: -18, a12: 6, a22: -15)
        #expect(Swift.abs(e.values.x + 27) < 1e-12)
        #expect(Swift.abs(e.values.y + 18) < 1e-12)
        #expect(Swift.abs(e.values.z + 9) < 1e-12)
        #expect(Swift.abs(alignment(e.smallestVector, SIMD3(2, -2, 1) / 3) - 1) < 1e-14)
        #expect(Swift.abs(alignment(e.largestVector, SIMD3(1, 2, 2) / 3) - 1) < 1e-14)
    }

    @Test func repeatedEigenvalues() {
        // A = 18·I + 27·nnᵀ with n = (1,2,2)/3: 18I + 3(1,2,2)(1,2,2)ᵀ = [[21,6,6],[6,30,12],[6,12,30]].
        // Eigenvalues 18, 18 (any vectors ⟂ n) and 45 (along n).
        let m: [[Double]] = [[21, 6, 6], [6, 30, 12], [6, 12, 30]]
        let e = SymmetricEigenDecomposition(a00: 21, a01: 6, a02: 6, a11: 30, a12: 12, a22: 30)
        #expect(Swift.abs(e.values.x - 18) < 1e-12)
        #expect(Swift.abs(e.values.y - 18) < 1e-12)
        #expect(Swift.abs(e.values.z - 45) < 1e-12)
        let n = SIMD3<Double>(1, 2, 2) / 3
        #expect(Swift.abs(alignment(e.largestVector, n) - 1) < 1e-14)
        #expect(alignment(e.smallestVector, n) < 1e-12)
        #expect(alignment(e.middleVector, n) < 1e-12)
        expectEigenpairs(e, of: m, tolerance: 1e-12)
    }

    @Test func isotropicMatrix() {
        // 4·I: every direction is an eigenvector; the result must still be an orthonormal basis.
        let e = SymmetricEigenDecomposition(a00: 4, a01: 0, a02: 0, a11: 4, a12: 0, a22: 4)
        #expect(e.values == SIMD3(4, 4, 4))
        expectEigenpairs(e, of: [[4, 0, 0], [0, 4, 0], [0, 0, 4]], tolerance: 1e-15)
    }

    @Test func singularMatrixOfAPerfectPlane() {
        // The covariance of points on the plane ⟂ (1,2,2)/3: drop the u1 term from the rotated
        // example, 2(2,1,−2)(…)ᵀ + 3(2,−2,1)(…)ᵀ = [[20,−8,−2],[−8,14,−10],[−2,−10,11]].
        // Check: A(1,2,2) = (20−16−4, −8+28−20, −2−20+22) = 0.
        let m: [[Double]] = [[20, -8, -2], [-8, 14, -10], [-2, -10, 11]]
        let e = SymmetricEigenDecomposition(a00: 20, a01: -8, a02: -2, a11: 14, a12: -10, a22: 11)
        #expect(Swift.abs(e.values.x) < 1e-12)
        #expect(Swift.abs(e.values.y - 18) < 1e-12)
        #expect(Swift.abs(e.values.z - 27) < 1e-12)
        #expect(Swift.abs(alignment(e.smallestVector, SIMD3(1, 2, 2) / 3) - 1) < 1e-14)
        expectEigenpairs(e, of: m, tolerance: 1e-12)
    }

    @Test func nearlySingularMatrixKeepsItsTinyEigenvalue() {
        // A = 1e-10·u1u1ᵀ + 2·u2u2ᵀ + 3·u3u3ᵀ: the smallest eigenvalue is ten orders of magnitude
        // below the others and must come out with its own (absolute) accuracy.
        let u: [SIMD3<Double>] = [SIMD3(1, 2, 2) / 3, SIMD3(2, 1, -2) / 3, SIMD3(2, -2, 1) / 3]
        let lambda: [Double] = [1e-10, 2, 3]
        var m = [[Double]](repeating: [0, 0, 0], count: 3)
        for k in 0..<3 {
            for r in 0..<3 {
                for c in 0..<3 { m[r][c] += lambda[k] * u[k][r] * u[k][c] }
            }
        }
        let e = SymmetricEigenDecomposition(a00: m[0][0], a01: m[0][1], a02: m[0][2],
                                            a11: m[1][1], a12: m[1][2], a22: m[2][2])
        #expect(Swift.abs(e.values.x - 1e-10) < 1e-14)
        #expect(Swift.abs(e.values.y - 2) < 1e-12)
        #expect(Swift.abs(e.values.z - 3) < 1e-12)
        #expect(Swift.abs(alignment(e.smallestVector, u[0]) - 1) < 1e-12)
        expectEigenpairs(e, of: m, tolerance: 1e-12)
    }

    @Test func zeroMatrix() {
        let e = SymmetricEigenDecomposition(a00: 0, a01: 0, a02: 0, a11: 0, a12: 0, a22: 0)
        #expect(e.values == .zero)
        expectEigenpairs(e, of: [[0, 0, 0], [0, 0, 0], [0, 0, 0]], tolerance: 0)
    }
}
