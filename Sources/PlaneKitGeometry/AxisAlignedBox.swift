/// An axis-aligned bounding box, `minimum ≤ p ≤ maximum` component-wise.
public struct AxisAlignedBox: Hashable, Sendable, Codable {
    /// The lower corner.
    public var minimum: SIMD3<Float>
    /// The upper corner.
    public var maximum: SIMD3<Float>

    /// A box from its corners (swapped component-wise where given the wrong way round).
    @inlinable public init(minimum: SIMD3<Float>, maximum: SIMD3<Float>) {
        self.minimum = pointwiseMin(minimum, maximum)
        self.maximum = pointwiseMax(minimum, maximum)
    }

    /// A box centred on `center` with the given full size along each axis.
    @inlinable public init(center: SIMD3<Float>, size: SIMD3<Float>) {
        self.init(minimum: center - abs(size) / 2, maximum: center + abs(size) / 2)
    }

    /// The smallest box holding every finite point, or `nil` when there is none.
    public init?<S: Sequence>(enclosing points: S) where S.Element == SIMD3<Float> {
        var lower = SIMD3<Float>(repeating: .infinity), upper = SIMD3<Float>(repeating: -.infinity)
        for p in points where p.isFinite {
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        guard lower.x <= upper.x else { return nil }
        self.init(minimum: lower, maximum: upper)
    }

    /// The centre.
    @inlinable public var center: SIMD3<Float> { (minimum + maximum) / 2 }
    /// The full size along each axis.
    @inlinable public var size: SIMD3<Float> { maximum - minimum }

    /// `true` when `p` is inside or on the surface.
    @inlinable public func contains(_ p: SIMD3<Float>) -> Bool {
        all(p .>= minimum) && all(p .<= maximum)
    }

    /// The smallest box holding both.
    @inlinable public func union(_ other: AxisAlignedBox) -> AxisAlignedBox {
        AxisAlignedBox(minimum: pointwiseMin(minimum, other.minimum), maximum: pointwiseMax(maximum, other.maximum))
    }

    /// The distance along `ray` at which it enters the box (0 when it starts inside), or `nil`
    /// when it misses (slab method; a ray grazing a face or edge counts as a hit).
    @inlinable public func intersection(with ray: Ray) -> Float? {
        var tNear: Float = 0, tFar = Float.infinity
        for axis in 0..<3 {
            let o = ray.origin[axis], d = ray.direction[axis]
            if d == 0 {
                // Parallel to this slab: inside it or never.
                if o < minimum[axis] || o > maximum[axis] { return nil }
                continue
            }
            let inverse = 1 / d
            var t0 = (minimum[axis] - o) * inverse, t1 = (maximum[axis] - o) * inverse
            if t0 > t1 { swap(&t0, &t1) }
            tNear = max(tNear, t0)
            tFar = min(tFar, t1)
            if tNear > tFar { return nil }
        }
        return tNear
    }
}

extension AxisAlignedBox: ApproximatelyEquatable {
    /// `true` when both corners agree within `tolerance`.
    public func isApproximatelyEqual(to other: AxisAlignedBox, tolerance: Float) -> Bool {
        minimum.isApproximatelyEqual(to: other.minimum, tolerance: tolerance)
            && maximum.isApproximatelyEqual(to: other.maximum, tolerance: tolerance)
    }
}
