import PlaneKitGeometry
import PlaneKitCameraTracking

/// The camera after a frame (`camera`, the first event of every frame): the world-from-camera
/// pose used for it — the record's own, or the one tracked from its depth — and the tracking
/// state, as ARKit's `ARCamera.TrackingState`.
public struct CameraEvent: Sendable, Hashable {
    /// The frame (0-based).
    public var frame: Int
    /// The frame's timestamp (s).
    public var timestamp: Double
    /// World-from-camera.
    public var transform: Transform
    /// `normal`, `limited` (with a reason) or `notAvailable`.
    public var tracking: TrackingState

    /// An event from its parts.
    public init(frame: Int, timestamp: Double, transform: Transform, tracking: TrackingState) {
        self.frame = frame
        self.timestamp = timestamp
        self.transform = transform
        self.tracking = tracking
    }
}
