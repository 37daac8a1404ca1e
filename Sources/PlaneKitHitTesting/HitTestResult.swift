import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// One place a ray hit, like ARKit's `ARHitTestResult` / `ARRaycastResult`.
public struct HitTestResult: Sendable, Hashable, Codable {
    /// The distance from the ray's origin along its (unit) direction, in metres.
    public var distance: Float
    /// The hit in world coordinates: origin at the hit point, local +Y along the surface normal
    /// on the side facing the ray's origin, local X along the plane's own X where there is a
    /// plane, otherwise across the ray (so local Z points back along the ray).
    public var worldTransform: Transform
    /// What was hit.
    public var target: HitTestTarget
    /// The surface's alignment: the detected plane's, or the estimate's (horizontal or
    /// vertical); `nil` for a feature point, which has no surface.
    public var alignment: PlaneAlignment?
    /// The detected plane hit, or `nil` for estimated planes and feature points.
    public var planeIdentifier: PlaneIdentifier?

    /// A result from its parts.
    public init(distance: Float, worldTransform: Transform, target: HitTestTarget, alignment: PlaneAlignment?,
                planeIdentifier: PlaneIdentifier?) {
        self.distance = distance
        self.worldTransform = worldTransform
        self.target = target
        self.alignment = alignment
        self.planeIdentifier = planeIdentifier
    }

    /// The hit point in world coordinates.
    @inlinable public var position: SIMD3<Float> { worldTransform.translation }

    /// The surface normal at the hit, facing the ray's origin.
    @inlinable public var normal: SIMD3<Float> { worldTransform.yAxis }

    /// Nearest first; at equal distance the more specific target first, then by plane identifier.
    /// A total order, so sorting is deterministic.
    public static func isOrderedBefore(_ a: HitTestResult, _ b: HitTestResult) -> Bool {
        if a.distance != b.distance { return a.distance < b.distance }
        if a.target != b.target { return a.target < b.target }
        if a.alignment != b.alignment { return (a.alignment?.rawValue ?? "") < (b.alignment?.rawValue ?? "") }
        return (a.planeIdentifier?.rawValue ?? .max) < (b.planeIdentifier?.rawValue ?? .max)
    }
}
