#if canImport(Glibc)
import Glibc
#endif
import PlaneKitDetection
import PlaneKitGeometry
@testable import PlaneKitHitTesting
import PlaneKitSynthesis
import Testing
import PlaneKitSeededRandom
import PlaneKitPlanes

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

    /// Directions from `origin` through every polygon vertex and edge midpoint of the planes,
    /// and through points a float unit or a hair (1 µm) either side of them: rays right at the
    /// outlines, where a footprint classification that was not conservative would answer wrong.
    static func outlineDirections(_ tester: HitTester, from origin: SIMD3<Float>) -> [SIMD3<Float>] {
        var directions: [SIMD3<Float>] = []
        for plane in tester.planes.map(\.plane) {
            let v = plane.boundary.vertices
            for (i, a) in v.enumerated() {
                let b = v[(i + 1) % v.count]
                for local in [a, (a + b) / 2, a + (b - a) * 0.999] {
                    for nudge: SIMD2<Float> in [.zero, SIMD2(1e-6, 0), SIMD2(-1e-6, 0), SIMD2(0, 1e-6), SIMD2(0, -1e-6)] {
                        let p = plane.transform.apply(toPoint: SIMD3(local.x + nudge.x, 0, local.y + nudge.y))
                        if let d = (p - origin).normalized { directions.append(d) }
                    }
                }
            }
        }
        return directions
    }

    /// Rays from many origins aimed right at the polygons' outlines (vertices, edge midpoints,
    /// points just inside and outside) take the direction-cell path with its inside / outside
    /// footprints and still give the scalar hit test's answers.
    @Test func raysAtPolygonOutlinesFromManyOriginsAgreeWithTheScalarHitTest() throws {
        var rng = SeededRandom(seed: 21)
        let tester = KernelTests.twentyPlanes(&rng)
        var origins: [SIMD3<Float>] = [], directions: [SIMD3<Float>] = []
        var cameras: [SIMD3<Float>] = [SIMD3(0, 1.6, 0), SIMD3(1.2, 0.75 + 1e-3, 0.2), SIMD3(-2.5, 0.3, 2.5)]
        for _ in 0..<9 { cameras.append(SIMD3(rng.uniform(-3...3), rng.uniform(0.1...2.5), rng.uniform(-3...3))) }
        for camera in cameras {
            var run = KernelTests.outlineDirections(tester, from: camera)
            // Long enough for the direction-cell path.
            while run.count < PlaneRaycastKernel.minimumRun {
                run.append(SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)).normalized ?? SIMD3(0, 0, 1))
            }
            origins += Array(repeating: camera, count: run.count)
            directions += run
        }
        let fewest = KernelTests.expectBatchAgrees(tester, origins: origins, directions: directions)
        #expect(fewest[.geometry]! > origins.count / 10)
        #expect(fewest[.extent]! > origins.count / 10)
    }

    /// The footprint classification, checked ray by ray: from several origins, for random
    /// directions and directions at the outlines, every plane a cell marks inside passes the
    /// polygon test for every ray of the cell that reaches it, and every plane a cell drops fails
    /// it. And the classification does its job: most listed (plane, cell) pairs are decided.
    @Test func footprintClassificationIsConservative() throws {
        var rng = SeededRandom(seed: 33)
        let tester = KernelTests.twentyPlanes(&rng)
        let kernel = tester.kernel
        var decided = 0, listed = 0, checkedInside = 0, checkedDropped = 0
        try kernel.withView { view in
            let planes = view.planes
            do {
                for _ in 0..<6 {
                    let o = SIMD3(rng.uniform(-2...2), rng.uniform(0.2...2), rng.uniform(-2...2))
                    var cast = OriginCast(rectangles: kernel.geometryRectangles)
                    cast.build(origin: o, planes: planes, allowed: 7)
                    cast.classifyEveryCell(geometry: true, view: view)
                    let table = cast.cells
                    for cell in table.masks {
                        listed += cell.listed.nonzeroBitCount
                        decided += cell.inside.nonzeroBitCount
                        #expect(cell.inside & ~cell.listed == 0)
                    }
                    var directions = KernelTests.outlineDirections(tester, from: o)
                    for _ in 0..<20_000 {
                        directions.append(try #require(SIMD3(rng.uniform(-1...1), rng.uniform(-1...1), rng.uniform(-1...1)).normalized))
                    }
                    for d in directions {
                        let index = Int(DirectionCells.cells(SIMD4(repeating: d.x), SIMD4(repeating: d.y), SIMD4(repeating: d.z))[0])
                        let cell = table.masks[index]
                        for (bit, planeIndex) in table.order.enumerated() {
                            let p = planes[Int(planeIndex)]
                            let (denominator, t) = p.distance(o, d)
                            guard t >= 0, denominator > 1e-6 || denominator < -1e-6 else { continue }
                            let inside = kernel.polygonContains(planeIndex: Int(planeIndex), local: p.local(o, d, t))
                            if cell.inside >> UInt64(bit) & 1 == 1 {
                                checkedInside += 1
                                #expect(inside, "plane \(planeIndex) marked inside for direction \(d) from \(o)")
                            } else if cell.listed >> UInt64(bit) & 1 == 0 {
                                checkedDropped += 1
                                #expect(!inside, "plane \(planeIndex) dropped for direction \(d) from \(o)")
                            }
                        }
                    }
                }
            }
        }
        #expect(checkedInside > 10_000)
        #expect(checkedDropped > 10_000)
        #expect(decided * 4 > listed)
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
