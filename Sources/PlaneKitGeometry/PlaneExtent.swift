/// A rectangle in a plane's own coordinates (local X and Z), like `ARPlaneAnchor.extent`.
///
/// `width` runs along local X and `length` along local Z; the rectangle is centred on `center`
/// (local `(x, z)`), which is the origin when the plane's transform sits at the plane's centre.
public struct PlaneExtent: Hashable, Sendable, Codable {
    /// The centre in local `(x, z)`.
    public var center: SIMD2<Float>
    /// The size along local X.
    public var width: Float
    /// The size along local Z.
    public var length: Float

    /// An extent of `width` × `length` centred on `center` (sizes below zero become zero).
    @inlinable public init(center: SIMD2<Float> = .zero, width: Float, length: Float) {
        self.center = center
        self.width = max(0, width)
        self.length = max(0, length)
    }

    /// The smallest extent holding every point, or `nil` for no points.
    public init?<S: Sequence>(enclosing points: S) where S.Element == SIMD2<Float> {
        var lower = SIMD2<Float>(repeating: .infinity), upper = SIMD2<Float>(repeating: -.infinity)
        for p in points where p.isFinite {
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        guard lower.x <= upper.x else { return nil }
        self.init(center: (lower + upper) / 2, width: upper.x - lower.x, length: upper.y - lower.y)
    }

    /// The area, `width × length`.
    @inlinable public var area: Float { width * length }

    /// The lower corner `(minX, minZ)`.
    @inlinable public var minimum: SIMD2<Float> { center - SIMD2(width, length) / 2 }
    /// The upper corner `(maxX, maxZ)`.
    @inlinable public var maximum: SIMD2<Float> { center + SIMD2(width, length) / 2 }

    /// `true` when `p` lies inside or on the border of the rectangle after enlarging it by
    /// `margin` times its size on every side (so `margin: 0.1` is the 10% enlargement of snapping).
    @inlinable public func contains(_ p: SIMD2<Float>, margin: Float = 0) -> Bool {
        let half = SIMD2(width, length) * (0.5 + margin)
        let d = abs(p - center)
        return d.x <= half.x && d.y <= half.y
    }

    /// The four corners, counter-clockwise in the `(x, z)` coordinate plane, starting at ``minimum``.
    public var corners: [SIMD2<Float>] {
        let lo = minimum, hi = maximum
        return [SIMD2(lo.x, lo.y), SIMD2(hi.x, lo.y), SIMD2(hi.x, hi.y), SIMD2(lo.x, hi.y)]
    }
}

extension PlaneExtent: ApproximatelyEquatable {
    /// `true` when centre and sizes agree within `tolerance`.
    public func isApproximatelyEqual(to other: PlaneExtent, tolerance: Float) -> Bool {
        center.isApproximatelyEqual(to: other.center, tolerance: tolerance)
            && width.isApproximatelyEqual(to: other.width, tolerance: tolerance)
            && length.isApproximatelyEqual(to: other.length, tolerance: tolerance)
    }
}

extension PlaneExtent {
    private enum CodingKeys: String, CodingKey { case center, width, length }

    /// Decodes `{"center": [x, z], "width": w, "length": l}`, rejecting a non-finite centre and a
    /// size that is negative or not finite (the memberwise initializer would silently clamp those).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let center = try container.decode(SIMD2<Float>.self, forKey: .center)
        let width = try container.decode(Float.self, forKey: .width)
        let length = try container.decode(Float.self, forKey: .length)
        guard center.x.isFinite, center.y.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .center, in: container, debugDescription: "an extent's centre must be finite")
        }
        for (value, key) in [(width, CodingKeys.width), (length, .length)] where !(value.isFinite && value >= 0) {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "an extent's \(key.stringValue) must be finite and not negative, got \(value)")
        }
        self.init(center: center, width: width, length: length)
    }
}
