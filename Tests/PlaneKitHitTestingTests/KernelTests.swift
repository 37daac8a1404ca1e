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

    /// Twenty planes: the room's three and seventeen stars at random poses.
    static func twentyPlanes(_ rng: inout SeededRandom) -> HitTester {
        var planes = [Fixtures.floor, Fixtures.table, Fixtures.wall]
        for k in 0..<17 {
            let normal = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)).normalized ?? SIMD3(0, 1, 0)
            let alignment: PlaneAlignment = [.horizontal, .vertical, .any][k % 3]
            planes.append(Fixtures.plane(label: 4 + k, center: SIMD3(rng.uniform(-3...3), rng.uniform(0...2), rng.uniform(-3...3)),
                                         normal: normal, xAxis: SIMD3(1, 0, 0), polygon: KernelTests.star(5 + k, scale: 0.8).vertices,
                                         alignment: alignment))
        }
        return HitTester(planes: HitTestPlane.from(planes))
    }

    /// Casts the batch with every bounds kind and alignment and expects each ray's hit to be the
    /// scalar hit test's nearest (same plane, same distance), and misses for rays without a
    /// usable origin or direction. Returns the fewest hits of one bounds kind and alignment.
    static func expectBatchAgrees(_ tester: HitTester, origins: [SIMD3<Float>], directions: [SIMD3<Float>]) -> [PlaneBounds: Int] {
        var fewest: [PlaneBounds: Int] = [:]
        for (bounds, target) in [(PlaneBounds.geometry, HitTestTarget.existingPlaneGeometry), (.extent, .existingPlaneUsingExtent),
                                 (.infinite, .existingPlaneInfinite)] {
            for alignment in PlaneAlignment.allCases {
                var hits = [PlaneRayHit](repeating: .miss, count: origins.count)
                origins.withUnsafeBufferPointer { o in
                    directions.withUnsafeBufferPointer { d in
                        hits.withUnsafeMutableBufferPointer { tester.kernel.castRays(origins: o, directions: d, bounds: bounds, alignment: alignment, into: $0) }
                    }
                }
                var hitCount = 0, disagreements = 0
                for i in origins.indices {
                    let usable = origins[i].isFinite && directions[i].isFinite && directions[i] != .zero
                    guard usable else {
                        #expect(hits[i] == .miss, "ray \(i) has no usable numbers")
                        continue
                    }
                    let expected = tester.hitTest(Ray(origin: origins[i], unitDirection: directions[i]), targets: HitTestTargets(target),
                                                  alignment: alignment).first
                    var agrees = hits[i].isHit == (expected != nil)
                    if let expected, hits[i].isHit {
                        hitCount += 1
                        // Same distance, same plane (two planes at exactly the same distance do not happen here).
                        agrees = agrees && close(hits[i].distance, expected.distance, 1e-6 * max(1, expected.distance))
                            && tester.planes[Int(hits[i].planeIndex)].identifier == expected.planeIdentifier
                    }
                    if !agrees { disagreements += 1 }
                }
                #expect(disagreements == 0, "\(bounds) \(alignment): \(disagreements) of \(origins.count) rays disagree")
                fewest[bounds] = min(fewest[bounds] ?? .max, hitCount)
            }
        }
        return fewest
    }

    @Test func batchCastAgreesWithTheScalarHitTest() throws {
        var rng = SeededRandom(seed: 5)
        let tester = KernelTests.twentyPlanes(&rng)
        let n = 4000
        var origins: [SIMD3<Float>] = [], directions: [SIMD3<Float>] = []
        for _ in 0..<n {
            origins.append(SIMD3(rng.uniform(-1...1), rng.uniform(0.5...1.5), rng.uniform(-1...1)))
            directions.append(SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)).normalized ?? SIMD3(0, 0, 1))
        }
        origins.append(SIMD3(.nan, 0, 0)); directions.append(SIMD3(0, -1, 0))
        let fewest = KernelTests.expectBatchAgrees(tester, origins: origins, directions: directions)
        #expect(fewest[.infinite]! > n / 2)
        #expect(fewest[.geometry]! > 50)
        #expect(fewest[.extent]! > 50)
    }

    /// Runs of rays from one origin (a camera's pixels) take the direction-cell path: the same
    /// answers, including for origins on or just off a plane, grazing rays, directions on the
    /// borders between cube faces, and zero or NaN directions inside a run.
    @Test func batchCastFromSharedOriginsAgreesWithTheScalarHitTest() throws {
        var rng = SeededRandom(seed: 9)
        let tester = KernelTests.twentyPlanes(&rng)
        let cameras: [SIMD3<Float>] = [
            SIMD3(0.3, 1.2, 0.4),        // inside the room
            SIMD3(0.5, 0, 0.5),          // on the floor
            SIMD3(1.2, 0.75 + 1e-4, 0.2), // 0.1 mm above the table top
            SIMD3(3, 1, -2),             // on the wall's plane, beside its polygon
            SIMD3(5, 3, 5),              // outside everything
        ]
        let run = PlaneRaycastKernel.minimumRun + 300
        var origins: [SIMD3<Float>] = [], directions: [SIMD3<Float>] = []
        for camera in cameras {
            for k in 0..<run {
                var d: SIMD3<Float>
                switch k % 8 {
                case 0:  // grazing the horizontal planes
                    let angle = rng.uniform(0...(2 * Float.pi))
                    d = SIMD3(cos(angle), rng.uniform(-1e-3...1e-3), sin(angle))
                case 1:  // along a face border (two equal largest coordinates) or an axis
                    let s: Float = rng.uniform(0...1) < 0.5 ? -1 : 1
                    d = [SIMD3(1, s, rng.uniform(-1...1)), SIMD3(s, 0.3, -1), SIMD3(0, s, 0), SIMD3(-1, 1, 1)][k / 8 % 4]
                default:
                    d = SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1))
                }
                origins.append(camera)
                directions.append(d.normalized ?? SIMD3(0, 0, 1))
            }
            // Unusable directions inside the run.
            directions[origins.count - 3] = .zero
            directions[origins.count - 2] = SIMD3(.nan, 1, 0)
            directions[origins.count - 1] = SIMD3(0, .infinity, 0)
        }
        let fewest = KernelTests.expectBatchAgrees(tester, origins: origins, directions: directions)
        #expect(fewest[.infinite]! > origins.count / 2)
        #expect(fewest[.geometry]! > 150)
        #expect(fewest[.extent]! > 150)
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
