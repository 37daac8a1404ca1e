#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// Turns a phone's attitude into a pointer ray in the world: "the phone as a 3D mouse",
/// where the phone's orientation, streamed to another device, turns what that device shows.
///
/// **Convention.** An attitude is a unit quaternion rotating device coordinates (+X right, +Y
/// towards the top edge, +Z out of the screen) into the motion sensor's reference frame, whose
/// +Z is up (against gravity) and whose heading is arbitrary, as CoreMotion
/// (`xArbitraryZVertical`) and Android's rotation vector give it. The pointer aims along the
/// device's +Y, the top edge, as one aims a remote control.
///
/// **Calibration.** As in the article, where the cube takes the phone's roll, pitch and yaw in
/// a frame whose heading starts where the phone was: tilt is absolute (the sensor knows up, so
/// raising the phone raises the ray), heading is relative. The calibrating attitude (the first
/// one, or any given to ``calibrate(to:)``) aims along the horizontal heading of
/// ``referenceDirection``, and every later attitude turns the ray by as much as the phone turned
/// since. When the phone points (nearly) straight up or down at calibration, its back (device
/// −Z) gives the heading instead. The world has +Y up, as PlaneKit's worlds do.
public struct AttitudePointer: Sendable, Hashable {
    /// Sensor frame to a levelled world of arbitrary heading: sensor +Z (up) becomes world +Y,
    /// sensor +X stays +X, sensor +Y becomes world −Z.
    static let levelling = Quaternion(angle: -.pi / 2, axis: SIMD3(1, 0, 0))
    /// Below this horizontal length a direction is too near vertical to give a heading (about 6°).
    static let minimumHorizontal: Float = 0.1

    /// Where the ray starts, in world coordinates (metres): where the pointing user stands.
    public var origin: SIMD3<Float>
    /// The world direction whose heading the calibrating attitude aims along (unit length,
    /// horizontal).
    public let referenceDirection: SIMD3<Float>
    /// World-from-sensor rotation, once calibrated: `levelling` then a turn about +Y.
    public private(set) var worldFromSensor: Quaternion?

    /// A pointer whose rays start at `origin` and whose calibrating attitude aims along the
    /// heading of `referenceDirection` (for example the pointing user's camera forward), or
    /// `nil` when that direction is not finite or is (nearly) vertical.
    public init?(origin: SIMD3<Float>, referenceDirection: SIMD3<Float>) {
        guard origin.isFinite, let heading = Self.horizontal(referenceDirection) else { return nil }
        self.origin = origin
        self.referenceDirection = heading
    }

    /// Whether an attitude has fixed the heading yet.
    public var isCalibrated: Bool { worldFromSensor != nil }

    /// Makes `attitude` aim along ``referenceDirection``'s heading from now on.
    public mutating func calibrate(to attitude: Quaternion) {
        let levelled = Self.levelling * attitude.normalized
        // The top edge's heading, or the back's when the top points up or down.
        let aim = Self.horizontal(levelled.act(SIMD3(0, 1, 0))) ?? Self.horizontal(levelled.act(SIMD3(0, 0, -1)))
            ?? referenceDirection
        let turn = atan2f(cross(aim, referenceDirection).y, dot(aim, referenceDirection))
        worldFromSensor = Quaternion(angle: turn, axis: SIMD3(0, 1, 0)) * Self.levelling
    }

    /// The device's orientation in the world (world-from-device) for `attitude`; the first
    /// attitude seen calibrates.
    public mutating func orientation(for attitude: Quaternion) -> Quaternion {
        if worldFromSensor == nil { calibrate(to: attitude) }
        return (worldFromSensor ?? Self.levelling) * attitude.normalized
    }

    /// The pointer's ray for `attitude`: from ``origin`` along the device's top edge in the
    /// world. The first attitude seen calibrates.
    public mutating func ray(for attitude: Quaternion) -> Ray {
        let direction = orientation(for: attitude).act(SIMD3(0, 1, 0))
        return Ray(origin: origin, direction: direction) ?? Ray(origin: origin, unitDirection: referenceDirection)
    }

    /// The unit horizontal (XZ) part of `direction`, or `nil` when it is too near vertical.
    private static func horizontal(_ direction: SIMD3<Float>) -> SIMD3<Float>? {
        let flat = SIMD3(direction.x, 0, direction.z)
        guard flat.isFinite, flat.length >= minimumHorizontal * max(direction.length, 1e-12) else { return nil }
        return flat.normalized
    }
}
