import PlaneKitGeometry

/// Distances from a plane taken along the viewing ray, where depth noise lies.
///
/// A point's measured depth errs along its ray, so a point off a plane seen steeply lies close
/// to the plane even when its depth is far off: its distance from the plane is the depth error
/// times the cosine between the plane's normal and the ray. Where that matters the distance is
/// divided by the cosine: which plane a pixel at the edge between two goes to
/// (``PixelRefinement``), and whether a cell joins a face's region at object scale
/// (``RegionGrowing``). Planes are taken as no steeper than ``steepestCosine`` (78° from the
/// ray), so that at a grazing angle, where a face's points scatter across it anyway, the
/// division does not blow the distance up.
enum RayDistance {
    /// The smallest cosine between a plane's normal and a ray that the division uses.
    static let steepestCosine: Float = 0.2

    /// The cosine between `normal` and the ray from the origin through `point`, at least
    /// ``steepestCosine``.
    @inline(__always) static func cosine(normal: SIMD3<Float>, point: SIMD3<Float>) -> Float {
        max(abs(dot(normal, point)) / length(point), steepestCosine)
    }
}
