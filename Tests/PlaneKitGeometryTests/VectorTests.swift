import PlaneKitGeometry
import Testing

@Suite("Vector helpers")
struct VectorTests {
    @Test func dotProducts() {
        // 1·4 + 2·5 + 3·6 = 4 + 10 + 18 = 32
        #expect(dot(SIMD3<Float>(1, 2, 3), SIMD3(4, 5, 6)) == 32)
        #expect(SIMD3<Float>(1, 2, 3).dot(SIMD3(4, 5, 6)) == 32)
        // 1·3 + 2·4 = 11
        #expect(dot(SIMD2<Float>(1, 2), SIMD2(3, 4)) == 11)
        // Perpendicular vectors.
        #expect(dot(SIMD3<Float>(1, 0, 0), SIMD3(0, 7, -2)) == 0)
    }

    @Test func crossProducts() {
        // (2·6 − 3·5, 3·4 − 1·6, 1·5 − 2·4) = (−3, 6, −3)
        #expect(cross(SIMD3<Float>(1, 2, 3), SIMD3(4, 5, 6)) == SIMD3(-3, 6, -3))
        #expect(SIMD3<Float>(1, 2, 3).cross(SIMD3(4, 5, 6)) == SIMD3(-3, 6, -3))
        // Right-handed: x × y = z, y × z = x, z × x = y, and anti-commutative.
        #expect(cross(SIMD3<Float>(1, 0, 0), SIMD3(0, 1, 0)) == SIMD3(0, 0, 1))
        #expect(cross(SIMD3<Float>(0, 1, 0), SIMD3(0, 0, 1)) == SIMD3(1, 0, 0))
        #expect(cross(SIMD3<Float>(0, 0, 1), SIMD3(1, 0, 0)) == SIMD3(0, 1, 0))
        #expect(cross(SIMD3<Float>(0, 1, 0), SIMD3(1, 0, 0)) == SIMD3(0, 0, -1))
        // 2D: positive when b is counter-clockwise of a; 2·5 − 3·4 = −2.
        #expect(cross(SIMD2<Float>(1, 0), SIMD2(0, 1)) == 1)
        #expect(cross(SIMD2<Float>(0, 1), SIMD2(1, 0)) == -1)
        #expect(cross(SIMD2<Float>(2, 3), SIMD2(4, 5)) == -2)
    }

    @Test func lengthsAndDistances() {
        // 3² + 4² + 12² = 9 + 16 + 144 = 169 = 13²
        #expect(length(SIMD3<Float>(3, 4, 12)) == 13)
        #expect(SIMD3<Float>(3, 4, 12).length == 13)
        #expect(SIMD3<Float>(1, 2, 3).lengthSquared == 14)
        #expect(length(SIMD2<Float>(3, 4)) == 5)
        #expect(SIMD2<Float>(-3, -4).length == 5)
        // (1,2,3) − (4,6,3) = (−3,−4,0): 5
        #expect(distance(SIMD3<Float>(1, 2, 3), SIMD3(4, 6, 3)) == 5)
        #expect(length(SIMD3<Float>.zero) == 0)
    }

    @Test func normalizeScalesToUnitLength() {
        // (0,3,4)/5
        expectClose(normalize(SIMD3<Float>(0, 3, 4)), SIMD3(0, 0.6, 0.8))
        expectClose(SIMD3<Float>(0, -3, 4).normalized, SIMD3(0, -0.6, 0.8))
        // (1,1,1)/√3 = 0.57735027 each
        expectClose(normalize(SIMD3<Float>(2, 2, 2)), SIMD3(repeating: 0.57735027))
        #expect(normalize(SIMD3<Float>(0, 0, 5)) == SIMD3(0, 0, 1))
    }

    @Test func normalizeOfDegenerateVectors() {
        // Zero: the free function stays finite, the property says there is no direction.
        #expect(normalize(SIMD3<Float>.zero) == .zero)
        #expect(SIMD3<Float>.zero.normalized == nil)
        // Below 1e-12 in length there is no reliable direction.
        #expect(SIMD3<Float>(1e-13, 0, 0).normalized == nil)
        // NaN and infinity.
        #expect(SIMD3<Float>(.nan, 1, 0).normalized == nil)
        #expect(normalize(SIMD3<Float>(.nan, 1, 0)) == .zero)
        #expect(SIMD3<Float>(.infinity, 0, 0).normalized == nil)
        #expect(normalize(SIMD3<Float>(0, -.infinity, 0)) == .zero)
    }

    @Test func normalizeOfLargeFiniteVectors() {
        // 1e20² = 1e40 overflows Float, but the vector itself is finite and has a direction.
        expectClose(SIMD3<Float>(1e20, 0, 0).normalized, SIMD3(1, 0, 0))
        // (3e30, 4e30, 0) / 5e30 = (0.6, 0.8, 0)
        expectClose(SIMD3<Float>(3e30, 4e30, 0).normalized, SIMD3(0.6, 0.8, 0))
        expectClose(normalize(SIMD3<Float>(-2e38, -2e38, 0)), SIMD3(-halfRoot2, -halfRoot2, 0))
        // The angle between two such vectors: 90°.
        expectClose(SIMD3<Float>(1e25, 0, 0).angle(to: SIMD3(0, 1e25, 0)), Float.pi / 2)
    }

    @Test func finiteness() {
        #expect(SIMD3<Float>(1, 2, 3).isFinite)
        #expect(!SIMD3<Float>(1, .nan, 3).isFinite)
        #expect(!SIMD3<Float>(1, 2, -.infinity).isFinite)
        #expect(SIMD2<Float>(1, 2).isFinite)
        #expect(!SIMD2<Float>(.infinity, 2).isFinite)
    }

    @Test func angles() {
        let x = SIMD3<Float>(1, 0, 0)
        expectClose(x.angle(to: SIMD3(0, 1, 0)), Float.pi / 2)
        expectClose(x.angle(to: SIMD3(0, 0, -3)), Float.pi / 2)
        // (1,1,0) is 45° from x whatever its length.
        expectClose(x.angle(to: SIMD3(2, 2, 0)), Float.pi / 4)
        // Opposite: π (Swift's Float.pi rounds down, atan2f to nearest); parallel: exactly 0.
        expectClose(x.angle(to: SIMD3(-1, 0, 0)), Float.pi, tolerance: 1e-6)
        #expect(x.angle(to: SIMD3(5, 0, 0)) == 0)
        // (1,0,0)·(1,√3,0)/2 = 1/2: 60°
        expectClose(x.angle(to: SIMD3(1, 1.7320508, 0)), Float.pi / 3)
        // A tiny angle that acos would round to zero: tan θ = 1e-4.
        expectClose(x.angle(to: SIMD3(1, 1e-4, 0)), 1e-4, tolerance: 1e-9)
        // Zero vectors have no angle.
        #expect(x.angle(to: .zero) == 0)
        #expect(SIMD3<Float>.zero.angle(to: x) == 0)
    }

    @Test func anyPerpendicularPicksTheLeastAlignedAxis() {
        // (0,0,1): x is least aligned; z × x = y.
        #expect(SIMD3<Float>(0, 0, 1).anyPerpendicular == SIMD3(0, 1, 0))
        // (1,0,0): y is least aligned (ties go to the earlier axis); x × y = z.
        #expect(SIMD3<Float>(1, 0, 0).anyPerpendicular == SIMD3(0, 0, 1))
        // (0,2,0): x; (0,2,0) × (1,0,0) = (0,0,−2) → (0,0,−1).
        #expect(SIMD3<Float>(0, 2, 0).anyPerpendicular == SIMD3(0, 0, -1))
        // (1,2,3): x; (1,2,3) × (1,0,0) = (0,3,−2), over √13 = 3.6055513.
        let p = SIMD3<Float>(1, 2, 3).anyPerpendicular
        expectClose(p, SIMD3(0, 3 / 3.6055513, -2 / 3.6055513))
        #expect(abs(dot(p, SIMD3(1, 2, 3))) < 1e-6)
        expectClose(p.length, 1)
    }

    @Test func absoluteValue() {
        #expect(abs(SIMD3<Float>(-1, 2, -0.5)) == SIMD3(1, 2, 0.5))
        #expect(abs(SIMD2<Float>(-3, 4)) == SIMD2(3, 4))
        #expect(abs(SIMD3<Float>(0, -0, 7)) == SIMD3(0, 0, 7))
    }
}

@Suite("Approximate equality")
struct ApproximateEqualityTests {
    @Test func defaultToleranceIsOneInTheFifthPlace() {
        #expect(defaultGeometricTolerance == 1e-5)
        #expect(Float(0.5).isApproximatelyEqual(to: 0.500009))
        #expect(!Float(0.5).isApproximatelyEqual(to: 0.50002))
        #expect(Float(-2).isApproximatelyEqual(to: -2.000005))
    }

    @Test func explicitTolerance() {
        #expect(Float(1).isApproximatelyEqual(to: 1.05, tolerance: 0.1))
        #expect(!Float(1).isApproximatelyEqual(to: 1.2, tolerance: 0.1))
        // The tolerance is inclusive: |0.5 − 0.75| = 0.25 exactly.
        #expect(Float(0.5).isApproximatelyEqual(to: 0.75, tolerance: 0.25))
    }

    @Test func nanIsNeverEqual() {
        #expect(!Float.nan.isApproximatelyEqual(to: .nan, tolerance: 1))
        #expect(!Float(1).isApproximatelyEqual(to: .nan, tolerance: .infinity))
        #expect(!SIMD3<Float>(.nan, 0, 0).isApproximatelyEqual(to: SIMD3(.nan, 0, 0)))
    }

    @Test func vectorsCompareEveryComponent() {
        #expect(SIMD2<Float>(1, 2).isApproximatelyEqual(to: SIMD2(1.000001, 1.999999)))
        #expect(!SIMD2<Float>(1, 2).isApproximatelyEqual(to: SIMD2(1, 2.001)))
        #expect(SIMD3<Float>(1, 2, 3).isApproximatelyEqual(to: SIMD3(1.05, 2, 2.95), tolerance: 0.1))
        #expect(!SIMD3<Float>(1, 2, 3).isApproximatelyEqual(to: SIMD3(1, 2, 3.2), tolerance: 0.1))
        #expect(!SIMD3<Float>(1, 2, 3).isApproximatelyEqual(to: SIMD3(1.2, 2, 3), tolerance: 0.1))
        #expect(SIMD4<Float>(1, 2, 3, 4).isApproximatelyEqual(to: SIMD4(1, 2, 3, 4.000001)))
        #expect(!SIMD4<Float>(1, 2, 3, 4).isApproximatelyEqual(to: SIMD4(1, 2, 3, 4.01)))
        #expect(!SIMD4<Float>(1, 2, 3, 4).isApproximatelyEqual(to: SIMD4(1.01, 2, 3, 4)))
    }
}
