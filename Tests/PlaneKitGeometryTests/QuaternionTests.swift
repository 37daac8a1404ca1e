import Foundation
import PlaneKitGeometry
import Testing

@Suite("Quaternion")
struct QuaternionTests {
    // sin 75° = (√6 + √2)/4, cos 75° = (√6 − √2)/4: the half angle of a 150° turn.
    let sin75: Float = 0.96592583
    let cos75: Float = 0.25881905
    // cos 150° = −√3/2, sin 150° = 1/2.
    let cos150: Float = -0.86602540

    @Test func angleAxisComponents() {
        // 90° about +Z: (0, 0, sin 45°, cos 45°).
        let q = Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1))
        expectClose(q.vector, SIMD4(0, 0, halfRoot2, halfRoot2))
        expectClose(q.imaginary, SIMD3(0, 0, halfRoot2))
        expectClose(q.real, halfRoot2)
        expectClose(q.angle, .pi / 2)
        // The axis is normalised: (0,0,5) is the same axis.
        expectClose(Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 5)).vector, q.vector)
        // 180° about X: (1, 0, 0, cos 90° ≈ 0).
        expectClose(Quaternion(angle: .pi, axis: SIMD3(1, 0, 0)).vector, SIMD4(1, 0, 0, 0))
        // A zero axis has no direction: identity.
        #expect(Quaternion(angle: 1, axis: .zero) == .identity)
        #expect(Quaternion.identity.vector == SIMD4(0, 0, 0, 1))
    }

    @Test func angleIsTheSmallestRotationAngle() {
        #expect(Quaternion.identity.angle == 0)
        expectClose(Quaternion(angle: 0.3, axis: SIMD3(1, 1, 0)).angle, 0.3)
        expectClose(Quaternion(x: 1, y: 0, z: 0, w: 0).angle, .pi)
        // 270° about Z is the same rotation as 90° the other way: angle π/2.
        expectClose(Quaternion(angle: 3 * .pi / 2, axis: SIMD3(0, 0, 1)).angle, .pi / 2, tolerance: 1e-5)
        // Not normalised: (0,0,2,2) is 90°.
        expectClose(Quaternion(x: 0, y: 0, z: 2, w: 2).angle, .pi / 2)
    }

    @Test func actRotatesVectors() {
        let z90 = Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1))
        expectClose(z90.act(SIMD3(1, 0, 0)), SIMD3(0, 1, 0))
        expectClose(z90.act(SIMD3(0, 1, 0)), SIMD3(-1, 0, 0))
        expectClose(z90.act(SIMD3(0, 0, 3)), SIMD3(0, 0, 3))
        let x90 = Quaternion(angle: .pi / 2, axis: SIMD3(1, 0, 0))
        expectClose(x90.act(SIMD3(0, 1, 0)), SIMD3(0, 0, 1))
        let y90 = Quaternion(angle: .pi / 2, axis: SIMD3(0, 1, 0))
        expectClose(y90.act(SIMD3(0, 0, 1)), SIMD3(1, 0, 0))
        // 120° about (1,1,1) cycles the axes x → y → z → x.
        let cycle = Quaternion(angle: 2 * .pi / 3, axis: SIMD3(1, 1, 1))
        expectClose(cycle.act(SIMD3(1, 0, 0)), SIMD3(0, 1, 0))
        expectClose(cycle.act(SIMD3(0, 1, 0)), SIMD3(0, 0, 1))
    }

    @Test func matrixOfAQuaternion() {
        // 90° about +Z: columns are the images of x, y, z.
        let m = Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1)).matrix
        expectClose(m, Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1)))
        #expect(m.isRotation())
        // A non-unit quaternion gives the matrix of its normalised self.
        expectClose(Quaternion(x: 0, y: 0, z: 3, w: 3).matrix, m)
    }

    // MARK: Matrix to quaternion, one test per branch of Shepperd's method.

    @Test func fromMatrixWithPositiveTrace() {
        // Identity: trace 3 → s = 4, w = 1.
        #expect(Quaternion(Matrix3.identity).vector == SIMD4(0, 0, 0, 1))
        // 90° about Z: trace 1 → s = 2√2, z = (1 − (−1))/2√2 = √½, w = 2√2/4 = √½.
        let rz = Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1))
        expectClose(Quaternion(rz).vector, SIMD4(0, 0, halfRoot2, halfRoot2))
        // 90° about X: columns (1,0,0), (0,0,1), (0,−1,0); x = (1 − (−1))/2√2 = √½.
        let rx = Matrix3(SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, -1, 0))
        expectClose(Quaternion(rx).vector, SIMD4(halfRoot2, 0, 0, halfRoot2))
        // 90° about Y: columns (0,0,−1), (0,1,0), (1,0,0); y = (1 − (−1))/2√2 = √½.
        let ry = Matrix3(SIMD3(0, 0, -1), SIMD3(0, 1, 0), SIMD3(1, 0, 0))
        expectClose(Quaternion(ry).vector, SIMD4(0, halfRoot2, 0, halfRoot2))
    }

    @Test func fromMatrixWithLargestXDiagonal() {
        // 180° about X: diag(1, −1, −1), trace −1, m00 largest → s = 2√4 = 4, x = 1, w = 0.
        let m = Matrix3(SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1))
        #expect(Quaternion(m).vector == SIMD4(1, 0, 0, 0))
        // 150° about X: trace 1 + 2cos150° < 0; s = 2√(2 − 2cos150°) = 3.8637033,
        // x = s/4 = sin 75°, w = (m21 − m12)/s = (½ + ½)/s = cos 75°.
        let r = Matrix3(SIMD3(1, 0, 0), SIMD3(0, cos150, 0.5), SIMD3(0, -0.5, cos150))
        expectClose(Quaternion(r).vector, SIMD4(sin75, 0, 0, cos75))
    }

    @Test func fromMatrixWithLargestYDiagonal() {
        // 180° about Y: diag(−1, 1, −1) → (0, 1, 0, 0).
        let m = Matrix3(SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, -1))
        #expect(Quaternion(m).vector == SIMD4(0, 1, 0, 0))
        // 150° about Y: columns (c, 0, −s), (0, 1, 0), (s, 0, c); w = (m02 − m20)/s = (½ + ½)/s.
        let r = Matrix3(SIMD3(cos150, 0, -0.5), SIMD3(0, 1, 0), SIMD3(0.5, 0, cos150))
        expectClose(Quaternion(r).vector, SIMD4(0, sin75, 0, cos75))
        // 180° about (1,1,0)/√2: R = 2nnᵀ − I = [[0,1,0],[1,0,0],[0,0,−1]]; m11 = 0 > m22 = −1,
        // s = 2√2, x = (1 + 1)/s = √½, y = s/4 = √½.
        let diagonal = Matrix3(rows: SIMD3(0, 1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, -1))
        expectClose(Quaternion(diagonal).vector, SIMD4(halfRoot2, halfRoot2, 0, 0))
    }

    @Test func fromMatrixWithLargestZDiagonal() {
        // 180° about Z: diag(−1, −1, 1) → (0, 0, 1, 0).
        let m = Matrix3(SIMD3(-1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, 1))
        #expect(Quaternion(m).vector == SIMD4(0, 0, 1, 0))
        // 150° about Z: columns (c, s, 0), (−s, c, 0), (0, 0, 1); w = (m10 − m01)/s.
        let r = Matrix3(SIMD3(cos150, 0.5, 0), SIMD3(-0.5, cos150, 0), SIMD3(0, 0, 1))
        expectClose(Quaternion(r).vector, SIMD4(0, 0, sin75, cos75))
    }

    @Test func matrixQuaternionMatrixRoundTrip() {
        let axes: [SIMD3<Float>] = [SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 2, 3), SIMD3(-2, 1, 0.5)]
        // Angles that land in every branch, including 180° exactly.
        let angles: [Float] = [0, 0.1, .pi / 2, 2, 2.6, .pi - 1e-3, .pi]
        for axis in axes {
            for angle in angles {
                let q = Quaternion(angle: angle, axis: axis)
                let back = Quaternion(q.matrix)
                expectClose(back, q, tolerance: 2e-5)
                expectClose(back.matrix, q.matrix, tolerance: 2e-5)
            }
        }
    }

    @Test func productIsComposition() {
        let z90 = Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1))
        let x90 = Quaternion(angle: .pi / 2, axis: SIMD3(1, 0, 0))
        // Hamilton product by hand, a = z90 = (0,0,h,h), b = x90 = (h,0,0,h), h = √½:
        // xyz = a.w·b.v + b.w·a.v + a.v × b.v = (½,0,0) + (0,0,½) + (0,½,0); w = h² − 0 = ½.
        // (½,½,½,½) is 120° about (1,1,1).
        let product = z90 * x90
        expectClose(product.vector, SIMD4(0.5, 0.5, 0.5, 0.5))
        // "x90 first, then z90": x → x → y, y → z → z.
        expectClose(product.act(SIMD3(1, 0, 0)), SIMD3(0, 1, 0))
        expectClose(product.act(SIMD3(0, 1, 0)), SIMD3(0, 0, 1))
        // Composition for an arbitrary pair and vector.
        let a = Quaternion(angle: 0.7, axis: SIMD3(1, 2, 3))
        let b = Quaternion(angle: -1.9, axis: SIMD3(0, 1, -1))
        let v = SIMD3<Float>(0.3, -2, 1.5)
        expectClose((a * b).act(v), a.act(b.act(v)), tolerance: 1e-5)
        expectClose((a * b).matrix, a.matrix * b.matrix, tolerance: 1e-5)
        // Identity is neutral.
        #expect(a * .identity == a)
        #expect(Quaternion.identity * a == a)
    }

    @Test func inverse() {
        let z90 = Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1))
        expectClose(z90.inverse.vector, SIMD4(0, 0, -halfRoot2, halfRoot2))
        expectClose(z90 * z90.inverse, .identity)
        expectClose(z90.inverse.act(SIMD3(0, 1, 0)), SIMD3(1, 0, 0))
        // A non-unit quaternion's inverse is the conjugate of its normalised self.
        expectClose(Quaternion(x: 0, y: 0, z: 2, w: 2).inverse.vector, SIMD4(0, 0, -halfRoot2, halfRoot2))
        let a = Quaternion(angle: 2.2, axis: SIMD3(1, -1, 2))
        expectClose(a.inverse * a, .identity)
        expectClose(a.inverse.matrix, a.matrix.transposed)
    }

    @Test func normalization() {
        // (0,3,0,4) / 5.
        #expect(Quaternion(x: 0, y: 3, z: 0, w: 4).normalized.vector == SIMD4(0, 0.6, 0, 0.8))
        #expect(Quaternion(x: 0, y: 0, z: 0, w: 0).normalized == .identity)
        #expect(Quaternion(x: .nan, y: 0, z: 0, w: 1).normalized == .identity)
    }

    @Test func approximateEqualityTreatsQAndMinusQAlike() {
        let q = Quaternion(angle: 1, axis: SIMD3(0, 1, 0))
        let minus = Quaternion(x: -q.vector.x, y: -q.vector.y, z: -q.vector.z, w: -q.vector.w)
        #expect(q.isApproximatelyEqual(to: minus))
        #expect(q.matrix.isApproximatelyEqual(to: minus.matrix))
        #expect(!q.isApproximatelyEqual(to: Quaternion(angle: 1.01, axis: SIMD3(0, 1, 0))))
    }

    @Test func codableRoundTrip() throws {
        let q = Quaternion(x: 0.5, y: -0.5, z: 0.5, w: 0.5)
        let back = try JSONDecoder().decode(Quaternion.self, from: JSONEncoder().encode(q))
        #expect(back == q)
    }
}
