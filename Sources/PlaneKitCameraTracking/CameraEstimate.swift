import PlaneKitGeometry

/// The camera of one frame as the tracker reports it: the pose used and how far to trust it.
public struct CameraEstimate: Sendable, Hashable {
    /// World-from-camera transform used for the frame (given, or estimated from depth).
    public var transform: Transform
    /// The tracking state after the frame.
    public var tracking: TrackingState
    /// `true` when the pose came with the frame rather than from tracking.
    public var isGiven: Bool

    /// An estimate from its parts.
    public init(transform: Transform, tracking: TrackingState, isGiven: Bool) {
        self.transform = transform
        self.tracking = tracking
        self.isGiven = isGiven
    }
}
