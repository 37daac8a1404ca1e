/// An infinite plane in Hessian normal form: the points `p` with `normal·p + offset = 0`.
///
/// This is the convention of PCL's `ModelCoefficients` (`ax + by + cz + d = 0` with a unit
/// `(a, b, c)`). When the normal faces a sensor at the origin, `offset` is the sensor's distance
/// from the plane.
public struct Plane: Hashable, Sendable, Codable {
    /// The unit normal.
    public let normal: SIMD3<Float>
    /// The offset `d` in `normal·p + d = 0`.
    public let offset: Float

    /// A plane from a normal already known to be unit length (not checked) and an offset.
    @inlinable public init(unitNormal: SIMD3<Float>, offset: Float) {
        self.normal = unitNormal
        self.offset = offset
    }

    /// A plane from a normal (normalised here, with the offset scaled to match) and an offset,
    /// or `nil` when the normal is zero or anything is not finite.
    @inlinable public init?(normal: SIMD3<Float>, offset: Float) {
        let len = normal.length
        guard len > 1e-12, len.isFinite, offset.isFinite else { return nil }
        self.normal = normal / len
        self.offset = offset / len
    }

    /// The plane through `point` with the given normal, or `nil` when the normal is zero.
    @inlinable public init?(point: SIMD3<Float>, normal: SIMD3<Float>) {
        guard let unit = normal.normalized, point.isFinite else { return nil }
        self.normal = unit
        self.offset = -dot(unit, point)
    }

    /// The plane through three points, its normal along `(b − a) × (c − a)`, or `nil` when the
    /// points are collinear or coincide.
    public init?(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ c: SIMD3<Float>) {
        self.init(point: a, normal: cross(b - a, c - a))
    }

    /// The signed distance of `p` from the plane: positive on the side the normal points to.
    @inlinable public func signedDistance(to p: SIMD3<Float>) -> Float {
        dot(normal, p) + offset
    }

    /// The point of the plane nearest `p`.
    @inlinable public func project(_ p: SIMD3<Float>) -> SIMD3<Float> {
        p - signedDistance(to: p) * normal
    }

    /// The point of the plane nearest the origin.
    @inlinable public var pointNearestOrigin: SIMD3<Float> { -offset * normal }

    /// The same plane with the normal reversed.
    @inlinable public var flipped: Plane {
        Plane(unitNormal: -normal, offset: -offset)
    }

    /// This plane oriented so that its normal faces `viewpoint` (the viewpoint is on the
    /// positive side, or on the plane).
    @inlinable public func facing(_ viewpoint: SIMD3<Float>) -> Plane {
        signedDistance(to: viewpoint) < 0 ? flipped : self
    }

    /// The distance along `ray` at which it meets the plane, or `nil` when the ray is parallel to
    /// the plane (within `1e-6` of the direction's length) or the plane lies behind it.
    ///
    /// A ray starting on the plane hits it at distance 0; a ray lying in the plane is parallel.
    @inlinable public func intersection(with ray: Ray) -> Float? {
        let denominator = dot(normal, ray.direction)
        guard abs(denominator) > 1e-6 else { return nil }
        let t = -signedDistance(to: ray.origin) / denominator
        // A ray starting on the plane gives ±0; report +0 so that no "-0.0" reaches the output.
        return t > 0 ? t : (t == 0 ? 0 : nil)
    }

    /// The plane expressed in another frame: `transform` maps this plane's frame to the new one.
    public func transformed(by transform: Transform) -> Plane {
        let n = transform.apply(toDirection: normal)
        let p = transform.apply(toPoint: pointNearestOrigin)
        return Plane(unitNormal: n, offset: -dot(n, p))
    }

    /// A frame on the plane: origin at `origin` projected onto the plane, local +Y along the
    /// normal, local +X along `xHint` projected into the plane.
    public func frame(origin: SIMD3<Float>, xHint: SIMD3<Float>) -> Transform {
        Transform(origin: project(origin), yAxis: normal, xHint: xHint)
    }
}

extension Plane {
    private enum CodingKeys: String, CodingKey { case normal, offset }

    /// Decodes `{"normal": [x, y, z], "offset": d}`. A normal that is not unit length is
    /// normalised with its offset; a zero or non-finite normal or offset is rejected.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let normal = try container.decode(SIMD3<Float>.self, forKey: .normal)
        let offset = try container.decode(Float.self, forKey: .offset)
        guard let plane = Plane(normal: normal, offset: offset) else {
            throw DecodingError.dataCorruptedError(forKey: .normal, in: container,
                debugDescription: "a plane needs a non-zero, finite normal and a finite offset")
        }
        // Keep an already unit normal bit for bit, so that encoding and decoding round-trip exactly.
        self = abs(normal.lengthSquared - 1) <= 1e-6 ? Plane(unitNormal: normal, offset: offset) : plane
    }

    /// Encodes as `{"normal": [x, y, z], "offset": d}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(normal, forKey: .normal)
        try container.encode(offset, forKey: .offset)
    }
}

extension Plane: ApproximatelyEquatable {
    /// `true` when normal and offset agree within `tolerance` (orientation matters).
    public func isApproximatelyEqual(to other: Plane, tolerance: Float) -> Bool {
        normal.isApproximatelyEqual(to: other.normal, tolerance: tolerance) && offset.isApproximatelyEqual(to: other.offset, tolerance: tolerance)
    }
}
