import PlaneKitGeometry

/// How a simulated sensor's pixels sample the scene: the ray each pixel `(u, v)` measures along.
///
/// Every ray is `origin + t · direction` with `direction.z == 1`, so the ray parameter `t` of a
/// hit is its depth (camera +Z) on both kinds of grid.
public enum SensorGrid: Sendable, Hashable {
    /// A pinhole camera: every ray starts at the camera centre and passes through its pixel.
    case pinhole(PinholeIntrinsics)
    /// A range image sampled on a regular grid in camera X/Y, as tabletop scanners write them
    /// (the ABW and Perceptron range-image benchmarks): pixel `(u, v)` looks along +Z from
    /// `((u − (width − 1)/2) · spacing, (v − (height − 1)/2) · spacing, 0)`. Such an image has
    /// no pinhole intrinsics.
    case orthographic(width: Int, height: Int, spacing: Float)

    /// Pixels per row.
    public var width: Int {
        switch self {
        case let .pinhole(k): return k.width
        case let .orthographic(width, _, _): return width
        }
    }

    /// Rows.
    public var height: Int {
        switch self {
        case let .pinhole(k): return k.height
        case let .orthographic(_, height, _): return height
        }
    }

    /// The pinhole intrinsics, or `nil` for an orthographic grid.
    public var intrinsics: PinholeIntrinsics? {
        if case let .pinhole(k) = self { return k }
        return nil
    }

    /// The ray of pixel `(u, v)`: where it starts and its direction (z component 1).
    @inline(__always)
    public func ray(u: Int, v: Int) -> (origin: SIMD3<Float>, direction: SIMD3<Float>) {
        switch self {
        case let .pinhole(k):
            return (.zero, SIMD3((Float(u) - k.cx) / k.fx, (Float(v) - k.cy) / k.fy, 1))
        case let .orthographic(width, height, spacing):
            let x = (Float(u) - Float(width - 1) / 2) * spacing, y = (Float(v) - Float(height - 1) / 2) * spacing
            return (SIMD3(x, y, 0), SIMD3(0, 0, 1))
        }
    }

    /// The pixel rectangle `(u0, u1, v0, v1)` (inclusive) whose rays can meet the convex hull of
    /// the camera-frame `points`, or `nil` when none can.
    func pixelBounds(of points: [SIMD3<Float>]) -> (Int, Int, Int, Int)? {
        switch self {
        case let .pinhole(k):
            return RayCastBuffers.pixelBounds(of: points, intrinsics: k)
        case let .orthographic(width, height, spacing):
            guard width > 0, height > 0, !points.isEmpty, points.contains(where: { $0.z > 0 }) else { return nil }
            var lower = SIMD2<Float>(repeating: .infinity), upper = SIMD2<Float>(repeating: -.infinity)
            for p in points {
                lower = pointwiseMin(lower, SIMD2(p.x, p.y))
                upper = pointwiseMax(upper, SIMD2(p.x, p.y))
            }
            let centre = SIMD2(Float(width - 1), Float(height - 1)) / 2
            let low = lower / spacing + centre, high = upper / spacing + centre
            let maxU = Float(width - 1), maxV = Float(height - 1)
            guard high.x >= -1, high.y >= -1, low.x <= maxU + 1, low.y <= maxV + 1 else { return nil }
            // One pixel of slack for rounding, clamped in Float so that huge values cannot overflow.
            return (Int(min(max(low.x.rounded(.down) - 1, 0), maxU)), Int(min(max(high.x.rounded(.up) + 1, 0), maxU)),
                    Int(min(max(low.y.rounded(.down) - 1, 0), maxV)), Int(min(max(high.y.rounded(.up) + 1, 0), maxV)))
        }
    }
}
