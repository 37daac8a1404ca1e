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
        guard let (depth, measured) = look(at: p, depths: depths) else { return false }
        guard let measured else { return frame == nil }
        return measured >= depth - (0.05 + 3 * noise.sigma(atDepth: depth))
    }

    /// `p`'s depth and the depth measured at its pixel, or `nil` when `p` is outside the image
    /// or `depths`; the measurement is `nil` without a frame or at a hole.
    private func look(at p: SIMD3<Float>, depths: ClosedRange<Float>) -> (depth: Float, measured: Float?)? {
        let local = camera.pose.inverse.apply(toPoint: p)
        guard depths.contains(local.z), let pixel = camera.intrinsics.project(local),
              camera.intrinsics.contains(pixel) else { return nil }
        guard let frame else { return (local.z, nil) }
        let u = Int(pixel.x.rounded()), v = Int(pixel.y.rounded())
        guard u >= 0, v >= 0, u < frame.width, v < frame.height, frame.isOrganized else { return (local.z, nil) }
        let measured = frame.points[v * frame.width + u]
        return (local.z, measured.isFinite && measured.z > 0 ? measured.z : nil)
    }

    /// What the frame shows at the world point `p`, which lies on a surface.
    public enum Sight: Sendable, Hashable {
        /// No evidence: outside the image or the depth range, or a hole in the measurements.
        case unknown
        /// The measurement is `p` itself (within the band): the surface is seen there.
        case onSurface
        /// Something nearer than `p` is measured: `p` is hidden behind it.
        case hidden
        /// A measurement farther than `p`: the camera sees through where `p` would be, so the
        /// surface does not reach `p`.
        case seenThrough
    }

    /// What the frame shows at the world point `p`: measured within `band + 3σ` of `p`'s depth
    /// (σ from `noise` at that depth) is ``Sight/onSurface``, nearer ``Sight/hidden``, farther
    /// ``Sight/seenThrough``. Without a frame, always ``Sight/unknown``.
    public func sight(of p: SIMD3<Float>, depths: ClosedRange<Float>, band: Float, noise: DepthNoiseModel) -> Sight {
        guard let (depth, measured) = look(at: p, depths: depths), let measured else { return .unknown }
        let tolerance = band + 3 * noise.sigma(atDepth: depth)
        if measured < depth - tolerance { return .hidden }
        if measured > depth + tolerance { return .seenThrough }
        return .onSurface
    }
}
