#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A rotation quaternion `(x, y, z, w)` with `w` the real part, as in Apple's `simd_quatf`.
public struct Quaternion: Hashable, Sendable, Codable {
    /// The components `(x, y, z, w)`.
    public var vector: SIMD4<Float>

    /// A quaternion from its components; `w` is the real part. Not normalised here.
    @inlinable public init(x: Float, y: Float, z: Float, w: Float) {
        vector = SIMD4(x, y, z, w)
    }

    /// The rotation by `angle` radians about `axis` (right-hand rule). A zero axis gives identity.
    public init(angle: Float, axis: SIMD3<Float>) {
        guard let unit = axis.normalized else {
            self = .identity
            return
        }
        let half = angle / 2
        let s = sinf(half)
        vector = SIMD4(unit * s, cosf(half))
    }

    /// The rotation that a rotation matrix performs (Shepperd's method, stable for every angle).
    public init(_ m: Matrix3) {
        let (c0, c1, c2) = m.columns
        let trace = c0.x + c1.y + c2.z
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            vector = SIMD4((c1.z - c2.y) / s, (c2.x - c0.z) / s, (c0.y - c1.x) / s, s / 4)
        } else if c0.x > c1.y && c0.x > c2.z {
            let s = (1 + c0.x - c1.y - c2.z).squareRoot() * 2
            vector = SIMD4(s / 4, (c1.x + c0.y) / s, (c2.x + c0.z) / s, (c1.z - c2.y) / s)
        } else if c1.y > c2.z {
            let s = (1 + c1.y - c0.x - c2.z).squareRoot() * 2
            vector = SIMD4((c1.x + c0.y) / s, s / 4, (c2.y + c1.z) / s, (c2.x - c0.z) / s)
        } else {
            let s = (1 + c2.z - c0.x - c1.y).squareRoot() * 2
            vector = SIMD4((c2.x + c0.z) / s, (c2.y + c1.z) / s, s / 4, (c0.y - c1.x) / s)
        }
    }

    /// The identity rotation.
    public static let identity = Quaternion(x: 0, y: 0, z: 0, w: 1)

    /// The imaginary part `(x, y, z)`.
    @inlinable public var imaginary: SIMD3<Float> { SIMD3(vector.x, vector.y, vector.z) }

    /// The real part.
    @inlinable public var real: Float { vector.w }

    /// This quaternion scaled to unit length, or identity when it is zero or not finite.
    public var normalized: Quaternion {
        let len = (vector * vector).sum().squareRoot()
        guard len > 1e-12, len.isFinite else { return .identity }
        return Quaternion(x: vector.x / len, y: vector.y / len, z: vector.z / len, w: vector.w / len)
    }

    /// The inverse rotation (the conjugate of the normalised quaternion).
    public var inverse: Quaternion {
        let q = normalized
        return Quaternion(x: -q.vector.x, y: -q.vector.y, z: -q.vector.z, w: q.vector.w)
    }

    /// The rotation angle in radians (0…π).
    public var angle: Float {
        let q = normalized
        return 2 * atan2f(q.imaginary.length, abs(q.real))
    }

    /// The rotation as a 3×3 matrix (of the normalised quaternion).
    public var matrix: Matrix3 {
        let q = normalized.vector
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        return Matrix3(
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
    }

    /// Rotates `v`.
    public func act(_ v: SIMD3<Float>) -> SIMD3<Float> {
        matrix * v
    }

    /// The Hamilton product: the rotation `b` followed by `a`.
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        let (av, bv) = (a.imaginary, b.imaginary)
        let xyz = a.real * bv + b.real * av + cross(av, bv)
        return Quaternion(x: xyz.x, y: xyz.y, z: xyz.z, w: a.real * b.real - dot(av, bv))
    }
}

extension Quaternion: ApproximatelyEquatable {
    /// `true` when both describe the same rotation within `tolerance` (`q` and `-q` are equal).
    public func isApproximatelyEqual(to other: Quaternion, tolerance: Float) -> Bool {
        let a = normalized.vector, b = other.normalized.vector
        return a.isApproximatelyEqual(to: b, tolerance: tolerance) || a.isApproximatelyEqual(to: -b, tolerance: tolerance)
    }
}
