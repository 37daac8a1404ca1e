#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// The rotation that makes world +Y point up for a camera whose up direction is known in its
/// own coordinates (from an accelerometer's gravity, or the normal of the floor it sees).
///
/// Cameras here have +Y down and +Z forward, so an upright camera looking at the horizon gets
/// the half turn about X (world +Z behind it, +Y up); a tilted one gets that half turn
/// followed by the smallest rotation that brings its up onto +Y. Heading stays that of the camera.
enum WorldLevelling {
    /// World-from-camera rotation for a camera whose up is `up` (camera coordinates, any length),
    /// or `nil` when `up` is zero or not finite.
    static func rotation(cameraUp up: SIMD3<Float>) -> Matrix3? {
        guard up.isFinite, let unit = up.normalized else { return nil }
        // The half turn about X: (x, y, z) → (x, −y, −z).
        let flip = Matrix3(SIMD3(1, 0, 0), SIMD3(0, -1, 0), SIMD3(0, 0, -1))
        return turnUp(flip * unit) * flip
    }

    /// The smallest rotation that brings the unit vector `direction` (world coordinates) onto
    /// +Y; a half turn about Z when it points straight down.
    static func turnUp(_ direction: SIMD3<Float>) -> Matrix3 {
        let target = SIMD3<Float>(0, 1, 0)
        let axis = cross(direction, target)
        let sine = (axis * axis).sum().squareRoot()
        let cosine = dot(direction, target)
        guard sine > 1e-6 else {
            // Already up, or exactly upside down: a half turn about Z rights it.
            return cosine > 0 ? .identity : Quaternion(angle: .pi, axis: SIMD3(0, 0, 1)).matrix
        }
        return Quaternion(angle: atan2f(sine, cosine), axis: axis / sine).matrix
    }
}
