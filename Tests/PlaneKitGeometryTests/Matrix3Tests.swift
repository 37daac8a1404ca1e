import Foundation
import PlaneKitGeometry
import Testing

@Suite("Matrix3")
struct Matrix3Tests {
    /// [[1,2,3],[4,5,6],[7,8,10]], determinant −3.
    let a = Matrix3(rows: SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(7, 8, 10))
    /// [[1,0,2],[0,1,0],[3,0,1]], determinant −5.
    let b = Matrix3(rows: SIMD3(1, 0, 2), SIMD3(0, 1, 0), SIMD3(3, 0, 1))
    /// 90° about +Z: x → y, y → −x.
    let rz90 = Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1))

    @Test func rowsAndColumns() {
        // Rows are written as read; columns hold the transposed numbers.
        #expect(a.columns.0 == SIMD3(1, 4, 7))
        #expect(a.columns.1 == SIMD3(2, 5, 8))
        #expect(a.columns.2 == SIMD3(3, 6, 10))
        #expect(a[0, 2] == 3)
        #expect(a[2, 0] == 7)
        #expect(a[1, 1] == 5)
        #expect(a[2, 2] == 10)
        #expect(Matrix3.identity == Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)))
    }

    @Test func matrixTimesVector() {
        // Row sums: 1+2+3, 4+5+6, 7+8+10
        #expect(a * SIMD3(1, 1, 1) == SIMD3(6, 15, 25))
        // (1,0,0) picks the first column.
        #expect(a * SIMD3(1, 0, 0) == SIMD3(1, 4, 7))
        #expect(rz90 * SIMD3(1, 0, 0) == SIMD3(0, 1, 0))
        #expect(rz90 * SIMD3(0, 1, 0) == SIMD3(-1, 0, 0))
    }

    @Test func matrixProduct() {
        // Row i of a dotted with column j of b:
        // row 1: (1+0+9, 0+2+0, 2+0+3) = (10, 2, 5)
        // row 2: (4+0+18, 0+5+0, 8+0+6) = (22, 5, 14)
        // row 3: (7+0+30, 0+8+0, 14+0+10) = (37, 8, 24)
        let expected = Matrix3(rows: SIMD3(10, 2, 5), SIMD3(22, 5, 14), SIMD3(37, 8, 24))
        #expect(a * b == expected)
        // Products compose: (a·b)·v == a·(b·v).
        let v = SIMD3<Float>(1, -2, 3)
        #expect((a * b) * v == a * (b * v))
        #expect(a * .identity == a)
        #expect(Matrix3.identity * a == a)
        // Four quarter turns are the identity.
        #expect(rz90 * rz90 * rz90 * rz90 == .identity)
    }

    @Test func transpose() {
        #expect(a.transposed == Matrix3(rows: SIMD3(1, 4, 7), SIMD3(2, 5, 8), SIMD3(3, 6, 10)))
        #expect(a.transposed.transposed == a)
        // A rotation's transpose is its inverse.
        #expect(rz90.transposed * rz90 == .identity)
    }

    @Test func determinant() {
        // 1(50−48) − 2(40−42) + 3(32−35) = 2 + 4 − 9 = −3
        #expect(a.determinant == -3)
        // 1(1−0) − 0 + 2(0−3) = −5
        #expect(b.determinant == -5)
        // det(ab) = det(a)·det(b) = 15; by hand 10(120−112) − 2(528−518) + 5(176−185) = 15.
        #expect((a * b).determinant == 15)
        #expect(Matrix3.identity.determinant == 1)
        #expect(rz90.determinant == 1)
        // Reflection in z.
        #expect(Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, -1)).determinant == -1)
    }

    @Test func isRotation() {
        #expect(Matrix3.identity.isRotation())
        #expect(rz90.isRotation())
        // 150° about X: cos = −√3/2, sin = 1/2.
        let rx150 = Matrix3(SIMD3(1, 0, 0), SIMD3(0, -0.8660254, 0.5), SIMD3(0, -0.5, -0.8660254))
        #expect(rx150.isRotation())
        // Reflection: orthonormal but determinant −1.
        #expect(!Matrix3(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, -1)).isRotation())
        // Scaled identity: columns of squared length 4.
        #expect(!Matrix3(SIMD3(2, 0, 0), SIMD3(0, 2, 0), SIMD3(0, 0, 2)).isRotation())
        // Shear: unit-ish columns that are not orthogonal (x·y = 0.1).
        #expect(!Matrix3(SIMD3(1, 0, 0), SIMD3(0.1, 0.99498744, 0), SIMD3(0, 0, 1)).isRotation())
        // Within the tolerance: a 1e-5 perturbation passes at 1e-4, fails at 1e-6.
        let nearly = Matrix3(SIMD3(1.00001, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        #expect(nearly.isRotation())
        #expect(!nearly.isRotation(tolerance: 1e-6))
    }

    @Test func approximateEquality() {
        let shifted = Matrix3(a.columns.0, a.columns.1, a.columns.2 + SIMD3(0, 0, 2e-6))
        #expect(a.isApproximatelyEqual(to: shifted))
        #expect(a != shifted)
        #expect(!a.isApproximatelyEqual(to: shifted, tolerance: 1e-6))
    }

    @Test func hashingFollowsEquality() {
        let copy = Matrix3(rows: SIMD3(1, 2, 3), SIMD3(4, 5, 6), SIMD3(7, 8, 10))
        #expect(Set([a, copy, b]).count == 2)
    }

    @Test func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(a)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text == #"{"columns":[[1,4,7],[2,5,8],[3,6,10]]}"#)
        #expect(try JSONDecoder().decode(Matrix3.self, from: data) == a)
    }

    @Test func decodingRejectsTheWrongNumberOfColumns() {
        let two = Data(#"{"columns":[[1,0,0],[0,1,0]]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Matrix3.self, from: two) }
        let short = Data(#"{"columns":[[1,0],[0,1],[0,0]]}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Matrix3.self, from: short) }
    }
}
