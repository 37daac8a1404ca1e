import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitCommandSupport

/// The hint `analyze` and `raycast` give when no up was typed and the frame looks tilted.
enum UpHint {
    /// One line on stderr when `cloud` has no pose (so `up` is the default camera −Y) and
    /// ``TiltedCameraHint`` finds a large plane near horizontal but none horizontal: its classes
    /// are then all `none`, and `--up` (the up that plane suggests) or a pose fixes them.
    static func warnIfTilted(file: String, cloud: PointCloud, result: PlaneDetectionResult, up: SIMD3<Float>) {
        guard cloud.sensorPose == .identity, let tilted = TiltedCameraHint.tiltedPlane(in: result, up: up) else { return }
        // Rounded to what is printed, so no component shows as -0.000.
        let suggested = (tilted.suggestedUp * 1000).rounded(.toNearestOrEven) / 1000 + SIMD3(repeating: 0)
        Diagnostics.warn(CFormat.string(
            "hint: \(file): no plane is horizontal under the default up (camera −Y), but plane \(tilted.plane.label) is %.0f° from horizontal: "
                + "the camera is probably tilted; pass its up direction (e.g. --up %.3f,%.3f,%.3f from that plane) or a pose",
            Double(tilted.angle * 180 / .pi), Double(suggested.x), Double(suggested.y), Double(suggested.z)))
    }
}
