#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// How a plane sits relative to gravity, like ARKit's `ARPlaneAnchor.Alignment` plus `any`.
public enum PlaneAlignment: String, Sendable, Codable, Hashable, CaseIterable {
    /// The normal is within the tolerance of up or down (floors, tables, ceilings).
    case horizontal
    /// The normal is perpendicular to up within the tolerance (walls, doors, cupboard fronts).
    case vertical
    /// Neither: a slope.
    case any

    /// The alignment of a plane with unit `normal` when gravity points along `-up`.
    ///
    /// `tolerance` is an angle in radians: horizontal when the normal is within it of ±up,
    /// vertical when the normal is within it of perpendicular to up.
    public init(normal: SIMD3<Float>, up: SIMD3<Float>, tolerance: Float = PlaneAlignment.defaultTolerance) {
        let cosine = abs(dot(normal, normalize(up)))
        if cosine >= cosf(tolerance) {
            self = .horizontal
        } else if cosine <= sinf(tolerance) {
            self = .vertical
        } else {
            self = .any
        }
    }

    /// 10°: about what a hand-held phone's gravity estimate and a real floor's flatness allow.
    public static let defaultTolerance: Float = 10 * .pi / 180

    /// `true` when a plane of this alignment may be used where `allowed` is asked for
    /// (`any` allows every plane).
    public func satisfies(_ allowed: PlaneAlignment) -> Bool {
        allowed == .any || allowed == self
    }
}
