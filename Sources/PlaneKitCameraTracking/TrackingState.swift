/// How well the camera's pose is known after a frame, as ARKit's `ARCamera.TrackingState`.
///
/// A frame whose pose was given (the record's `pose`) is always ``normal``. A frame tracked from
/// depth is ``normal`` when it registered well against what was mapped, ``limited(_:)`` when its
/// pose is only a guess (the reason says why), and ``notAvailable`` before any frame.
public enum TrackingState: Sendable, Hashable {
    /// No frame has been tracked yet.
    case notAvailable
    /// The pose is usable but not trustworthy, for ``Reason``.
    case limited(Reason)
    /// The pose is tracked.
    case normal

    /// Why tracking is limited.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// The first frames: nothing mapped yet to register against.
        case initializing
        /// The camera moved further between two frames than a hand-held camera plausibly does.
        case excessiveMotion
        /// Too few measured points, or points that do not fix every direction of motion (one
        /// flat wall, say).
        case insufficientFeatures
        /// The track was lost; each frame is registered against the keyframes mapped so far until
        /// one fits.
        case relocalizing
    }

    /// `normal`, `limited` or `notAvailable`, as the stream writes it.
    public var name: String {
        switch self {
        case .notAvailable: "notAvailable"
        case .limited: "limited"
        case .normal: "normal"
        }
    }

    /// The reason when ``limited(_:)``.
    public var reason: Reason? {
        if case .limited(let reason) = self { return reason }
        return nil
    }
}
