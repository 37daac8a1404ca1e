import PlaneKitGeometry
@testable import PlaneKitHitTesting
import Testing

@Suite struct AttitudePointerTests {
    static let origin = SIMD3<Float>(0.5, 1.4, 2)
    /// The phone's top edge raised by `angle` (a turn about the device's +X, right-hand rule).
    static func pitch(_ angle: Float) -> Quaternion { Quaternion(angle: angle, axis: SIMD3(1, 0, 0)) }
    /// The phone turned about the vertical (sensor +Z) by `angle`, counter-clockwise seen from above.
    static func yaw(_ angle: Float) -> Quaternion { Quaternion(angle: angle, axis: SIMD3(0, 0, 1)) }
    /// The phone rolled about its top edge (device +Y) by `angle`.
    static func roll(_ angle: Float) -> Quaternion { Quaternion(angle: angle, axis: SIMD3(0, 1, 0)) }

    static func expectDirection(_ ray: Ray, _ expected: SIMD3<Float>, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(ray.direction.isApproximatelyEqual(to: expected, tolerance: 1e-5), "\(ray.direction) ≠ \(expected)",
                sourceLocation: sourceLocation)
    }

    @Test func firstAttitudeAimsAlongTheReferenceHeading() throws {
        var pointer = try #require(AttitudePointer(origin: Self.origin, referenceDirection: SIMD3(1, 0, 0)))
        #expect(!pointer.isCalibrated)
        let ray = pointer.ray(for: .identity)
        #expect(pointer.isCalibrated)
        #expect(ray.origin == Self.origin)
        Self.expectDirection(ray, SIMD3(1, 0, 0))
    }

    @Test func tiltIsAbsoluteAndTurnsAreRelative() throws {
        // Calibrated while facing an arbitrary 73° in the sensor's frame: only the change counts.
        let start = Self.yaw(73 * .pi / 180)
        var pointer = try #require(AttitudePointer(origin: Self.origin, referenceDirection: SIMD3(2, 0, 0)))
        Self.expectDirection(pointer.ray(for: start), SIMD3(1, 0, 0))
        // Top edge raised 30°: the ray rises 30° (cos 30°, sin 30°) along the same heading.
        Self.expectDirection(pointer.ray(for: start * Self.pitch(.pi / 6)), SIMD3(0.8660254, 0.5, 0))
        // A quarter turn to the left (counter-clockwise from above): facing +X with +Y up, left is −Z.
        Self.expectDirection(pointer.ray(for: Self.yaw(.pi / 2) * start), SIMD3(0, 0, -1))
        // Half a turn: straight back.
        Self.expectDirection(pointer.ray(for: Self.yaw(.pi) * start), SIMD3(-1, 0, 0))
        // Rolling about the top edge does not move the ray.
        Self.expectDirection(pointer.ray(for: start * Self.roll(0.7)), SIMD3(1, 0, 0))
        // Pointing at the floor: straight down whatever the heading.
        Self.expectDirection(pointer.ray(for: start * Self.pitch(-.pi / 2)), SIMD3(0, -1, 0))
    }

    @Test func calibratingWhilePointingUpUsesTheBack() throws {
        // Top edge straight up, screen towards the user: the back faces where the user looks.
        var pointer = try #require(AttitudePointer(origin: .zero, referenceDirection: SIMD3(0, 0, 1)))
        Self.expectDirection(pointer.ray(for: Self.pitch(.pi / 2)), SIMD3(0, 1, 0))
        // Lowered to level, the top edge aims along the reference heading.
        Self.expectDirection(pointer.ray(for: .identity), SIMD3(0, 0, 1))
    }

    @Test func recalibrationMovesTheHeadingOnly() throws {
        var pointer = try #require(AttitudePointer(origin: .zero, referenceDirection: SIMD3(1, 0, 1)))
        let diagonal = SIMD3<Float>(1, 0, 1) / Float(2).squareRoot()
        Self.expectDirection(pointer.ray(for: .identity), diagonal)
        // Recalibrating at a 40° turn makes that attitude the reference; identity is now 40° to the right.
        pointer.calibrate(to: Self.yaw(40 * .pi / 180))
        Self.expectDirection(pointer.ray(for: Self.yaw(40 * .pi / 180)), diagonal)
        let right = Quaternion(angle: -40 * .pi / 180, axis: SIMD3(0, 1, 0)).act(diagonal)
        Self.expectDirection(pointer.ray(for: .identity), right)
        // World orientation: the device's +Z (screen) points up when the phone lies flat.
        #expect(pointer.orientation(for: Self.yaw(40 * .pi / 180)).act(SIMD3(0, 0, 1))
            .isApproximatelyEqual(to: SIMD3(0, 1, 0), tolerance: 1e-5))
    }

    @Test func unusableReferencesAreRefused() {
        #expect(AttitudePointer(origin: .zero, referenceDirection: SIMD3(0, 1, 0)) == nil)
        #expect(AttitudePointer(origin: .zero, referenceDirection: .zero) == nil)
        #expect(AttitudePointer(origin: SIMD3(.nan, 0, 0), referenceDirection: SIMD3(1, 0, 0)) == nil)
        #expect(AttitudePointer(origin: .zero, referenceDirection: SIMD3(.infinity, 0, 0)) == nil)
    }
}
