import Testing
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitUnorganizedDetection

@Suite struct RANSACPlaneFitterTests {
    /// 2000 points on a tilted plane with 3 mm noise, plus 40% uniform outliers and some NaNs.
    func contaminatedPlane(seed: UInt64) -> (points: [SIMD3<Float>], plane: Plane, inlierIndices: Set<Int>) {
        var random = TestRandom(seed: seed)
        let plane = Plane(normal: SIMD3(0.2, -0.9, -0.3), offset: 1.1)!
        let u = plane.normal.anyPerpendicular, v = cross(plane.normal, u)
        var points: [SIMD3<Float>] = [], inliers = Set<Int>()
        for i in 0..<3400 {
            if i % 97 == 0 { points.append(SIMD3(.nan, 0, 1)); continue }
            if random.uniform() < 0.4 {
                points.append(SIMD3(random.uniform() * 4 - 2, random.uniform() * 4 - 2, random.uniform() * 4))
            } else {
                let p = plane.pointNearestOrigin + (random.uniform() * 3 - 1.5) * u + (random.uniform() * 3 - 1.5) * v
                points.append(p + 0.003 * random.gaussian() * plane.normal)
                inliers.insert(i)
            }
        }
        return (points, plane.facing(.zero), inliers)
    }

    @Test func recoversAPlaneUnderHeavyContamination() throws {
        let (points, truth, inliers) = contaminatedPlane(seed: 42)
        let fit = try #require(RANSACPlaneFitter(inlierThreshold: 0.01).fit(points))
        #expect(angleDegrees(fit.plane.normal, truth.normal) < 0.2)
        #expect(abs(fit.plane.offset - truth.offset) < 0.002)
        #expect(fit.plane.signedDistance(to: .zero) > 0, "normal must face the origin")
        #expect(fit.rmsError > 0.002 && fit.rmsError < 0.0045)
        // Nearly all true inliers are found, few outliers sneak in (those lying in the band).
        let found = Set(fit.inliers)
        #expect(Double(found.intersection(inliers).count) >= 0.99 * Double(inliers.count))
        #expect(found.subtracting(inliers).count < 40)
        #expect(found.allSatisfy { points[$0].isFinite })
    }

    @Test func isDeterministicPerSeed() throws {
        let (points, _, _) = contaminatedPlane(seed: 7)
        let a = try #require(RANSACPlaneFitter(seed: 3).fit(points))
        let b = try #require(RANSACPlaneFitter(seed: 3).fit(points))
        #expect(a.plane == b.plane && a.inliers == b.inliers && a.iterations == b.iterations)
    }

    @Test func rejectsDegenerateInput() {
        let fitter = RANSACPlaneFitter()
        #expect(fitter.fit([SIMD3<Float>]()) == nil)
        #expect(fitter.fit([SIMD3<Float>(0, 0, 1), SIMD3(1, 0, 1)]) == nil)
        #expect(fitter.fit([SIMD3<Float>(repeating: .nan), SIMD3(0, 0, 1), SIMD3(1, 0, 1)]) == nil)
        // Collinear points span no plane.
        #expect(fitter.fit((0..<50).map { SIMD3<Float>(Float($0), 2 * Float($0), 1) }) == nil)
        #expect(RANSACPlaneFitter(inlierThreshold: 0).fit([SIMD3<Float>(0, 0, 1), SIMD3(1, 0, 1), SIMD3(0, 1, 1)]) == nil)
    }
}
