import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitPlanes

/// The snap-to-plane rule: when a plane is added or updated, an object
/// close to it moves onto it.
///
/// An object snaps to a plane when all of these hold:
/// - the object's allowed alignment admits the plane's (`plane.alignment.satisfies(object)`),
/// - its position, in the plane's own coordinates, lies within the plane's extent enlarged by
///   ``extentMargin`` (10%) of its size on every side (border included),
/// - its distance from the plane is more than ``minimumDistance`` (1 mm) and less than
///   ``maximumDistance`` (5 cm), both strict: 1 mm or less is already on the plane, 5 cm or
///   more is something else (an object standing on a box, not on the floor below).
/// The move goes to the nearest point of the plane and takes distance / ``speed`` seconds
/// (2 mm per second, so distance × 500 s), eased in and out (``SnapMotion``).
public struct SnapRule: Sendable, Hashable, Codable {
    /// Enlargement of the extent on every side, as a fraction of its size: 0.1.
    public var extentMargin: Float = 0.1
    /// Distances up to this (m) count as already on the plane: 1 mm.
    public var minimumDistance: Float = 0.001
    /// Distances from this (m) on are too far to snap: 5 cm.
    public var maximumDistance: Float = 0.05
    /// Snapping speed (m/s): 2 mm per second.
    public var speed: Float = 0.002

    /// The snap-to-plane rule.
    public init() {}

    /// The snap of an object at `position` (world) allowed on planes of `alignment` onto
    /// `plane` (world description), starting at `time`; `nil` when the rule says it stays.
    public func snap(position: SIMD3<Float>, alignment: PlaneAlignment, onto plane: DetectedPlane,
                     identifier: PlaneIdentifier, at time: Double) -> SnapMotion? {
        guard position.isFinite, plane.alignment.satisfies(alignment) else { return nil }
        let local = plane.transform.inverse.apply(toPoint: position)
        guard plane.extent.contains(SIMD2(local.x, local.z), margin: extentMargin) else { return nil }
        let distance = abs(plane.plane.signedDistance(to: position))
        guard distance > minimumDistance, distance < maximumDistance else { return nil }
        let target = plane.plane.project(position)
        return SnapMotion(plane: identifier, start: position, target: target, startTime: time,
                          duration: Double(distance) / Double(speed))
    }
}

/// An object's eased move onto a plane, evaluated against frame timestamps.
///
/// The easing is smoothstep, `e(x) = x²(3 − 2x)` for the elapsed fraction `x` of the duration:
/// it starts and ends at rest and is point-symmetric about the midpoint, so at
/// `startTime + duration / 2` the object is exactly halfway.
public struct SnapMotion: Sendable, Hashable, Codable {
    /// The plane being snapped to.
    public var plane: PlaneIdentifier
    /// Where the object was when the snap started (world).
    public var start: SIMD3<Float>
    /// Where it ends, on the plane (world). Updated if the plane is refined during the move.
    public var target: SIMD3<Float>
    /// The timestamp the snap started at (s).
    public var startTime: Double
    /// How long the move takes (s): the distance over 2 mm/s.
    public var duration: Double

    /// A move from its parts.
    public init(plane: PlaneIdentifier, start: SIMD3<Float>, target: SIMD3<Float>, startTime: Double,
                duration: Double) {
        self.plane = plane
        self.start = start
        self.target = target
        self.startTime = startTime
        self.duration = duration
    }

    /// Smoothstep easing of a fraction, clamped to 0…1.
    public static func ease(_ fraction: Double) -> Double {
        let x = min(1, max(0, fraction))
        return x * x * (3 - 2 * x)
    }

    /// The eased fraction of the move done at `time` (0 before the start, 1 from the end on).
    public func progress(at time: Double) -> Double {
        guard duration > 0 else { return time >= startTime ? 1 : 0 }
        return SnapMotion.ease((time - startTime) / duration)
    }

    /// The object's position at `time`.
    public func position(at time: Double) -> SIMD3<Float> {
        let p = progress(at: time)
        if p >= 1 { return target }
        return start + (target - start) * Float(p)
    }

    /// `true` once the move has reached its end.
    public func isFinished(at time: Double) -> Bool {
        time >= startTime + duration
    }
}
