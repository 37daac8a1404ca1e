/// What a ray hit, like ARKit's `ARHitTestResult.ResultType`.
public enum HitTestTarget: String, Sendable, Codable, Hashable, CaseIterable, Comparable {
    /// A detected plane, inside its boundary polygon.
    case existingPlaneGeometry
    /// A detected plane, inside its rectangular extent.
    case existingPlaneUsingExtent
    /// A detected plane, treated as unbounded.
    case existingPlaneInfinite
    /// A horizontal or vertical surface estimated from the measured points around the ray.
    case estimatedPlane
    /// A measured point close to the ray.
    case featurePoint

    /// The order results at the same distance are listed in: the most specific target first.
    public static func < (a: HitTestTarget, b: HitTestTarget) -> Bool {
        a.rank < b.rank
    }

    private var rank: Int {
        switch self {
        case .existingPlaneGeometry: 0
        case .existingPlaneUsingExtent: 1
        case .existingPlaneInfinite: 2
        case .estimatedPlane: 3
        case .featurePoint: 4
        }
    }
}

/// A set of ``HitTestTarget``s to look for.
public struct HitTestTargets: OptionSet, Sendable, Hashable {
    /// The bits, one per target.
    public let rawValue: UInt8

    /// A set from its bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The set holding just `target`.
    public init(_ target: HitTestTarget) {
        switch target {
        case .existingPlaneGeometry: self = .existingPlaneGeometry
        case .existingPlaneUsingExtent: self = .existingPlaneUsingExtent
        case .existingPlaneInfinite: self = .existingPlaneInfinite
        case .estimatedPlane: self = .estimatedPlane
        case .featurePoint: self = .featurePoint
        }
    }

    /// Detected planes, inside their boundary polygons.
    public static let existingPlaneGeometry = HitTestTargets(rawValue: 1 << 0)
    /// Detected planes, inside their rectangular extents.
    public static let existingPlaneUsingExtent = HitTestTargets(rawValue: 1 << 1)
    /// Detected planes, unbounded.
    public static let existingPlaneInfinite = HitTestTargets(rawValue: 1 << 2)
    /// Surfaces estimated from measured points.
    public static let estimatedPlane = HitTestTargets(rawValue: 1 << 3)
    /// Measured points near the ray.
    public static let featurePoint = HitTestTargets(rawValue: 1 << 4)
    /// Every target.
    public static let all: HitTestTargets = [
        .existingPlaneGeometry, .existingPlaneUsingExtent, .existingPlaneInfinite, .estimatedPlane, .featurePoint,
    ]
}
