@testable import PlaneKitDetection
import PlaneKitGeometry
import Testing
@testable import PlaneKitPlanes

@Suite("PlaneDescriber")
struct PlaneDescriberTests {
    /// Points every `step` metres over `x0…x0+width` × `z0…z0+length` (both ends included),
    /// lifted onto a plane by `place(x, z)`.
    static func grid(x0: Float, z0: Float, width: Float, length: Float, step: Float = 0.01,
                     place: (Float, Float) -> SIMD3<Float>) -> [SIMD3<Float>] {
        let nx = Int((width / step).rounded()), nz = Int((length / step).rounded())
        var points: [SIMD3<Float>] = []
        points.reserveCapacity((nx + 1) * (nz + 1))
        for i in 0...nx {
            for k in 0...nz {
                points.append(place(x0 + Float(i) * step, z0 + Float(k) * step))
            }
        }
        return points
    }

    /// Expects `actual` to agree with `expected` within `tolerance`.
    func expectNear<T: ApproximatelyEquatable>(
        _ actual: T, _ expected: T, tolerance: Float,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(actual.isApproximatelyEqual(to: expected, tolerance: tolerance),
                "\(actual) is not within \(tolerance) of \(expected)", sourceLocation: sourceLocation)
    }

    /// The floor y = 0 seen from above: normal +Y.
    let floor = Plane(unitNormal: SIMD3(0, 1, 0), offset: 0)
    /// A describer with +Y up (world coordinates).
    let describer = PlaneDescriber(up: SIMD3(0, 1, 0))

    // MARK: A 2 m × 1 m rectangle

    /// The rectangle x ∈ 2…4, z ∈ −2.5…−1.5 on y = 0 (centre (3, 0, −2)), sampled every 1 cm:
    /// 201 × 101 = 20 301 points.
    var rectangle: [SIMD3<Float>] {
        Self.grid(x0: 2, z0: -2.5, width: 2, length: 1) { x, z in SIMD3(x, 0, z) }
    }

    @Test func rectangleExtentAreaAndFrame() throws {
        let points = rectangle
        #expect(points.count == 20_301)
        let plane = try #require(describer.describe(label: 7, plane: floor, points: points))
        #expect(plane.label == 7)
        #expect(plane.pointCount == 20_301)
        #expect(plane.plane == floor)
        #expect(plane.rmsError == 0)
        expectNear(plane.centroid, SIMD3(3, 0, -2), tolerance: 1e-4)

        // The grid cell: 1.5 × the mean point spacing √(2 m² / 20 301 points) = 1.5 × 0.00993 m,
        // which is above the 1 cm minimum and the 2 m / 198 = 0.0101 m that the grid side needs.
        let cell: Float = 1.5 * (2.0 / 20_301).squareRoot()
        #expect(cell > 0.0148 && cell < 0.0150)
        // Extent: the outline follows whole cells, so each side is the true size plus at most a cell.
        #expect(plane.extent.width >= 2 - cell && plane.extent.width <= 2 + 1.5 * cell)
        #expect(plane.extent.length >= 1 - cell && plane.extent.length <= 1 + 1.5 * cell)
        #expect(plane.extent.center == .zero)
        // Area: 2 m² plus at most a cell's width around the border, (2 + c)(1 + c) ≈ 2.045.
        #expect(plane.area >= 2 * 0.98 && plane.area <= 2 * 1.03, "area \(plane.area)")
        #expect(plane.boundary.area >= 2 * 0.98 && plane.boundary.area <= 2 * 1.03, "outline area \(plane.boundary.area)")
        // A rectangle traced on cell edges simplifies to its four corners, counter-clockwise.
        #expect(plane.boundary.vertices.count == 4, "\(plane.boundary.vertices)")
        #expect(plane.boundary.signedArea > 0)

        // The frame sits at the rectangle's centre, Y along the normal, X along the long side.
        expectNear(plane.transform.translation, SIMD3(3, 0, -2), tolerance: cell)
        expectNear(plane.center, SIMD3(3, 0, -2), tolerance: cell)
        expectNear(plane.transform.yAxis, SIMD3(0, 1, 0), tolerance: 1e-6)
        expectNear(Swift.abs(plane.transform.xAxis.x), 1, tolerance: 1e-4)
        #expect(plane.transform.rotation.isRotation())
        #expect(plane.alignment == .horizontal)
        #expect(plane.classification == .none)

        // The corners of the rectangle are inside the outline, points beyond it are not.
        for corner in [SIMD3<Float>(2, 0, -2.5), SIMD3(4, 0, -2.5), SIMD3(4, 0, -1.5), SIMD3(2, 0, -1.5)] {
            #expect(plane.boundary.contains(plane.localCoordinates(of: corner)))
        }
        #expect(!plane.boundary.contains(plane.localCoordinates(of: SIMD3(4.05, 0, -2))))
        #expect(!plane.boundary.contains(plane.localCoordinates(of: SIMD3(3, 0, -1.45))))
    }

    @Test(arguments: [Float(0.02), 0.04, 0.05])
    func sparsePointsStillCoverTheRectangle(step: Float) throws {
        // A subsample or a voxel-filtered cloud: points 2–5 cm apart, more than the 1 cm minimum
        // cell. The cell grows to 1.5 × the spacing, √(2 m² / n) with n = (2/step + 1)(1/step + 1),
        // so the outline stays one rectangle instead of falling apart into specks.
        let points = Self.grid(x0: 2, z0: -2.5, width: 2, length: 1, step: step) { x, z in SIMD3(x, 0, z) }
        let n = Float((Int((2 / step).rounded()) + 1) * (Int((1 / step).rounded()) + 1))
        #expect(Float(points.count) == n)
        let cell = 1.5 * (2 / n).squareRoot()
        let plane = try #require(describer.describe(label: 1, plane: floor, points: points))
        #expect(plane.extent.width >= 2 - cell && plane.extent.width <= 2 + cell, "width \(plane.extent.width), cell \(cell)")
        #expect(plane.extent.length >= 1 - cell && plane.extent.length <= 1 + cell, "length \(plane.extent.length), cell \(cell)")
        #expect(plane.area >= 1.94 && plane.area <= (2 + cell) * (1 + cell), "area \(plane.area), cell \(cell)")
        #expect(plane.boundary.vertices.count == 4, "\(plane.boundary.vertices.count) vertices")
        expectNear(plane.center, SIMD3(3, 0, -2), tolerance: cell)
    }

    @Test func statedPointCountWinsForSubsamples() throws {
        let plane = try #require(describer.describe(label: 1, plane: floor, points: rectangle, pointCount: 1_000_000))
        #expect(plane.pointCount == 1_000_000)
    }

    @Test func rmsErrorMeasuresDistanceFromThePlane() throws {
        // Alternate rows 1 cm above and below: rms exactly 1 cm.
        var k = 0
        let bumpy = Self.grid(x0: 0, z0: 0, width: 1, length: 1) { x, z in
            k += 1
            return SIMD3(x, k % 2 == 0 ? 0.01 : -0.01, z)
        }
        let plane = try #require(describer.describe(label: 1, plane: floor, points: bumpy))
        expectNear(plane.rmsError, 0.01, tolerance: 1e-6)
    }

    // MARK: A concave L

    /// The L made of the bar x ∈ 0…2, z ∈ 0…1 and the upright x ∈ 0…1, z ∈ 1…2 (area 3 m²; its
    /// convex hull cuts the notch corner off and has area 3.5 m²).
    var ell: [SIMD3<Float>] {
        Self.grid(x0: 0, z0: 0, width: 2, length: 1) { x, z in SIMD3(x, 0, z) }
            + Self.grid(x0: 0, z0: 1.01, width: 1, length: 0.99) { x, z in SIMD3(x, 0, z) }
    }

    @Test func lShapeOutlineIsConcave() throws {
        let plane = try #require(describer.describe(label: 2, plane: floor, points: ell))
        // The L's area, not the hull's: within 5% of 3 (the hull is 17% larger).
        #expect(Swift.abs(plane.area - 3) < 0.15, "area \(plane.area)")
        #expect(Swift.abs(plane.boundary.area - 3) < 0.15, "outline area \(plane.boundary.area)")
        let hull = Polygon2D.convexHull(of: ell.map { plane.localCoordinates(of: $0) })
        expectNear(hull.area, 3.5, tolerance: 0.01)
        #expect(plane.boundary.area < hull.area - 0.3)
        // A point in the notch is outside the outline; points in both arms are inside.
        #expect(!plane.boundary.contains(plane.localCoordinates(of: SIMD3(1.5, 0, 1.5))))
        #expect(!plane.boundary.contains(plane.localCoordinates(of: SIMD3(1.3, 0, 1.3))))
        #expect(hull.contains(plane.localCoordinates(of: SIMD3(1.3, 0, 1.3))))
        #expect(plane.boundary.contains(plane.localCoordinates(of: SIMD3(1.5, 0, 0.5))))
        #expect(plane.boundary.contains(plane.localCoordinates(of: SIMD3(0.5, 0, 1.5))))
        #expect(plane.boundary.contains(plane.localCoordinates(of: SIMD3(0.5, 0, 0.5))))
        #expect(plane.alignment == .horizontal)
    }

    @Test func outlineOfAnAxisAlignedLHasSixCorners() {
        // Straight on the grid, the traced L simplifies to exactly its six corners.
        var points = ContiguousArray<SIMD2<Float>>()
        for p in ell { points.append(SIMD2(p.x, p.z)) }
        let outline = OccupancyOutline(points: points, minimumCellSize: 0.01, maximumGridSide: 200)
        #expect(outline.polygon.vertices.count == 6, "\(outline.polygon.vertices)")
        #expect(outline.polygon.signedArea > 0)
        // 20 301 + 10 100 points over a 2 m × 2 m bounding square: cells of 1.5·√(4 / 30 401) =
        // 0.0172 m. Each edge lies within a cell outside the true one, so the area is 3 m² plus at
        // most a cell's width along the 8 m perimeter.
        #expect(points.count == 30_401)
        let cell = 1.5 * (4 / Float(30_401)).squareRoot()
        #expect(outline.area >= 3 && outline.area <= 3 + 8 * cell, "area \(outline.area)")
        #expect(outline.polygon.area >= 3 && outline.polygon.area <= 3 + 8 * cell, "outline area \(outline.polygon.area)")
        #expect(!outline.polygon.contains(SIMD2(1.5, 1.5)))
        #expect(outline.polygon.contains(SIMD2(1.5, 0.5)))
        #expect(outline.polygon.contains(SIMD2(0.5, 1.5)))
    }

    @Test func outlineKeepsTheLargestPatch() {
        // A 1 m square and a 10 cm square 1 m away: the small patch is dropped.
        var points = ContiguousArray<SIMD2<Float>>()
        for i in 0...100 { for k in 0...100 { points.append(SIMD2(Float(i) * 0.01, Float(k) * 0.01)) } }
        for i in 0...10 { for k in 0...10 { points.append(SIMD2(2 + Float(i) * 0.01, Float(k) * 0.01)) } }
        let outline = OccupancyOutline(points: points, minimumCellSize: 0.01, maximumGridSide: 200)
        // 10 201 + 121 points over 2.1 m × 1 m: cells of 1.5·√(2.1 / 10 322) = 0.0214 m, so the
        // square's outline is 1 m² plus at most a cell along two sides, (1 + c)².
        let cell = 1.5 * (2.1 / Float(10_322)).squareRoot()
        #expect(outline.area >= 1 && outline.area <= (1 + cell) * (1 + cell), "area \(outline.area)")
        #expect(outline.polygon.vertices.count == 4)
        #expect(!outline.polygon.contains(SIMD2(2.05, 0.05)))
    }

    @Test func outlineOfNoPoints() {
        let outline = OccupancyOutline(points: [], minimumCellSize: 0.01, maximumGridSide: 200)
        #expect(outline.polygon.vertices.isEmpty)
        #expect(outline.area == 0)
    }

    // MARK: Alignment

    @Test func tiltedPlaneIsAny() throws {
        // Tilted 30° about X: normal (0, cos 30°, sin 30°); in-plane directions (1,0,0) and
        // (0, −sin 30°, cos 30°).
        let normal = SIMD3<Float>(0, 0.8660254, 0.5), along = SIMD3<Float>(0, -0.5, 0.8660254)
        let centre = SIMD3<Float>(0, 1, 3)
        let plane = try #require(Plane(point: centre, normal: normal))
        let points = Self.grid(x0: -0.5, z0: -0.5, width: 1, length: 1) { a, b in
            centre + a * SIMD3(1, 0, 0) + b * along
        }
        let described = try #require(describer.describe(label: 3, plane: plane, points: points))
        #expect(described.alignment == .any)
        expectNear(described.transform.yAxis, normal, tolerance: 1e-5)
        expectNear(described.center, centre, tolerance: 0.03)
        #expect(described.rmsError < 1e-6)
        expectNear(described.area, 1, tolerance: 0.05)
    }

    @Test func verticalPlaneIsVertical() throws {
        // The wall x = 2 facing the origin: normal (−1, 0, 0), offset 2; 1.5 m wide along Z, 2 m high.
        let wall = Plane(unitNormal: SIMD3(-1, 0, 0), offset: 2)
        let points = Self.grid(x0: 0, z0: -0.75, width: 2, length: 1.5) { y, z in SIMD3(2, y, z) }
        let described = try #require(describer.describe(label: 4, plane: wall, points: points))
        #expect(described.alignment == .vertical)
        expectNear(described.transform.yAxis, SIMD3(-1, 0, 0), tolerance: 1e-6)
        expectNear(described.center, SIMD3(2, 1, 0), tolerance: 0.03)
        // The long side (2 m, vertical) is the local X axis.
        expectNear(Swift.abs(described.transform.xAxis.y), 1, tolerance: 1e-4)
        #expect(Swift.abs(described.extent.width - 2) < 0.03)
        #expect(Swift.abs(described.extent.length - 1.5) < 0.03)
    }

    @Test func defaultUpIsCameraMinusY() throws {
        // Sensor frames have −Y up: a floor (normal ±Y) is horizontal, a wall facing +Z vertical.
        let sensor = PlaneDescriber()
        #expect(sensor.up == SIMD3(0, -1, 0))
        let floorFacingCamera = Plane(unitNormal: SIMD3(0, -1, 0), offset: 1.2)
        let floorPoints = Self.grid(x0: -1, z0: 1, width: 1, length: 1, step: 0.05) { x, z in SIMD3(x, 1.2, z) }
        #expect(try #require(sensor.describe(label: 1, plane: floorFacingCamera, points: floorPoints)).alignment == .horizontal)
        let wall = Plane(unitNormal: SIMD3(0, 0, -1), offset: 3)
        let wallPoints = Self.grid(x0: -1, z0: -1, width: 1, length: 1, step: 0.05) { x, y in SIMD3(x, y, 3) }
        #expect(try #require(sensor.describe(label: 2, plane: wall, points: wallPoints)).alignment == .vertical)
    }

    // MARK: Degenerate input

    @Test func fewerThanThreePointsGiveNothing() {
        #expect(describer.describe(label: 1, plane: floor, points: [SIMD3<Float>]()) == nil)
        #expect(describer.describe(label: 1, plane: floor, points: [SIMD3<Float>(0, 0, 0), SIMD3(1, 0, 0)]) == nil)
        // Non-finite points do not count.
        let mostlyNaN: [SIMD3<Float>] = [SIMD3(0, 0, 0), SIMD3(.nan, 0, 0), SIMD3(1, 0, 0), SIMD3(0, .infinity, 0)]
        #expect(describer.describe(label: 1, plane: floor, points: mostlyNaN) == nil)
    }

    @Test func nonFinitePointsAreSkipped() throws {
        let points = rectangle + [SIMD3(.nan, 0, 0), SIMD3(1e3, .infinity, 0)]
        let plane = try #require(describer.describe(label: 1, plane: floor, points: points))
        #expect(plane.pointCount == 20_301)
        #expect(plane.extent.width < 2.1)
    }

    @Test func coincidentPointsGiveATinyPlane() throws {
        let same = [SIMD3<Float>](repeating: SIMD3(1, 0, 1), count: 5)
        let plane = try #require(describer.describe(label: 1, plane: floor, points: same))
        expectNear(plane.center, SIMD3(1, 0, 1), tolerance: 0.01)
        #expect(plane.extent.width <= 0.01 && plane.extent.length <= 0.01)
        #expect(plane.area <= 1e-4)
    }

    @Test func oddSettingsDoNotCrash() throws {
        // No minimum cell, or a grid too small to hold any cell: the describer must still answer.
        // With a grid side of 3 or less the cell is the whole 2 m span, so the outline is coarse
        // (at most 2 × 1 cells of 2 m, 8 m²) but still covers the rectangle.
        for settings in [(Float(0), 2), (Float(0), 0), (Float.nan, 200), (Float(-1), -5)] {
            let odd = PlaneDescriber(up: SIMD3(0, 1, 0), minimumCellSize: settings.0, maximumGridSide: settings.1)
            let plane = try #require(odd.describe(label: 1, plane: floor, points: rectangle))
            #expect(plane.area >= 1.9 && plane.area <= 8, "area \(plane.area) for \(settings)")
            #expect(plane.extent.width >= 1.99 && plane.extent.length >= 0.99)
            for p in [SIMD3<Float>(3, 0, -2), SIMD3(2, 0, -2.5), SIMD3(4, 0, -1.5)] {
                #expect(plane.boundary.contains(plane.localCoordinates(of: p)), "\(p) for \(settings)")
            }
            let single = try #require(odd.describe(label: 1, plane: floor, points: [SIMD3<Float>](repeating: .zero, count: 3)))
            #expect(single.area.isFinite && single.extent.width.isFinite)
        }
    }
}
