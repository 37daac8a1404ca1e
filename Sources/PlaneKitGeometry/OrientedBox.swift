/// A box of any orientation: an axis-aligned box centred on the origin of a local frame.
///
/// This is how a placed object's bounds are kept: its anchor's transform and its size.
public struct OrientedBox: Hashable, Sendable, Codable {
    /// World-from-box transform; the box is centred on its origin.
    public var transform: Transform
    /// Half the size along the box's local X, Y and Z.
    public var halfExtents: SIMD3<Float>

    /// A box with the given world-from-box transform and full size.
    @inlinable public init(transform: Transform, size: SIMD3<Float>) {
        self.transform = transform
        self.halfExtents = abs(size) / 2
    }

    /// The full size along the box's local axes.
    @inlinable public var size: SIMD3<Float> { halfExtents * 2 }

    /// The centre in world coordinates.
    @inlinable public var center: SIMD3<Float> { transform.translation }

    /// The box in its own frame.
    @inlinable public var localBox: AxisAlignedBox {
        AxisAlignedBox(minimum: -halfExtents, maximum: halfExtents)
    }

    /// `true` when the world point `p` is inside or on the surface.
    @inlinable public func contains(_ p: SIMD3<Float>) -> Bool {
        localBox.contains(transform.inverse.apply(toPoint: p))
    }

    /// The distance along `ray` (world space) at which it enters the box, or `nil` when it misses.
    /// Rigid transforms keep lengths, so the distance in the box's frame is the world distance.
    @inlinable public func intersection(with ray: Ray) -> Float? {
        localBox.intersection(with: ray.transformed(by: transform.inverse))
    }

    /// The eight corners in world coordinates.
    public var corners: [SIMD3<Float>] {
        var result: [SIMD3<Float>] = []
        result.reserveCapacity(8)
        for sx: Float in [-1, 1] {
            for sy: Float in [-1, 1] {
                for sz: Float in [-1, 1] {
                    result.append(transform.apply(toPoint: halfExtents * SIMD3(sx, sy, sz)))
                }
            }
        }
        return result
    }

    /// The world-space axis-aligned box around this one.
    public var axisAlignedBounds: AxisAlignedBox {
        // Corners are never empty, so the enclosing box always exists.
        AxisAlignedBox(enclosing: corners) ?? AxisAlignedBox(center: center, size: .zero)
    }
}
