import PlaneKitGeometry

/// A curved object of a synthetic scene. It occludes and returns depth like any surface, but it
/// is not a plane: its pixels have label 0 in ground-truth images.
public enum ClutterShape: Sendable, Hashable, Codable {
    /// A sphere.
    case sphere(center: SIMD3<Float>, radius: Float)
    /// An open cylinder (no caps, which would be planar) with its axis along world +Y from
    /// `baseCenter` up to `baseCenter.y + height`.
    case verticalCylinder(baseCenter: SIMD3<Float>, radius: Float, height: Float)

    /// The world-space box around the shape.
    public var bounds: AxisAlignedBox {
        switch self {
        case let .sphere(center, radius):
            return AxisAlignedBox(center: center, size: SIMD3(repeating: 2 * radius))
        case let .verticalCylinder(base, radius, height):
            return AxisAlignedBox(minimum: base - SIMD3(radius, 0, radius), maximum: base + SIMD3(radius, height, radius))
        }
    }

    /// `true` when the world point `p` is inside the shape, enlarged by `margin`.
    public func contains(_ p: SIMD3<Float>, margin: Float = 0) -> Bool {
        switch self {
        case let .sphere(center, radius):
            return (p - center).length <= radius + margin
        case let .verticalCylinder(base, radius, height):
            let d = SIMD2(p.x - base.x, p.z - base.z)
            return d.length <= radius + margin && p.y >= base.y - margin && p.y <= base.y + height + margin
        }
    }
}
