import PlaneKitGeometry
import Testing
@testable import PlaneKitDetection
@testable import PlaneKitPlanes

/// Tuning by hand over the sensor's settings (issue #26).
@Suite struct DetectionOverridesTests {
    @Test func parsesSigmaMetresPointsAndSquareMetres() {
        #expect(DetectionOverrides.Distance(parsing: "2.5") == .sigma(2.5))
        #expect(DetectionOverrides.Distance(parsing: "0.01m") == .metres(0.01))
        for bad in ["", "m", "-1", "0", "0m", "inf", "1cm", "x"] { #expect(DetectionOverrides.Distance(parsing: bad) == nil, "\(bad)") }
        #expect(DetectionOverrides.MinimumPlane(parsing: "800") == .points(800))
        #expect(DetectionOverrides.MinimumPlane(parsing: "0.05m2") == .squareMetres(0.05))
        #expect(DetectionOverrides.MinimumPlane(parsing: "2m²") == .squareMetres(2))
        for bad in ["", "2", "1.5", "-4m2", "m2", "0m2"] { #expect(DetectionOverrides.MinimumPlane(parsing: bad) == nil, "\(bad)") }
    }

    @Test func overridesReplaceTheProfilesValues() {
        var configuration = OrganizedPlaneDetector.Configuration()
        DetectionOverrides(distance: .sigma(2), minimumPlane: .points(400), mergeAngle: 0.2).apply(to: &configuration)
        #expect(configuration.pixelDistanceFactor == 2 && configuration.minimumPointsPerPlane == 400 && configuration.mergeAngle == 0.2)
        // Metres: σ is that distance over the pixel factor, at every depth.
        DetectionOverrides(distance: .metres(0.03)).apply(to: &configuration)
        #expect(abs(configuration.noise.sigma(atDepth: 0.5) * configuration.pixelDistanceFactor - 0.03) < 1e-6)
        #expect(abs(configuration.noise.sigma(atDepth: 4) * configuration.pixelDistanceFactor - 0.03) < 1e-6)
        // Nothing given changes nothing.
        let before = configuration
        DetectionOverrides().apply(to: &configuration)
        #expect(configuration == before)
    }

    @Test func aMinimumAreaDropsSmallPlanesAndRelabels() {
        func plane(_ label: Int, area: Float) -> DetectedPlane {
            DetectedPlane(label: label, plane: Plane(unitNormal: SIMD3(0, -1, 0), offset: 1), centroid: .zero, transform: .identity,
                          extent: PlaneExtent(width: 1, length: 1), boundary: Polygon2D([]), pointCount: 10, area: area,
                          rmsError: 0, alignment: .horizontal, classification: .none)
        }
        let result = PlaneDetectionResult(planes: [plane(1, area: 2), plane(2, area: 0.01), plane(3, area: 0.5)],
                                          labels: [0, 1, 2, 3, 3, 2], width: 3, height: 2, validPointCount: 6)
        let filtered = DetectionOverrides(minimumPlane: .squareMetres(0.1)).filtered(result)
        #expect(filtered.planes.map(\.label) == [1, 2] && filtered.planes.map(\.area) == [2, 0.5])
        #expect(filtered.labels == [0, 1, 0, 2, 2, 0])
        #expect(DetectionOverrides(minimumPlane: .points(5)).filtered(result).labels == result.labels)
    }
}
