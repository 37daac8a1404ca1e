import Foundation
import PlaneKitGeometry
import Testing

@Suite("PointMoments")
struct PointMomentsTests {
    /// Eight points of the plane z = 2x + 3y + 1 on the grid x ∈ {0,1,2,3}, y ∈ {0,1}.
    /// As `2x + 3y − z + 1 = 0` its unit normal is ±(2,3,−1)/√14 with offset ±1/√14.
    let tilted: [SIMD3<Float>] = [
        SIMD3(0, 0, 1), SIMD3(0, 1, 4), SIMD3(1, 0, 3), SIMD3(1, 1, 6),
        SIMD3(2, 0, 5), SIMD3(2, 1, 8), SIMD3(3, 0, 7), SIMD3(3, 1, 10),
    ]

    @Test func sumsOfAFewPoints() {
        let m = PointMoments([SIMD3<Float>(1, 2, 3), SIMD3(-1, 0, 2)])
        #expect(m.count == 2)
        #expect(m.sum == SIMD3(0, 2, 5))
        // (1 + 1, 4 + 0, 9 + 4)
        #expect(m.sumSquares == SIMD3(2, 4, 13))
        // (xy, xz, yz) = (2 + 0, 3 − 2, 6 + 0)
        #expect(m.sumCross == SIMD3(2, 1, 6))
        #expect(m.centroid == SIMD3(0, 1, 2.5))
        #expect(PointMoments().centroid == nil)
        #expect(PointMoments().count == 0)
    }

    @Test func nonFinitePointsAreSkipped() {
        let m = PointMoments([SIMD3<Float>(1, 1, 1), SIMD3(.nan, 0, 0), SIMD3(0, .infinity, 0), SIMD3(3, 3, 3)])
        #expect(m.count == 2)
        #expect(m.centroid == SIMD3(2, 2, 2))
    }

    @Test func fitOfExactPlanePoints() throws {
        let fit = try #require(PointMoments(tilted).fit)
        // Means: x̄ = 1.5, ȳ = 0.5, z̄ = 2·1.5 + 3·0.5 + 1 = 5.5.
        #expect(fit.centroid == SIMD3(1.5, 0.5, 5.5))
        let n = SIMD3<Float>(2, 3, -1) / 3.7416574   // √14
        let sign: Float = dot(fit.plane.normal, n) < 0 ? -1 : 1
        expectClose(fit.plane.normal * sign, n, tolerance: 1e-6)
        expectClose(fit.plane.offset * sign, 1 / 3.7416574, tolerance: 1e-5)
        // No residual: the smallest eigenvalue is zero, so are rms and curvature.
        #expect(Swift.abs(fit.eigenvalues.x) < 1e-6)
        #expect(fit.rmsDistance < 1e-6)
        #expect(fit.curvature < 1e-6)
        // Covariance: var x = 3.5 − 2.25 = 1.25, var y = 0.25, cov xy = 0 (a full grid),
        // var z = 4·1.25 + 9·0.25 = 7.25. Its trace 8.75 is the sum of the in-plane eigenvalues;
        // their product is the Gram determinant (1.25·0.25)·|(1,0,2) × (0,1,3)|² = 0.3125·14 = 4.375.
        expectClose(fit.eigenvalues.y + fit.eigenvalues.z, 8.75, tolerance: 1e-4)
        expectClose(fit.eigenvalues.y * fit.eigenvalues.z, 4.375, tolerance: 1e-4)
        // The major axis lies in the plane.
        #expect(Swift.abs(dot(fit.majorAxis, n)) < 1e-5)
        expectClose(fit.majorAxis.length, 1)
        for p in tilted {
            #expect(Swift.abs(fit.plane.signedDistance(to: p)) < 1e-5)
        }
    }

    @Test func fitOfAHorizontalSquare() throws {
        // The corners of a 2 × 2 square at y = 3: normal ±Y, offset ∓3.
        let fit = try #require(PointMoments([SIMD3<Float>(0, 3, 0), SIMD3(2, 3, 0), SIMD3(2, 3, 2), SIMD3(0, 3, 2)]).fit)
        let plane = fit.plane.normal.y > 0 ? fit.plane : fit.plane.flipped
        #expect(plane.normal == SIMD3(0, 1, 0))
        #expect(plane.offset == -3)
        #expect(fit.centroid == SIMD3(1, 3, 1))
        // Variances 1 along X and Z, 0 along Y.
        #expect(fit.eigenvalues == SIMD3(0, 1, 1))
        #expect(fit.rmsDistance == 0)
    }

    @Test func degenerateSetsHaveNoFit() {
        // Fewer than three points.
        #expect(PointMoments([SIMD3<Float>(0, 0, 0), SIMD3(1, 0, 0)]).fit == nil)
        // Collinear.
        #expect(PointMoments([SIMD3<Float>(0, 0, 0), SIMD3(1, 1, 1), SIMD3(2, 2, 2), SIMD3(3, 3, 3)]).fit == nil)
        #expect(PointMoments([SIMD3<Float>(0, 0, 5), SIMD3(0, 0, 6), SIMD3(0, 0, 9)]).fit == nil)
        // One point repeated.
        #expect(PointMoments([SIMD3<Float>](repeating: SIMD3(1, 2, 3), count: 10)).fit == nil)
    }

    @Test func mergeIsTheUnion() {
        let a = Array(tilted.prefix(3)), b = Array(tilted.dropFirst(3))
        let ma = PointMoments(a), mb = PointMoments(b)
        let union = PointMoments(tilted)
        #expect(ma + mb == union)
        var merged = ma
        merged.merge(mb)
        #expect(merged == union)
        #expect(merged.count == 8)
        // Adding one by one is the same again.
        var incremental = PointMoments()
        for p in tilted { incremental.add(p) }
        #expect(incremental == union)
        // The empty set is neutral.
        #expect(union + PointMoments() == union)
    }

    @Test func noiseShowsAsRMSDistance() throws {
        // A 4 × 4 grid on z = 0 with z = ±0.01 in a checkerboard: the mean is z = 0 and the
        // pattern is uncorrelated with x and y (Σ i·(−1)^(i+j) = 0), so the fit is z = 0 with
        // smallest eigenvalue mean(z²) = 1e-4: rms 0.01. In-plane variances: (0+1+4+9)/4 − 1.5² = 1.25.
        var points: [SIMD3<Float>] = []
        for i in 0..<4 {
            for j in 0..<4 {
                points.append(SIMD3(Float(i), Float(j), (i + j) % 2 == 0 ? 0.01 : -0.01))
            }
        }
        let fit = try #require(PointMoments(points).fit)
        expectClose(Swift.abs(fit.plane.normal.z), 1, tolerance: 1e-6)
        expectClose(fit.plane.offset, 0, tolerance: 1e-6)
        expectClose(fit.rmsDistance, 0.01, tolerance: 1e-6)
        expectClose(fit.eigenvalues.y, 1.25, tolerance: 1e-6)
        expectClose(fit.eigenvalues.z, 1.25, tolerance: 1e-6)
        // Curvature = 1e-4 / (1e-4 + 2.5) = 3.99984e-5.
        expectClose(fit.curvature, 3.99984e-5, tolerance: 1e-9)
    }

    @Test func codableRoundTrip() throws {
        let m = PointMoments(tilted)
        #expect(try JSONDecoder().decode(PointMoments.self, from: JSONEncoder().encode(m)) == m)
    }
}
