import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitSynthesis
import Testing

@Suite("Hits on planes detected in generated rooms")
struct DetectedSceneTests {
    /// Detects the planes of generated frames, moves them into the world, and casts rays from
    /// the camera through pixels whose true surface lies 1.6–2.4 m away: a geometry hit on the
    /// plane detected at that pixel must land within 1 cm of the true surface.
    @Test(arguments: [UInt64(3), 8, 21])
    func geometryHitsLandOnTheTrueSurface(seed: UInt64) throws {
        let frame = SyntheticFrame(seed: seed)
        var configuration = OrganizedPlaneDetector.Configuration()
        configuration.up = frame.cloud.defaultUp
        let detected = try OrganizedPlaneDetector(configuration: configuration).detect(in: frame.cloud)
        let tester = HitTester(planes: HitTestPlane.from(detected.planes, worldFromCloud: frame.pose),
                               points: MeasuredPoints(cloud: frame.cloud, worldFromCloud: frame.pose))
        let camera = PinholeCamera(intrinsics: frame.intrinsics, pose: frame.pose)
        var tried = 0, hit = 0, onSurface = 0, anyHit = 0, nearestOnSurface = 0, estimatesTried = 0, estimatesOn = 0
        var worst: Float = 0
        for v in stride(from: 10, to: frame.height, by: 20) {
            for u in stride(from: 10, to: frame.width, by: 20) {
                let label = frame.labels[v * frame.width + u]
                guard label != 0, let truth = frame.plane(id: label) else { continue }
                let ray = camera.ray(throughPixel: SIMD2(Float(u), Float(v)))
                guard let trueDistance = truth.worldPlane.intersection(with: ray), (1.6...2.4).contains(trueDistance) else { continue }
                // Only pixels well inside a detected plane's region: near outlines and seams a
                // ray may rightly hit the neighbouring plane.
                let detectedLabel = detected.labels[v * frame.width + u]
                guard detectedLabel != 0, DetectedSceneTests.interior(detected.labels, width: frame.width, height: frame.height, u: u, v: v) else { continue }
                tried += 1
                let results = tester.hitTest(ray, targets: .existingPlaneGeometry)
                // The nearest hit, among rays that hit anything (whether the ray hits at all is
                // the next check's): another plane's outline may reach over this pixel (an outline
                // is traced on a coarse grid), so most, not all, nearest hits are on the true surface.
                if let nearest = results.first {
                    anyHit += 1
                    if abs(truth.worldPlane.signedDistance(to: nearest.position)) <= 0.01 { nearestOnSurface += 1 }
                }
                // The hit on the plane this pixel was detected as part of.
                guard let result = results.first(where: { $0.planeIdentifier == PlaneIdentifier(UInt64(detectedLabel)) }) else { continue }
                hit += 1
                let error = abs(truth.worldPlane.signedDistance(to: result.position))
                worst = max(worst, error)
                if error <= 0.01 { onSurface += 1 }
                // The horizontal or vertical estimate there, where the true surface is one.
                let (h, vertical) = tester.estimatedHits(ray)
                if let estimate = truth.kind.isHorizontal ? h : vertical {
                    estimatesTried += 1
                    if abs(truth.worldPlane.signedDistance(to: estimate.position)) <= 0.02 { estimatesOn += 1 }
                }
            }
        }
        #expect(tried >= 20, "seed \(seed): only \(tried) pixels at 1.6–2.4 m")
        #expect(Double(hit) >= 0.95 * Double(tried), "seed \(seed): \(hit) of \(tried) rays hit a detected polygon")
        #expect(onSurface == hit, "seed \(seed): \(onSurface) of \(hit) hits within 1 cm, worst \(worst) m")
        #expect(Double(nearestOnSurface) >= 0.97 * Double(anyHit), "seed \(seed): nearest hit on the true surface for \(nearestOnSurface) of \(anyHit)")
        #expect(Double(estimatesOn) >= 0.9 * Double(estimatesTried) && estimatesTried >= tried / 2,
                "seed \(seed): estimates \(estimatesOn) of \(estimatesTried) within 2 cm")
    }

    /// `true` when the 5×5 block of labels around (u, v) is one label.
    static func interior(_ labels: ContiguousArray<UInt16>, width: Int, height: Int, u: Int, v: Int) -> Bool {
        let centre = labels[v * width + u]
        for dv in -2...2 {
            for du in -2...2 {
                let x = u + du, y = v + dv
                guard x >= 0, y >= 0, x < width, y < height, labels[y * width + x] == centre else { return false }
            }
        }
        return true
    }
}
