import Foundation
import Testing
@testable import PlaneKitDetection

/// The direct fit of a 3×3 covariance: its smallest eigenvalue's vector, residual and middle
/// eigenvalue, against covariances built from known eigenvalues and eigenvectors.
@Suite struct FastPlaneFitTests {
    /// An orthonormal basis turned away from the axes, its columns the eigenvectors.
    static let basis: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) = {
        let a = 0.7, b = -0.4, c = 1.1
        let rx = (SIMD3<Double>(1, 0, 0), SIMD3<Double>(0, cos(a), sin(a)), SIMD3<Double>(0, -sin(a), cos(a)))
        func turnY(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(cos(b) * v.x + sin(b) * v.z, v.y, -sin(b) * v.x + cos(b) * v.z) }
        func turnZ(_ v: SIMD3<Double>) -> SIMD3<Double> { SIMD3(cos(c) * v.x - sin(c) * v.y, sin(c) * v.x + cos(c) * v.y, v.z) }
        return (turnZ(turnY(rx.0)), turnZ(turnY(rx.1)), turnZ(turnY(rx.2)))
    }()

    /// The fit of Σ λᵢ vᵢvᵢᵀ.
    static func fit(_ l: SIMD3<Double>) -> FastPlaneFit? {
        let (v0, v1, v2) = basis
        func entry(_ i: Int, _ j: Int) -> Double { l.x * v0[i] * v0[j] + l.y * v1[i] * v1[j] + l.z * v2[i] * v2[j] }
        return FastPlaneFit(c00: entry(0, 0), c01: entry(0, 1), c02: entry(0, 2), c11: entry(1, 1), c12: entry(1, 2),
                            c22: entry(2, 2), centroid: .zero, count: 100)
    }

    /// A cell of a plane: spread of millimetres in the plane, a tenth of a millimetre off it.
    @Test func aPlanarCellGivesItsNormalResidualAndSpread() throws {
        for eigenvalues in [SIMD3<Double>(1e-8, 1e-5, 2e-5), SIMD3(4e-10, 3e-6, 3e-6), SIMD3(2e-7, 1e-6, 9e-5)] {
            let fit = try #require(Self.fit(eigenvalues))
            #expect(abs((fit.normal * Self.basis.0).sum()) >= 1 - 1e-9, "\(eigenvalues)")
            #expect(abs(fit.meanSquaredError - eigenvalues.x) <= 1e-6 * eigenvalues.y, "\(eigenvalues)")
            #expect(abs(fit.middleEigenvalue - eigenvalues.y) <= 1e-9 * eigenvalues.z, "\(eigenvalues)")
        }
    }

    /// With the noise's scatter taken out, a covariance can be slightly indefinite: the smallest
    /// eigenvalue is negative, and its vector is still the normal (the residual reads 0).
    @Test func anIndefiniteCovarianceStillGivesTheNormal() throws {
        let fit = try #require(Self.fit(SIMD3(-3e-8, 1e-5, 2e-5)))
        #expect(abs((fit.normal * Self.basis.0).sum()) >= 1 - 1e-9)
        #expect(fit.meanSquaredError == 0)
        #expect(abs(fit.middleEigenvalue - 1e-5) <= 1e-14)
    }

    /// Points spread alike in every direction define no plane.
    @Test func anIsotropicCovarianceHasNoPlane() {
        #expect(Self.fit(SIMD3(2e-6, 2e-6, 2e-6)) == nil)
    }
}
