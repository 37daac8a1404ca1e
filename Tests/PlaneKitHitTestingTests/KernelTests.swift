#if canImport(Glibc)
import Glibc
#endif
import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import PlaneKitSynthesis
import Testing

@Suite("Batch kernel, polygon grids, triangulation")
struct KernelTests {
    /// A star-shaped (concave) polygon with `n` points and radii alternating 1 and 0.45.
    static func star(_ n: Int, scale: Float = 1) -> Polygon2D {
        Polygon2D((0..<(2 * n)).map { i in
            let angle = Float(i) * .pi / Float(n)
            let r: Float = (i % 2 == 0 ? 1 : 0.45) * scale
            return SIMD2(r * Float(cos(Double(angle))), r * Float(sin(Double(angle))))
        })
    }

    @Test func polygonGridAgreesWithPolygon2DContains() {
        var rng = SeededRandom(seed: 11)
        for polygon in [KernelTests.star(7), KernelTests.star(40, scale: 2), Fixtures.table.boundary] {
            let plane = Fixtures.plane(label: 1, center: .zero, normal: SIMD3(0, 1, 0), xAxis: SIMD3(1, 0, 0),
                                       polygon: polygon.vertices, alignment: .horizontal)
            let kernel = PlaneRaycastKernel(planes: [plane])
            var disagreements = 0
            for _ in 0..<20_000 {
                let p = SIMD2(rng.uniform(-2.2...2.2), rng.uniform(-2.2...2.2))
                if kernel.polygonContains(planeIndex: 0, local: p) != polygon.contains(p) { disagreements += 1 }
            }
            #expect(disagreements == 0)
            // Every vertex and every edge midpoint is on the outline, so inside.
            for (i, v) in polygon.vertices.enumerated() {
                let w = polygon.vertices[(i + 1) % polygon.vertices.count]
                #expect(kernel.polygonContains(planeIndex: 0, local: v))
                #expect(kernel.polygonContains(planeIndex: 0, local: (v + w) / 2))
            }
        }
    }

    @Test func batchCastAgreesWithTheScalarHitTest() throws {
        // Twenty planes: the room's three and seventeen stars at random poses.
        var rng = SeededRandom(seed: 5)
        var planes = [Fixtures.floor, Fixtures.table, Fixtures.wall]
        for k in 0..<17 {
            let normal = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)).normalized ?? SIMD3(0, 1, 0)
            let alignment: PlaneAlignment = [.horizontal, .vertical, .any][k % 3]
            planes.append(Fixtures.plane(label: 4 + k, center: SIMD3(rng.uniform(-3...3), rng.uniform(0...2), rng.uniform(-3...3)),
                                         normal: normal, xAxis: SIMD3(1, 0, 0), polygon: KernelTests.star(5 + k, scale: 0.8).vertices,
                                         alignment: alignment))
        }
        let tester = HitTester(planes: HitTestPlane.from(planes))
        let n = 4000
        var origins: [SIMD3<Float>] = [], directions: [SIMD3<Float>] = []
        for _ in 0..<n {
            origins.append(SIMD3(rng.uniform(-1...1), rng.uniform(0.5...1.5), rng.uniform(-1...1)))
            directions.append(SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)).normalized ?? SIMD3(0, 0, 1))
        }
        origins.append(SIMD3(.nan, 0, 0)); directions.append(SIMD3(0, -1, 0))
        for (bounds, target) in [(PlaneBounds.geometry, HitTestTarget.existingPlaneGeometry), (.extent, .existingPlaneUsingExtent),
                                 (.infinite, .existingPlaneInfinite)] {
            for alignment in PlaneAlignment.allCases {
                var hits = [PlaneRayHit](repeating: .miss, count: origins.count)
                origins.withUnsafeBufferPointer { o in
                    directions.withUnsafeBufferPointer { d in
                        hits.withUnsafeMutableBufferPointer { tester.kernel.castRays(origins: o, directions: d, bounds: bounds, alignment: alignment, into: $0) }
                    }
                }
                var hitCount = 0
                for i in 0..<n {
                    let expected = tester.hitTest(Ray(origin: origins[i], unitDirection: directions[i]), targets: HitTestTargets(target), alignment: alignment).first
                    #expect(hits[i].isHit == (expected != nil))
                    if let expected, hits[i].isHit {
                        hitCount += 1
                        #expect(close(hits[i].distance, expected.distance, 1e-6 * max(1, expected.distance)))
                        // Same distance, same plane (two planes at exactly the same distance do not happen here).
                        #expect(tester.planes[Int(hits[i].planeIndex)].identifier == expected.planeIdentifier)
                    }
                }
                #expect(hits[n] == .miss)
                #expect(hitCount > (bounds == .infinite ? n / 2 : 50), "\(bounds) \(alignment): \(hitCount) hits")
            }
        }
    }

    @Test func triangulationCoversThePolygon() {
        for polygon in [KernelTests.star(5), KernelTests.star(31), Fixtures.table.boundary, Polygon2D(Fixtures.table.boundary.vertices.reversed())] {
            let triangles = PolygonTriangulation.triangles(of: polygon)
            #expect(triangles.count == polygon.vertices.count - 2)
            let v = polygon.vertices
            let area = triangles.reduce(Float(0)) { sum, t in
                let a = v[Int(t.x)], b = v[Int(t.y)], c = v[Int(t.z)]
                return sum + cross(b - a, c - a) / 2
            }
            #expect(close(area, polygon.area, 1e-4 * polygon.area))
            #expect(triangles.allSatisfy { t in cross(v[Int(t.y)] - v[Int(t.x)], v[Int(t.z)] - v[Int(t.x)]) > 0 })
        }
        #expect(PolygonTriangulation.triangles(of: Polygon2D([SIMD2(0, 0), SIMD2(1, 0)])).isEmpty)
    }
}
