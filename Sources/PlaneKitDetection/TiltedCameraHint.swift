#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry
import PlaneKitPlanes

/// Whether a frame looks like a tilted camera read under the default up: no plane is horizontal
/// under `up`, while a large plane is within ``maximumTilt`` of horizontal. Its classes are then
/// all `none` (floors need a horizontal plane), and the fix is an up direction or a pose.
public enum TiltedCameraHint {
    /// How far from horizontal a plane may be to count as a tilted floor or ceiling (30°).
    public static let maximumTilt: Float = 30 * .pi / 180
    /// The smallest share of the frame's measured points a plane needs to count (10%).
    public static let minimumShare: Float = 0.1

    /// The large nearly horizontal plane, its angle from horizontal (radians) and the up
    /// direction it suggests (its normal, turned to the side of `up`); `nil` when a plane is
    /// horizontal already or none is large and within ``maximumTilt``.
    public static func tiltedPlane(in result: PlaneDetectionResult, up: SIMD3<Float>)
        -> (plane: DetectedPlane, angle: Float, suggestedUp: SIMD3<Float>)? {
        guard let up = up.normalized, !result.planes.contains(where: { $0.alignment == .horizontal }) else { return nil }
        let least = Float(result.validPointCount) * minimumShare
        let candidates = result.planes.filter { Float($0.pointCount) >= least && abs(dot($0.normal, up)) >= cos(maximumTilt) }
        guard let plane = candidates.max(by: { $0.pointCount < $1.pointCount }) else { return nil }
        let cosine = abs(dot(plane.normal, up))
        let suggested = dot(plane.normal, up) < 0 ? -plane.normal : plane.normal
        return (plane, acos(min(1, cosine)), suggested)
    }
}
