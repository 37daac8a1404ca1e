#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// The Gauss-Newton normal equations `H·ξ = −g` of a least-squares pose problem over a twist
/// ξ = (ω, t) (rotation vector, then translation), accumulated in double precision from blocks of
/// a few hundred terms summed in single precision (``PoseTermSums``): a VGA frame gives tens of
/// thousands of terms, which one single-precision sum would blur.
///
/// Only the upper triangle of `H` is kept: 21 numbers, plus 6 for `g`.
struct PoseNormalEquations {
    /// The upper triangle of `H`, row by row.
    private(set) var h = [Double](repeating: 0, count: 21)
    /// The gradient `Jᵀ·W·r`.
    private(set) var g = [Double](repeating: 0, count: 6)
    /// The weighted sum of squared residuals.
    private(set) var cost: Double = 0
    /// The number of terms added.
    private(set) var count = 0

    /// Clears the sums, keeping the storage.
    mutating func reset() {
        for i in 0..<21 { h[i] = 0 }
        for i in 0..<6 { g[i] = 0 }
        cost = 0
        count = 0
    }

    /// Adds a block of terms summed in single precision.
    mutating func add(_ block: PoseTermSums) {
        var k = 0
        for r in 0..<6 {
            let row = block.row(r)
            for c in r..<6 {
                h[k] += Double(row[c])
                k += 1
            }
            g[r] += Double(row[6])
        }
        cost += Double(block.weightedSquares)
        count += block.count
    }

    /// Adds `other`, made for the twist ξ′ of `exp(ξ′)·relative`, as equations in the twist ξ of
    /// `relative·exp(ξ)`: the same small motion, expressed on the other side of `relative`.
    /// With `relative` = (R, p), ξ′ = (R·ω, p × R·ω + R·t), so H gains Jᵀ·H′·J and g gains Jᵀ·g′.
    mutating func add(_ other: PoseNormalEquations, through relative: Transform) {
        let r = relative.rotation, p = SIMD3<Double>(relative.translation)
        let columns = [SIMD3<Double>(r.columns.0), SIMD3<Double>(r.columns.1), SIMD3<Double>(r.columns.2)]
        // J, column by column: the change of ξ′ per unit of each coordinate of ξ.
        var jacobian = [[Double]]()
        for axis in 0..<3 {
            let turned = columns[axis]
            let shift = SIMD3(p.y * turned.z - p.z * turned.y, p.z * turned.x - p.x * turned.z, p.x * turned.y - p.y * turned.x)
            jacobian.append([turned.x, turned.y, turned.z, shift.x, shift.y, shift.z])
        }
        for axis in 0..<3 {
            let moved = columns[axis]
            jacobian.append([0, 0, 0, moved.x, moved.y, moved.z])
        }
        let m = other.matrix
        var k = 0
        for a in 0..<6 {
            for b in a..<6 {
                var sum = 0.0
                for i in 0..<6 where jacobian[a][i] != 0 {
                    for j in 0..<6 { sum += jacobian[a][i] * m[i * 6 + j] * jacobian[b][j] }
                }
                h[k] += sum
                k += 1
            }
            var gradient = 0.0
            for i in 0..<6 { gradient += jacobian[a][i] * other.g[i] }
            g[a] += gradient
        }
        cost += other.cost
        count += other.count
    }

    /// The full symmetric 6×6 `H` (row-major), for inspection.
    var matrix: [Double] {
        var m = [Double](repeating: 0, count: 36)
        var k = 0
        for r in 0..<6 {
            for c in r..<6 {
                m[r * 6 + c] = h[k]
                m[c * 6 + r] = h[k]
                k += 1
            }
        }
        return m
    }

    /// The step ξ that solves `(H + D)·ξ = −g`, where the damping `D` adds `prior` times the
    /// mean diagonal of the rotation block to each rotation entry and likewise for translation:
    /// negligible along directions the residuals constrain, it holds a direction none
    /// constrains (sliding along the line where a floor meets a lone wall) at the starting pose —
    /// the prediction — instead of letting noise push it anywhere. `nil` when the system is not
    /// positive definite. With `freeBelow` > 0, the step is also kept out of directions whose
    /// eigenvalue is below that share of their block's largest.
    func solve(prior: Double = 1e-3, freeBelow: Double = 0, heldTranslations: [SIMD3<Double>] = []) -> (rotation: SIMD3<Float>, translation: SIMD3<Float>)? {
        var a = matrix
        let rotationMean = (a[0] + a[7] + a[14]) / 3, translationMean = (a[21] + a[28] + a[35]) / 3
        guard rotationMean > 0, translationMean > 0, rotationMean.isFinite, translationMean.isFinite else { return nil }
        for i in 0..<3 { a[i * 7] += prior * rotationMean }
        for i in 3..<6 { a[i * 7] += prior * translationMean }
        guard let x = Cholesky.solve(a, size: 6, rightSides: g.map { -$0 }, count: 1) else { return nil }
        guard x.allSatisfy(\.isFinite) else { return nil }
        var rotation = SIMD3<Double>(x[0], x[1], x[2]), translation = SIMD3<Double>(x[3], x[4], x[5])
        // Degeneracy-aware update: along a direction the residuals hardly constrain (its
        // eigenvalue a small share of the block's largest), what moves the estimate is bias at
        // edges and noise, not the motion. Drop that part of the step; the pose keeps the prediction there.
        if freeBelow > 0 {
            let m = matrix
            rotation = PoseNormalEquations.removeWeak(rotation, SymmetricEigenDecomposition(a00: m[0], a01: m[1], a02: m[2], a11: m[7], a12: m[8], a22: m[14]), below: freeBelow)
            translation = PoseNormalEquations.removeWeak(translation, SymmetricEigenDecomposition(a00: m[21], a01: m[22], a02: m[23], a11: m[28], a12: m[29], a22: m[35]), below: freeBelow)
        }
        for e in heldTranslations { translation -= (translation * e).sum() * e }
        return (SIMD3<Float>(rotation), SIMD3<Float>(translation))
    }

    /// `step` without its components along the eigenvectors of `eigen` whose eigenvalue is below
    /// `ratio` times the largest.
    private static func removeWeak(_ step: SIMD3<Double>, _ eigen: SymmetricEigenDecomposition, below ratio: Double) -> SIMD3<Double> {
        guard eigen.values.z > 0 else { return .zero }
        var step = step
        eigen.forEachWeakVector(below: ratio) { e in step -= (step * e).sum() * e }
        return step
    }

    /// The eigen-decomposition of the translation block of `H`: how firmly the residuals hold
    /// the translation along each direction (the twist's coordinates).
    var translationStrength: SymmetricEigenDecomposition {
        let m = matrix
        return SymmetricEigenDecomposition(a00: m[21], a01: m[22], a02: m[23], a11: m[28], a12: m[29], a22: m[35])
    }

    /// How evenly the residuals pin the pose down: for the rotation block and the translation
    /// block of `H`, the smallest eigenvalue over the largest. Near 0 when some direction is
    /// free (a lone plane leaves two translations and one rotation unconstrained); 1 when every
    /// direction is held alike.
    var conditioning: (rotation: Double, translation: Double) {
        guard count > 0 else { return (0, 0) }
        let m = matrix
        let rotation = SymmetricEigenDecomposition(a00: m[0], a01: m[1], a02: m[2], a11: m[7], a12: m[8], a22: m[14])
        let translation = SymmetricEigenDecomposition(a00: m[21], a01: m[22], a02: m[23], a11: m[28], a12: m[29], a22: m[35])
        func ratio(_ values: SIMD3<Double>) -> Double { values.z > 0 ? max(0, values.x) / values.z : 0 }
        return (ratio(rotation.values), ratio(translation.values))
    }
}

extension Transform {
    /// The rigid motion `exp(ξ)` of a small twist: rotation by `rotation` (axis × angle, radians),
    /// then `translation` (first order, enough for one Gauss-Newton step).
    static func twist(rotation: SIMD3<Float>, translation: SIMD3<Float>) -> Transform {
        let angle = (rotation * rotation).sum().squareRoot()
        let r = angle > 0 ? Quaternion(angle: angle, axis: rotation / angle).matrix : Matrix3.identity
        return Transform(rotation: r, translation: translation)
    }
}

extension SymmetricEigenDecomposition {
    /// Calls `body` with each eigenvector whose eigenvalue is below `ratio` times the largest,
    /// the smallest first: the directions the matrix hardly holds (both smaller ones when the
    /// largest is not positive).
    @inline(__always) func forEachWeakVector(below ratio: Double, _ body: (SIMD3<Double>) -> Void) {
        let largest = values.z
        if largest <= 0 || values.x < ratio * largest { body(smallestVector) }
        if largest <= 0 || values.y < ratio * largest { body(middleVector) }
    }
}
