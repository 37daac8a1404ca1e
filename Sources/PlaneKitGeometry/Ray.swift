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

extension Ray {
    private enum CodingKeys: String, CodingKey { case origin, direction }

    /// Decodes `{"origin": [x, y, z], "direction": [x, y, z]}`. A direction that is not unit
    /// length is normalised; a zero or non-finite direction, or a non-finite origin, is rejected.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let origin = try container.decode(SIMD3<Float>.self, forKey: .origin)
        let direction = try container.decode(SIMD3<Float>.self, forKey: .direction)
        guard let ray = Ray(origin: origin, direction: direction) else {
            throw DecodingError.dataCorruptedError(forKey: .direction, in: container,
                debugDescription: "a ray needs a finite origin and a non-zero, finite direction")
        }
        // Keep an already unit direction bit for bit, so that encoding and decoding round-trip exactly.
        self = abs(direction.lengthSquared - 1) <= 1e-6 ? Ray(origin: origin, unitDirection: direction) : ray
    }

    /// Encodes as `{"origin": [x, y, z], "direction": [x, y, z]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(origin, forKey: .origin)
        try container.encode(direction, forKey: .direction)
    }
}

extension Ray: ApproximatelyEquatable {
    /// `true` when origin and direction agree within `tolerance`.
    public func isApproximatelyEqual(to other: Ray, tolerance: Float) -> Bool {
        origin.isApproximatelyEqual(to: other.origin, tolerance: tolerance)
            && direction.isApproximatelyEqual(to: other.direction, tolerance: tolerance)
    }
}
