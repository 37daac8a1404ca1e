import Foundation
import PlaneKitGeometry
import Testing

@Suite("Transform")
struct TransformTests {
    /// 90° about +Z: x → y, y → −x.
    let rz90 = Matrix3(SIMD3(0, 1, 0), SIMD3(-1, 0, 0), SIMD3(0, 0, 1))
    /// 90° about +Z, then a move by (1, 2, 3).
    var pose: Transform { Transform(rotation: rz90, translation: SIMD3(1, 2, 3)) }

    @Test func columnMajorLayout() {
        // Columns are the rotated axes, each followed by 0; the translation sits in 12…14.
        #expect(pose.columnMajor == [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1])
        #expect(Transform.identity.columnMajor == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        #expect(pose.xAxis == SIMD3(0, 1, 0))
        #expect(pose.yAxis == SIMD3(-1, 0, 0))
        #expect(pose.zAxis == SIMD3(0, 0, 1))
    }

    @Test func initFromColumnMajor() throws {
        let t = try #require(Transform(columnMajor: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]))
        #expect(t == pose)
        #expect(t.translation == SIMD3(1, 2, 3))
        // Round trip.
        #expect(Transform(columnMajor: pose.columnMajor) == pose)
    }

    @Test func initFromColumnMajorRejectsBadMatrices() {
        let good: [Float] = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1]
        // Wrong count.
        #expect(Transform(columnMajor: Array(good.prefix(15))) == nil)
        #expect(Transform(columnMajor: good + [0]) == nil)
        #expect(Transform(columnMajor: []) == nil)
        // Not finite, in the rotation or the translation.
        var nan = good
        nan[5] = .nan
        #expect(Transform(columnMajor: nan) == nil)
        var infinite = good
        infinite[13] = .infinity
        #expect(Transform(columnMajor: infinite) == nil)
        // A uniform scale of 2 is not rigid.
        #expect(Transform(columnMajor: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1]) == nil)
        // A reflection (determinant −1) is not a rotation.
        #expect(Transform(columnMajor: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]) == nil)
        // A shear: the Y column leans 0.2 towards X.
        #expect(Transform(columnMajor: [1, 0, 0, 0, 0.2, 0.9797959, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) == nil)
        // A projective bottom row, or w ≠ 1.
        var projective = good
        projective[3] = 0.5
        #expect(Transform(columnMajor: projective) == nil)
        var w = good
        w[15] = 2
        #expect(Transform(columnMajor: w) == nil)
        // Row-major by mistake: the translation lands in the bottom row.
        #expect(Transform(columnMajor: [0, -1, 0, 1, 1, 0, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1]) == nil)
    }

    @Test func columnMajorTolerance() throws {
        // A rotation stored with 6 decimals (cos 30° = 0.866025) passes the default 1e-3.
        let c: Float = 0.866025, s: Float = 0.5
        let t = try #require(Transform(columnMajor: [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))
        expectClose(t.apply(toDirection: SIMD3(1, 0, 0)), SIMD3(c, s, 0))
        // A 1% scale is within 1e-1 but not within the default.
        let scaled: [Float] = [1.01, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        #expect(Transform(columnMajor: scaled) == nil)
        #expect(Transform(columnMajor: scaled, tolerance: 0.1) != nil)
    }

    @Test func applyToPointsAndDirections() {
        // R(1,0,0) + t = (0,1,0) + (1,2,3)
        #expect(pose.apply(toPoint: SIMD3(1, 0, 0)) == SIMD3(1, 3, 3))
        // Directions ignore the translation.
        #expect(pose.apply(toDirection: SIMD3(1, 0, 0)) == SIMD3(0, 1, 0))
        // The local origin is the translation.
        #expect(pose.apply(toPoint: .zero) == SIMD3(1, 2, 3))
        // R(2,5,−1) + t = (−5,2,−1) + (1,2,3) = (−4,4,2)
        #expect(pose.apply(toPoint: SIMD3(2, 5, -1)) == SIMD3(-4, 4, 2))
    }

    @Test func inverse() {
        let inverse = pose.inverse
        // Rᵀ is 90° about −Z: (x, y) → (y, −x); −Rᵀt = −(2, −1, 3) = (−2, 1, −3).
        #expect(inverse.rotation == Matrix3(SIMD3(0, -1, 0), SIMD3(1, 0, 0), SIMD3(0, 0, 1)))
        #expect(inverse.translation == SIMD3(-2, 1, -3))
        // Rᵀ(1,3,3) + (−2,1,−3) = (3,−1,3) + (−2,1,−3) = (1,0,0)
        #expect(inverse.apply(toPoint: SIMD3(1, 3, 3)) == SIMD3(1, 0, 0))
        #expect(pose * inverse == .identity)
        #expect(inverse * pose == .identity)
        // A general pose.
        let general = Transform(rotation: Quaternion(angle: 1.1, axis: SIMD3(1, -2, 0.5)), translation: SIMD3(4, -3, 0.25))
        expectClose(general * general.inverse, .identity)
        let p = SIMD3<Float>(0.7, 8, -2)
        expectClose(general.inverse.apply(toPoint: general.apply(toPoint: p)), p, tolerance: 1e-5)
    }

    @Test func compositionAppliesTheRightOperandFirst() {
        let move = Transform(translation: SIMD3(10, 0, 0))
        let turn = Transform(rotation: rz90)
        // (move * turn)(x) = move(turn(x)) = move((0,1,0)) = (10,1,0)
        #expect((move * turn).apply(toPoint: SIMD3(1, 0, 0)) == SIMD3(10, 1, 0))
        // (turn * move)(x) = turn((11,0,0)) = (0,11,0)
        #expect((turn * move).apply(toPoint: SIMD3(1, 0, 0)) == SIMD3(0, 11, 0))
        #expect((turn * move).translation == SIMD3(0, 10, 0))
        #expect((move * turn).translation == SIMD3(10, 0, 0))
        // Associative on an arbitrary point.
        let p = SIMD3<Float>(1, 2, 3)
        #expect(((move * turn) * pose).apply(toPoint: p) == (move * (turn * pose)).apply(toPoint: p))
        #expect((pose * move).apply(toPoint: p) == pose.apply(toPoint: move.apply(toPoint: p)))
    }

    @Test func fromQuaternion() {
        let t = Transform(rotation: Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1)), translation: SIMD3(1, 2, 3))
        expectClose(t, pose)
        expectClose(t.quaternion, Quaternion(angle: .pi / 2, axis: SIMD3(0, 0, 1)))
        // The quaternion is normalised first: (0,0,7,7) is the same rotation.
        expectClose(Transform(rotation: Quaternion(x: 0, y: 0, z: 7, w: 7)).rotation, rz90)
        #expect(Transform(rotation: Quaternion.identity) == .identity)
    }

    @Test func frameFromNormalAndHint() {
        // Y along (0,0,2) → (0,0,1); the hint (1,0,1) projects to (1,0,0); Z = X × Y = (0,−1,0).
        let t = Transform(origin: SIMD3(1, 2, 3), yAxis: SIMD3(0, 0, 2), xHint: SIMD3(1, 0, 1))
        expectClose(t.xAxis, SIMD3(1, 0, 0))
        expectClose(t.yAxis, SIMD3(0, 0, 1))
        expectClose(t.zAxis, SIMD3(0, -1, 0))
        #expect(t.translation == SIMD3(1, 2, 3))
        #expect(t.rotation.isRotation())
        // A hint along the normal falls back to normal.anyPerpendicular = (0,1,0);
        // Z = (0,1,0) × (0,0,1) = (1,0,0).
        let fallback = Transform(origin: .zero, yAxis: SIMD3(0, 0, 1), xHint: SIMD3(0, 0, -4))
        expectClose(fallback.xAxis, SIMD3(0, 1, 0))
        expectClose(fallback.zAxis, SIMD3(1, 0, 0))
        #expect(fallback.rotation.isRotation())
        // A zero normal falls back to +Y.
        let up = Transform(origin: .zero, yAxis: .zero, xHint: SIMD3(1, 0, 0))
        #expect(up.rotation == .identity)
    }

    @Test func codableRoundTrip() throws {
        let data = try JSONEncoder().encode(pose)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text == #"{"columnMajor":[0,1,0,0,-1,0,0,0,0,0,1,0,1,2,3,1]}"#)
        #expect(try JSONDecoder().decode(Transform.self, from: data) == pose)
        let general = Transform(rotation: Quaternion(angle: 0.4, axis: SIMD3(3, 1, 2)), translation: SIMD3(0.1, -0.2, 0.3))
        #expect(try JSONDecoder().decode(Transform.self, from: JSONEncoder().encode(general)) == general)
    }

    @Test(arguments: [
        #"{"columnMajor":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0]}"#,                 // 15 numbers
        #"{"columnMajor":[2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,1]}"#,               // scaled
        #"{"columnMajor":[1,0,0,0,0,1,0,0,0,0,-1,0,0,0,0,1]}"#,              // reflection
        #"{"columnMajor":[1,0,0,5,0,1,0,0,0,0,1,0,0,0,0,1]}"#,               // bottom row
        #"{"columnMajor":"identity"}"#,                                     // not numbers
        #"{"matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}"#,                    // wrong key
        #"[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"#,                               // bare array
    ])
    func decodingRejectsBadJSON(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Transform.self, from: Data(json.utf8)) }
    }

    @Test func approximateEquality() {
        let nudged = Transform(rotation: rz90, translation: SIMD3(1, 2, 3.000002))
        #expect(nudged.isApproximatelyEqual(to: pose))
        #expect(!nudged.isApproximatelyEqual(to: pose, tolerance: 1e-7))
        #expect(!Transform.identity.isApproximatelyEqual(to: pose))
    }
}
