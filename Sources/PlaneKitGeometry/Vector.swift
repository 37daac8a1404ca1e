#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Vector operations on the standard library's `SIMD2<Float>`, `SIMD3<Float>` and `SIMD4<Float>`.
///
/// Linux has no `simd` module, so PlaneKit supplies the handful of functions that ARKit code
/// reaches for (`dot`, `cross`, `length`, `normalize`, `distance`) under the same names, as free
/// functions and as methods. All of them are `@inlinable` so that hot loops in other modules
/// compile down to plain arithmetic.

/// The dot product of two 3D vectors.
@inlinable
public func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    (a * b).sum()
}

/// The dot product of two 2D vectors.
@inlinable
public func dot(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float {
    a.x * b.x + a.y * b.y
}

/// The cross product `a × b` (right-handed).
@inlinable
public func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// The 2D cross product (the z component of the 3D cross product of `a` and `b` in the XY plane).
///
/// Positive when `b` lies counter-clockwise of `a`.
@inlinable
public func cross(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Float {
    a.x * b.y - a.y * b.x
}

/// The Euclidean length of a 3D vector.
@inlinable
public func length(_ v: SIMD3<Float>) -> Float {
    dot(v, v).squareRoot()
}

/// The Euclidean length of a 2D vector.
@inlinable
public func length(_ v: SIMD2<Float>) -> Float {
    dot(v, v).squareRoot()
}

/// The distance between two points.
@inlinable
public func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
    length(a - b)
}

/// `v` scaled to unit length, or the zero vector when `v` has no direction.
///
/// Apple's `simd_normalize` returns NaNs for a zero vector; PlaneKit returns zero so that a
/// degenerate input stays finite. Use ``Swift/SIMD3/normalized`` to get `nil` instead.
@inlinable
public func normalize(_ v: SIMD3<Float>) -> SIMD3<Float> {
    v.normalized ?? .zero
}

/// The component-wise absolute value.
@inlinable
public func abs(_ v: SIMD3<Float>) -> SIMD3<Float> {
    v.replacing(with: -v, where: v .< 0)
}

/// The component-wise absolute value.
@inlinable
public func abs(_ v: SIMD2<Float>) -> SIMD2<Float> {
    v.replacing(with: -v, where: v .< 0)
}

extension SIMD3 where Scalar == Float {
    /// The dot product with `other`.
    @inlinable public func dot(_ other: SIMD3<Float>) -> Float { PlaneKitGeometry.dot(self, other) }

    /// The cross product `self × other`.
    @inlinable public func cross(_ other: SIMD3<Float>) -> SIMD3<Float> { PlaneKitGeometry.cross(self, other) }

    /// The Euclidean length.
    @inlinable public var length: Float { PlaneKitGeometry.length(self) }

    /// The squared Euclidean length (no square root).
    @inlinable public var lengthSquared: Float { PlaneKitGeometry.dot(self, self) }

    /// This vector scaled to unit length, or `nil` when it is zero, too small to have a reliable
    /// direction, or not finite.
    @inlinable public var normalized: SIMD3<Float>? {
        let len = length
        if len > 1e-12, len.isFinite { return self / len }
        // The squared length overflows beyond about 1e19 although the vector is finite: divide by
        // the largest component first (a rare path, kept off the common one).
        guard len.isInfinite, isFinite else { return nil }
        let scaled = self / abs(self).max()
        return scaled / scaled.length
    }

    /// `true` when every component is finite (no NaN or infinity).
    @inlinable public var isFinite: Bool {
        x.isFinite && y.isFinite && z.isFinite
    }

    /// Some unit vector perpendicular to this one (which must be non-zero).
    ///
    /// Picks the world axis least aligned with `self` so that the result is well conditioned.
    @inlinable public var anyPerpendicular: SIMD3<Float> {
        let a = abs(self)
        let axis: SIMD3<Float> = a.x <= a.y && a.x <= a.z ? SIMD3(1, 0, 0) : (a.y <= a.z ? SIMD3(0, 1, 0) : SIMD3(0, 0, 1))
        return normalize(PlaneKitGeometry.cross(self, axis))
    }

    /// The angle in radians between this vector and `other` (0…π); 0 when either is zero.
    @inlinable public func angle(to other: SIMD3<Float>) -> Float {
        guard let a = normalized, let b = other.normalized else { return 0 }
        // atan2 of |a×b| and a·b is accurate near 0 and π where acos is not.
        return atan2f(PlaneKitGeometry.cross(a, b).length, PlaneKitGeometry.dot(a, b))
    }
}

extension SIMD2 where Scalar == Float {
    /// The Euclidean length.
    @inlinable public var length: Float { PlaneKitGeometry.length(self) }

    /// `true` when both components are finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }
}
