#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// How much of its surroundings a session has mapped, like ARKit's
/// `ARFrame.WorldMappingStatus`.
public enum MappingStatus: String, Sendable, Codable, Hashable, CaseIterable {
    /// No frame with a pose yet.
    case notAvailable
    /// Too little seen: few frames, no planes, or the camera has not moved.
    case limited
    /// Mapping is under way and new surroundings keep appearing.
    case extending
    /// Enough of the surroundings is seen, and the planes have settled.
    case mapped
}

/// Decides the ``MappingStatus`` frame by frame.
///
/// The rule, in order:
/// 1. `notAvailable` before the first frame.
/// 2. `limited` while fewer than ``minimumFrames`` (10) frames have been seen, or there is no
///    plane anchor, or the camera has neither moved ``minimumTravel`` (10 cm, summed along its
///    path) nor turned ``minimumTurn`` (10°) away from its first viewing direction.
/// 3. `mapped` when the viewing directions cover at least ``mappedHeadingBins`` (6) of the 12
///    30° sectors of the horizon (the camera's forward direction projected on the horizontal,
///    skipped when it looks within 17° of straight up or down), the anchors cover at least
///    ``mappedArea`` (5 m²), and the map has been stable for ``stableFrames`` (30) frames: no
///    anchor added or removed, and the total covered area within ``stableAreaFraction`` (2%) of
///    its value ``stableFrames`` frames ago.
/// 4. `extending` otherwise.
/// So a session goes notAvailable → limited → extending → mapped, and falls back from mapped to
/// extending when new surroundings appear.
public struct MappingTracker: Sendable, Hashable {
    /// Frames before the status can leave `limited`.
    public var minimumFrames = 10
    /// Path length (m) that counts as having moved.
    public var minimumTravel: Float = 0.1
    /// Turn (rad) from the first viewing direction that counts as having moved.
    public var minimumTurn: Float = 10 * .pi / 180
    /// Sectors of the horizon (of 12) that must have been looked at for `mapped`.
    public var mappedHeadingBins = 6
    /// Covered area (m²) needed for `mapped`.
    public var mappedArea: Float = 5
    /// Frames without structural change needed for `mapped`.
    public var stableFrames = 30
    /// Relative area growth over ``stableFrames`` frames that still counts as stable.
    public var stableAreaFraction: Float = 0.02
    /// The world's up direction.
    public var up = SIMD3<Float>(0, 1, 0)

    /// The current status.
    public private(set) var status: MappingStatus = .notAvailable
    /// Frames seen.
    public private(set) var frameCount = 0
    /// Distance the camera travelled (m).
    public private(set) var travelled: Float = 0
    /// Largest turn from the first viewing direction (rad).
    public private(set) var largestTurn: Float = 0
    /// The 30° sectors of the horizon looked at, one bit each.
    public private(set) var headingBits: UInt16 = 0
    /// Frames since an anchor was last added or removed.
    public private(set) var framesSinceStructuralChange = 0
    package var firstForward: SIMD3<Float>?
    package var lastPosition: SIMD3<Float>?
    private var areas: [Float] = []

    /// A tracker with the default rule, `notAvailable`.
    public init() {}

    /// How many sectors of the horizon have been looked at.
    public var headingsSeen: Int { headingBits.nonzeroBitCount }

    /// Takes one frame: the camera `pose`, the anchors' total covered `area`, their `planeCount`,
    /// and whether any anchor was added or removed in it. Returns the previous status when the
    /// status changed.
    @discardableResult
    public mutating func update(pose: Transform, area: Float, planeCount: Int, structuralChange: Bool) -> MappingStatus? {
        let previous = status
        frameCount += 1
        let position = pose.translation, forward = pose.zAxis
        if let lastPosition { travelled += distance(position, lastPosition) }
        lastPosition = position
        if let firstForward { largestTurn = max(largestTurn, firstForward.angle(to: forward)) } else { firstForward = forward }
        let flat = forward - dot(forward, up) * up
        if flat.length > 0.3 {
            // Any fixed horizontal basis works for sectors; take one perpendicular to up.
            let east = up.anyPerpendicular, north = cross(east, up)
            let angle = atan2f(dot(flat, north), dot(flat, east))
            let sector = Int(((angle + .pi) / (2 * .pi) * 12).rounded(.down))
            headingBits |= 1 << UInt16(min(11, max(0, sector)))
        }
        framesSinceStructuralChange = structuralChange ? 0 : framesSinceStructuralChange + 1
        areas.append(area)
        if areas.count > stableFrames + 1 { areas.removeFirst(areas.count - stableFrames - 1) }

        let moved = travelled >= minimumTravel || largestTurn >= minimumTurn
        if frameCount < minimumFrames || planeCount == 0 || !moved {
            status = .limited
        } else {
            let old = areas.count == stableFrames + 1 ? areas[0] : nil
            let stable = framesSinceStructuralChange >= stableFrames
                && old.map { area <= $0 * (1 + stableAreaFraction) + 1e-6 } == true
            status = headingsSeen >= mappedHeadingBins && area >= mappedArea && stable ? .mapped : .extending
        }
        return status != previous ? previous : nil
    }
}
