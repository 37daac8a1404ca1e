/// What a raycast record may hit, by the names of ARKit's `ARRaycastQuery.Target` (plus the
/// older hit-test result types).
public enum RaycastTarget: String, Sendable, Hashable, CaseIterable {
    /// A detected plane, within its boundary polygon.
    case existingPlaneGeometry
    /// A detected plane, within its rectangular extent.
    case existingPlaneUsingExtent
    /// A detected plane taken as infinite.
    case existingPlaneInfinite
    /// A plane estimated from the depth around the hit, without a detected plane.
    case estimatedPlane
    /// The nearest measured point along the ray.
    case featurePoint
    /// Any of the above, the most reliable first.
    case any
}

/// Which plane orientations a raycast record accepts.
public enum RaycastAlignment: String, Sendable, Hashable, CaseIterable {
    /// Planes whose normal is vertical (floors, table tops, ceilings).
    case horizontal
    /// Planes whose normal is horizontal (walls).
    case vertical
    /// Any orientation.
    case any
}
