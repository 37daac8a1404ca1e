/// What a plane probably is, judged from its alignment, facing and height above the floor
/// (going beyond ARKit's plane anchors, after its `ARPlaneAnchor.Classification`).
public enum PlaneClassification: String, Sendable, Codable, Hashable, CaseIterable {
    /// The lowest large upward-facing horizontal plane.
    case floor
    /// A large downward-facing horizontal plane well above the floor.
    case ceiling
    /// A large vertical plane.
    case wall
    /// An upward-facing horizontal plane at table height above the floor.
    case table
    /// An upward-facing horizontal plane at seat height above the floor.
    case seat
    /// Anything else, or not enough context to say.
    case none
}
