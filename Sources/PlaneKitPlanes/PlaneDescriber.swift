import PlaneKitGeometry

/// Turns a plane and the points that support it into a ``DetectedPlane``: its frame, extent,
/// outline, area and alignment.
///
/// The outline is traced on an occupancy grid of the points projected into the plane, so it
/// follows concave shapes (an L-shaped desk, a floor around a sofa) instead of a convex hull,
/// and the area counts only covered ground. Both organized and unorganized detection use it, so
/// every plane PlaneKit reports is described the same way.
public struct PlaneDescriber: Sendable {
    /// The up direction (against gravity) in the cloud's coordinates.
    public var up: SIMD3<Float>
    /// Angle tolerance for horizontal/vertical alignment (radians).
    public var alignmentTolerance: Float
    /// The smallest grid cell used to trace outlines (m). Larger planes use coarser cells so
    /// that the grid stays within ``maximumGridSide`` cells a side.
    public var minimumCellSize: Float
    /// The most cells along either side of the outline grid.
    public var maximumGridSide: Int

    /// A describer for clouds whose up direction is `up`.
    public init(up: SIMD3<Float> = SIMD3(0, -1, 0), alignmentTolerance: Float = PlaneAlignment.defaultTolerance,
                minimumCellSize: Float = 0.01, maximumGridSide: Int = 200) {
        self.up = normalize(up)
        self.alignmentTolerance = alignmentTolerance
        self.minimumCellSize = minimumCellSize
        self.maximumGridSide = maximumGridSide
    }

    /// Describes `plane` from its supporting `points`; `pointCount` is the true number of
    /// supporting points when `points` is a subsample. Returns `nil` when fewer than three
    /// points are finite.
    @inlinable
    public func describe<C: Collection>(label: Int, plane: Plane, points: C, pointCount: Int? = nil) -> DetectedPlane?
    where C.Element == SIMD3<Float> {
        // Inlinable so that a caller in another module does not iterate an unspecialised
        // collection point by point; the work itself runs on a contiguous buffer.
        if let described = points.withContiguousStorageIfAvailable({
            describe(label: label, plane: plane, buffer: $0, pointCount: pointCount)
        }) {
            return described
        }
        return ContiguousArray(points).withUnsafeBufferPointer {
            describe(label: label, plane: plane, buffer: $0, pointCount: pointCount)
        }
    }

    /// ``describe(label:plane:points:pointCount:)`` on a contiguous buffer of points.
    @usableFromInline
    func describe(label: Int, plane: Plane, buffer points: UnsafeBufferPointer<SIMD3<Float>>, pointCount: Int?) -> DetectedPlane? {
        var moments = PointMoments()
        var squaredDistance: Double = 0
        for p in points where p.isFinite {
            moments.add(p)
            let d = Double(plane.signedDistance(to: p))
            squaredDistance += d * d
        }
        guard let centroid = moments.centroid, moments.count >= 3 else { return nil }
        let majorAxis = moments.fit?.majorAxis ?? plane.normal.anyPerpendicular
        let provisional = plane.frame(origin: centroid, xHint: majorAxis)
        let origin = provisional.translation, xAxis = provisional.xAxis, zAxis = provisional.zAxis

        var local = ContiguousArray<SIMD2<Float>>()
        local.reserveCapacity(moments.count)
        for p in points where p.isFinite {
            let d = p - origin
            local.append(SIMD2(dot(d, xAxis), dot(d, zAxis)))
        }
        let outline = OccupancyOutline(points: local, minimumCellSize: minimumCellSize, maximumGridSide: maximumGridSide)

        // Re-centre the frame on the outline's bounding rectangle, as ARKit centres an anchor.
        let bounds = PlaneExtent(enclosing: outline.polygon.vertices) ?? PlaneExtent(width: 0, length: 0)
        let center = bounds.center
        let transform = Transform(rotation: provisional.rotation, translation: origin + center.x * xAxis + center.y * zAxis)
        let boundary = Polygon2D(outline.polygon.vertices.map { $0 - center })
        return DetectedPlane(
            label: label, plane: plane, centroid: centroid, transform: transform,
            extent: PlaneExtent(width: bounds.width, length: bounds.length), boundary: boundary,
            pointCount: pointCount ?? moments.count, area: outline.area,
            rmsError: Float((squaredDistance / Double(moments.count)).squareRoot()),
            alignment: PlaneAlignment(normal: plane.normal, up: up, tolerance: alignmentTolerance),
            classification: .none)
    }
}

/// The outline of a 2D point set: the outer boundary of the largest connected patch of
/// occupied grid cells, traced along cell edges and simplified.
struct OccupancyOutline {
    /// The outline, counter-clockwise.
    let polygon: Polygon2D
    /// The area of the occupied cells of the largest patch (m²).
    let area: Float

    init(points: ContiguousArray<SIMD2<Float>>, minimumCellSize: Float, maximumGridSide: Int) {
        guard let bounds = OccupancyOutline.bounds(of: points), bounds.width.isFinite, bounds.length.isFinite else {
            polygon = Polygon2D([])
            area = 0
            return
        }
        // Whatever the settings say, keep at least one cell inside the margin and a cell size that
        // is positive and finite: a zero cell (all points at one spot and no minimum) or a grid
        // side of 2 or less would otherwise divide by zero and trap converting NaN to Int.
        let side = Float(max(maximumGridSide, 3) - 2)
        let smallest = minimumCellSize.isFinite ? max(minimumCellSize, 1e-6) : 1e-6
        // Cells smaller than the point spacing (a subsample, a voxel-filtered cloud, the far end of
        // a depth frame) leave empty cells between neighbouring points, and the patch falls apart
        // into specks. The mean spacing over the bounding rectangle, √(area / count), times 1.5
        // keeps two or more points per cell on average; the closing below bridges the isolated
        // gaps that remain where points are sparser than average.
        let spacing = (bounds.area / Float(max(points.count, 1))).squareRoot()
        let cell = max(smallest, max(bounds.width, bounds.length) / side, 1.5 * spacing)
        // One empty cell of margin on every side, so every patch has an outside.
        let columns = Int((bounds.width / cell).rounded(.down)) + 3
        let rows = Int((bounds.length / cell).rounded(.down)) + 3
        let lower = bounds.minimum - cell
        var grid = [Bool](repeating: false, count: columns * rows)
        for p in points where p.isFinite {
            let c = min(columns - 2, max(1, Int((p.x - lower.x) / cell)))
            let r = min(rows - 2, max(1, Int((p.y - lower.y) / cell)))
            grid[r * columns + c] = true
        }
        grid = OccupancyOutline.closed(grid, columns: columns, rows: rows)
        let (patch, cellCount) = CellOutline.largestPatch(grid, columns: columns, rows: rows)
        area = Float(cellCount) * cell * cell
        let corners = CellOutline.outerBoundary(of: patch, columns: columns, rows: rows)
        let vertices = corners.map { SIMD2(lower.x + Float($0.x) * cell, lower.y + Float($0.y) * cell) }
        polygon = Polygon2D(CellOutline.simplified(vertices, tolerance: cell * 0.75))
    }

    /// The bounding rectangle of the finite points, as `PlaneExtent(enclosing:)` computes it; a
    /// loop over the concrete array here, where the generic initializer, compiled in another
    /// module, would walk the points through protocol witnesses.
    static func bounds(of points: ContiguousArray<SIMD2<Float>>) -> PlaneExtent? {
        var lower = SIMD2<Float>(repeating: .infinity), upper = SIMD2<Float>(repeating: -.infinity)
        points.withUnsafeBufferPointer { buffer in
            for p in buffer where p.isFinite {
                lower = pointwiseMin(lower, p)
                upper = pointwiseMax(upper, p)
            }
        }
        guard lower.x <= upper.x else { return nil }
        return PlaneExtent(center: (lower + upper) / 2, width: upper.x - lower.x, length: upper.y - lower.y)
    }

    /// Morphological closing (dilate then erode, 3×3): bridges the one-cell gaps that sparse
    /// sampling leaves inside a surface. The margin stays empty.
    static func closed(_ grid: [Bool], columns: Int, rows: Int) -> [Bool] {
        // A 3×3 neighbourhood is a 3-wide row neighbourhood of 3-tall column neighbourhoods, so
        // each pass is two passes of three reads instead of one of nine.
        func neighbourhood(_ source: [Bool], any: Bool) -> [Bool] {
            var across = [Bool](repeating: false, count: source.count)
            var out = [Bool](repeating: false, count: source.count)
            source.withUnsafeBufferPointer { s in
                across.withUnsafeMutableBufferPointer { h in
                    for r in 0..<rows {
                        let row = r * columns
                        for c in 1..<(columns - 1) {
                            let (a, b, d) = (s[row + c - 1], s[row + c], s[row + c + 1])
                            h[row + c] = any ? (a || b || d) : (a && b && d)
                        }
                    }
                }
            }
            across.withUnsafeBufferPointer { h in
                out.withUnsafeMutableBufferPointer { o in
                    for r in 1..<(rows - 1) {
                        let row = r * columns
                        for c in 1..<(columns - 1) {
                            let (a, b, d) = (h[row - columns + c], h[row + c], h[row + columns + c])
                            o[row + c] = any ? (a || b || d) : (a && b && d)
                        }
                    }
                }
            }
            return out
        }
        let dilated = neighbourhood(grid, any: true)
        // Keep every originally occupied cell even where erosion would remove it at the margin.
        let eroded = neighbourhood(dilated, any: false)
        return zip(eroded, grid).map { $0 || $1 }
    }
}
