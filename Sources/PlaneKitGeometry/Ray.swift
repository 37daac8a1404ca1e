/// A half-line: every point `origin + t·direction` with `t ≥ 0`.
public struct Ray: Hashable, Sendable, Codable {
    /// Where the ray starts.
    public var origin: SIMD3<Float>
    /// The unit direction.
    public var direction: SIMD3<Float>

    /// A ray from `origin` along `direction` (normalised here), or `nil` when the direction is
    /// zero or either vector is not finite.
    @inlinable public init?(origin: SIMD3<Float>, direction: SIMD3<Float>) {
        guard origin.isFinite, let unit = direction.normalized else { return nil }
        self.origin = origin
        self.direction = unit
    }

    /// A ray whose direction is already known to be unit length (not checked).
    @inlinable public init(origin: SIMD3<Float>, unitDirection: SIMD3<Float>) {
        self.origin = origin
        self.direction = unitDirection
    }

    /// The point at distance `t` along the ray.
    @inlinable public func point(at t: Float) -> SIMD3<Float> {
        origin + t * direction
    }

    /// The distance along the ray of the point on the ray's line nearest `p` (may be negative).
    @inlinable public func parameter(nearest p: SIMD3<Float>) -> Float {
        dot(p - origin, direction)
    }

    /// The distance from `p` to the ray (to the origin when `p` lies behind it).
    @inlinable public func distance(to p: SIMD3<Float>) -> Float {
        PlaneKitGeometry.distance(point(at: max(0, parameter(nearest: p))), p)
    }

    /// This ray expressed in another frame.
    @inlinable public func transformed(by transform: Transform) -> Ray {
        Ray(origin: transform.apply(toPoint: origin), unitDirection: transform.apply(toDirection: direction))
    }
}

extension Ray: ApproximatelyEquatable {
    /// `true` when origin and direction agree within `tolerance`.
    public func isApproximatelyEqual(to other: Ray, tolerance: Float) -> Bool {
        origin.isApproximatelyEqual(to: other.origin, tolerance: tolerance)
            && direction.isApproximatelyEqual(to: other.direction, tolerance: tolerance)
    }
}
