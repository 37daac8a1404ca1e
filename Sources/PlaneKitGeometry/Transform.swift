#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rigid transform: a rotation followed by a translation, `p ↦ R·p + t`.
///
/// PlaneKit's poses are world-from-local transforms, like ARKit's `ARAnchor.transform` and
/// `ARCamera.transform`: applying a camera pose to a point in camera coordinates gives the point
/// in world coordinates.
public struct Transform: Hashable, Sendable, Codable {
    /// The rotation part, an orthonormal matrix with determinant +1.
    public var rotation: Matrix3
    /// The translation part (the local origin in the parent's coordinates).
    public var translation: SIMD3<Float>

    /// A transform from a rotation matrix and a translation. The matrix is trusted to be a rotation.
    @inlinable public init(rotation: Matrix3 = .identity, translation: SIMD3<Float> = .zero) {
        self.rotation = rotation
        self.translation = translation
    }

    /// A transform from a rotation quaternion (normalised here) and a translation.
    public init(rotation: Quaternion, translation: SIMD3<Float> = .zero) {
        self.init(rotation: rotation.matrix, translation: translation)
    }

    /// A transform from 16 numbers in column-major order (the layout of `simd_float4x4` and of
    /// OpenGL), or `nil` when the numbers are not finite, the bottom row is not `0 0 0 1`, or the
    /// upper-left 3×3 is not a rotation within `tolerance`.
    public init?(columnMajor m: [Float], tolerance: Float = 1e-3) {
        guard m.count == 16, m.allSatisfy(\.isFinite) else { return nil }
        guard abs(m[3]) <= tolerance, abs(m[7]) <= tolerance, abs(m[11]) <= tolerance, abs(m[15] - 1) <= tolerance else {
            return nil
        }
        let r = Matrix3(SIMD3(m[0], m[1], m[2]), SIMD3(m[4], m[5], m[6]), SIMD3(m[8], m[9], m[10]))
        guard r.isRotation(tolerance: tolerance) else { return nil }
        self.init(rotation: r, translation: SIMD3(m[12], m[13], m[14]))
    }

    /// The identity transform.
    public static let identity = Transform()

    /// The 4×4 homogeneous matrix in column-major order: 16 numbers, the translation in 12…14.
    public var columnMajor: [Float] {
        let (c0, c1, c2) = rotation.columns
        return [c0.x, c0.y, c0.z, 0, c1.x, c1.y, c1.z, 0, c2.x, c2.y, c2.z, 0,
                translation.x, translation.y, translation.z, 1]
    }

    /// The rotation as a quaternion.
    public var quaternion: Quaternion { Quaternion(rotation) }

    /// The same transform with its rotation made exactly orthonormal (the nearest rotation, by
    /// way of a unit quaternion): a product of many small steps drifts off SO(3) in single
    /// precision, and poses stored with a few decimals (7-Scenes' are off by 2·10⁻⁴) are not
    /// exact rotations, which ``inverse`` (a transpose) and comparisons of turns take them to be.
    public var orthonormalized: Transform {
        Transform(rotation: quaternion.normalized, translation: translation)
    }

    /// The inverse transform, `p ↦ Rᵀ·(p − t)`.
    @inlinable public var inverse: Transform {
        let rt = rotation.transposed
        return Transform(rotation: rt, translation: -(rt * translation))
    }

    /// Applies the transform to a point (rotation and translation).
    @inlinable public func apply(toPoint p: SIMD3<Float>) -> SIMD3<Float> {
        rotation * p + translation
    }

    /// Applies the transform to a direction (rotation only).
    @inlinable public func apply(toDirection d: SIMD3<Float>) -> SIMD3<Float> {
        rotation * d
    }

    /// Composition: `(a * b).apply(p) == a.apply(b.apply(p))`, so `worldFromCamera * cameraFromLocal`
    /// is `worldFromLocal`.
    @inlinable public static func * (a: Transform, b: Transform) -> Transform {
        Transform(rotation: a.rotation * b.rotation, translation: a.rotation * b.translation + a.translation)
    }

    /// The local X axis in parent coordinates.
    @inlinable public var xAxis: SIMD3<Float> { rotation.columns.0 }
    /// The local Y axis in parent coordinates.
    @inlinable public var yAxis: SIMD3<Float> { rotation.columns.1 }
    /// The local Z axis in parent coordinates.
    @inlinable public var zAxis: SIMD3<Float> { rotation.columns.2 }

    /// Encodes as `{"columnMajor": [16 numbers]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(columnMajor, forKey: .columnMajor)
    }

    /// Decodes `{"columnMajor": [16 numbers]}`, rejecting a matrix that is not rigid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let numbers = try container.decode([Float].self, forKey: .columnMajor)
        guard let transform = Transform(columnMajor: numbers) else {
            throw DecodingError.dataCorruptedError(forKey: .columnMajor, in: container,
                debugDescription: "not a rigid transform: need 16 finite numbers, column-major, a rotation and a bottom row 0 0 0 1")
        }
        self = transform
    }

    private enum CodingKeys: String, CodingKey { case columnMajor }
}

extension Transform {
    /// The transform whose local Y axis is `normal` and whose origin is `origin`, with the local X
    /// axis along `xHint` projected into the plane (or any perpendicular direction when `xHint`
    /// is parallel to `normal`). Right-handed: Z = X × Y.
    public init(origin: SIMD3<Float>, yAxis normal: SIMD3<Float>, xHint: SIMD3<Float>) {
        let y = normal.normalized ?? SIMD3(0, 1, 0)
        let projected = xHint - dot(xHint, y) * y
        let x = projected.normalized ?? y.anyPerpendicular
        let z = cross(x, y)
        self.init(rotation: Matrix3(x, y, z), translation: origin)
    }

    /// The angle (radians, 0…π) of the transform's rotation about its axis.
    public var rotationAngle: Float {
        let (c0, c1, c2) = rotation.columns
        let cosine = (c0.x + c1.y + c2.z - 1) / 2
        return acos(min(1, max(-1, cosine)))
    }
}

extension Transform: ApproximatelyEquatable {
    /// `true` when rotation and translation agree element-wise within `tolerance`.
    public func isApproximatelyEqual(to other: Transform, tolerance: Float) -> Bool {
        rotation.isApproximatelyEqual(to: other.rotation, tolerance: tolerance)
            && translation.isApproximatelyEqual(to: other.translation, tolerance: tolerance)
    }
}
