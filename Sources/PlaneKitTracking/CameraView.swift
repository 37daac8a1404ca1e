import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitInput

/// What the camera sees in one frame, for deciding whether an anchor's absence is evidence:
/// the camera and, when known, the frame's measured points (camera coordinates).
public struct CameraView: Sendable {
    /// The camera (intrinsics and world-from-camera pose).
    public var camera: PinholeCamera
    /// The frame's organized cloud in camera coordinates, when there is one.
    public var frame: PointCloud?

    /// A view from its parts.
    public init(camera: PinholeCamera, frame: PointCloud? = nil) {
        self.camera = camera
        self.frame = frame
    }

    /// `true` when the world point `p` is inside the image, its depth in `depths`, and — with a
    /// frame — the measurement at its pixel is not nearer than `p` by more than 5 cm + 3σ of
    /// `noise` (so `p` is not hidden behind something). A hole at that pixel is no evidence
    /// either way: `false`.
    public func sees(_ p: SIMD3<Float>, depths: ClosedRange<Float>, noise: DepthNoiseModel) -> Bool {
        let local = camera.pose.inverse.apply(toPoint: p)
        guard depths.contains(local.z), let pixel = camera.intrinsics.project(local),
              camera.intrinsics.contains(pixel) else { return false }
        guard let frame else { return true }
        let u = Int(pixel.x.rounded()), v = Int(pixel.y.rounded())
        guard u >= 0, v >= 0, u < frame.width, v < frame.height, frame.isOrganized else { return false }
        let measured = frame.points[v * frame.width + u]
        guard measured.isFinite, measured.z > 0 else { return false }
        return measured.z >= local.z - (0.05 + 3 * noise.sigma(atDepth: local.z))
    }
}
