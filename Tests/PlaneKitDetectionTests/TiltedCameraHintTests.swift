import Foundation
import PlaneKitGeometry
import Testing
@testable import PlaneKitDetection
@testable import PlaneKitPlanes

/// The hint for a tilted camera read under the default up (issue #26).
@Suite struct TiltedCameraHintTests {
    static func plane(label: Int, normal: SIMD3<Float>, points: Int, alignment: PlaneAlignment) -> DetectedPlane {
        let unit = normal.normalized!
        return DetectedPlane(label: label, plane: Plane(unitNormal: unit, offset: 1), centroid: -unit, transform: .identity,
                             extent: PlaneExtent(width: 1, length: 1), boundary: Polygon2D([]), pointCount: points, area: 1,
                             rmsError: 0.001, alignment: alignment, classification: .none)
    }

    static func result(_ planes: [DetectedPlane]) -> PlaneDetectionResult {
        PlaneDetectionResult(planes: planes, labels: [], width: 0, height: 0, validPointCount: 10_000)
    }

    @Test func aLargePlaneTwentyDegreesOffHorizontalSuggestsItsNormalAsUp() throws {
        let up = SIMD3<Float>(0, -1, 0)
        // A floor seen by a camera pitched 20° down: its normal (facing the sensor) leans back.
        let floor = Self.plane(label: 1, normal: SIMD3(0, -cos(0.349), -sin(0.349)), points: 4000, alignment: .any)
        let wall = Self.plane(label: 2, normal: SIMD3(1, 0, 0.1), points: 3000, alignment: .any)
        let hint = try #require(TiltedCameraHint.tiltedPlane(in: Self.result([floor, wall]), up: up))
        #expect(hint.plane.label == 1)
        #expect(abs(hint.angle - 0.349) < 1e-3)
        #expect(dot(hint.suggestedUp, up) > 0.9)
    }

    @Test func noHintWhenAPlaneIsHorizontalOrNoneIsLargeAndNearlyLevel() {
        let up = SIMD3<Float>(0, -1, 0)
        let level = Self.plane(label: 1, normal: SIMD3(0, -1, 0), points: 4000, alignment: .horizontal)
        let tilted = Self.plane(label: 2, normal: SIMD3(0, -1, -0.4), points: 4000, alignment: .any)
        #expect(TiltedCameraHint.tiltedPlane(in: Self.result([level, tilted]), up: up) == nil)
        // Too small (under a tenth of the points), or too steep (45°).
        let small = Self.plane(label: 1, normal: SIMD3(0, -1, -0.4), points: 500, alignment: .any)
        let steep = Self.plane(label: 2, normal: SIMD3(0, -1, -1), points: 4000, alignment: .any)
        #expect(TiltedCameraHint.tiltedPlane(in: Self.result([small, steep]), up: up) == nil)
    }
}
