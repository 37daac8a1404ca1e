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
    public func describe<C: Collection>(label: Int, plane: Plane, points: C, pointCount: Int? = nil) -> DetectedPlane?
    where C.Element == SIMD3<Float> {
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
        let (patch, cellCount) = OccupancyOutline.largestPatch(grid, columns: columns, rows: rows)
        area = Float(cellCount) * cell * cell
        let corners = OccupancyOutline.traceOuterBoundary(patch, columns: columns, rows: rows)
        let vertices = corners.map { SIMD2(lower.x + Float($0.x) * cell, lower.y + Float($0.y) * cell) }
        polygon = Polygon2D(OccupancyOutline.simplified(vertices, tolerance: cell * 0.75))
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
        func neighbourhood(_ source: [Bool], any: Bool) -> [Bool] {
            var out = [Bool](repeating: false, count: source.count)
            for r in 1..<(rows - 1) {
                for c in 1..<(columns - 1) {
                    var hit = !any
                    for dr in -1...1 {
                        for dc in -1...1 {
                            let v = source[(r + dr) * columns + c + dc]
                            if any ? v : !v { hit = any }
                        }
                    }
                    out[r * columns + c] = hit
                }
            }
            return out
        }
        let dilated = neighbourhood(grid, any: true)
        // Keep every originally occupied cell even where erosion would remove it at the margin.
        let eroded = neighbourhood(dilated, any: false)
        return zip(eroded, grid).map { $0 || $1 }
    }

    /// The largest 4-connected patch of occupied cells and its size in cells.
    static func largestPatch(_ grid: [Bool], columns: Int, rows: Int) -> ([Bool], Int) {
        var component = [Int32](repeating: 0, count: grid.count)
        var best: Int32 = 0, bestSize = 0, next: Int32 = 0
        var stack: [Int] = []
        for start in grid.indices where grid[start] && component[start] == 0 {
            next += 1
            component[start] = next
            stack.append(start)
            var size = 0
            while let i = stack.popLast() {
                size += 1
                let neighbours: InlineArray<4, Int> = [i - 1, i + 1, i - columns, i + columns]
                for k in 0..<4 {
                    let j = neighbours[k]
                    if grid[j] && component[j] == 0 {
                        component[j] = next
                        stack.append(j)
                    }
                }
            }
            if size > bestSize { (best, bestSize) = (next, size) }
        }
        return (component.map { $0 == best && best != 0 }, bestSize)
    }

    /// The outer boundary of a 4-connected patch as grid-corner coordinates, counter-clockwise,
    /// following cell edges with the patch on the left.
    static func traceOuterBoundary(_ patch: [Bool], columns: Int, rows: Int) -> [SIMD2<Int>] {
        guard let first = patch.firstIndex(of: true) else { return [] }
        func occupied(_ c: Int, _ r: Int) -> Bool {
            c >= 0 && r >= 0 && c < columns && r < rows && patch[r * columns + c]
        }
        // The first cell in row-major order has an empty cell below it, so its bottom edge is on
        // the outer boundary. Walk corners; direction 0 = +x, 1 = +y, 2 = −x, 3 = −y.
        let start = SIMD2(first % columns, first / columns)
        var position = start, direction = 0
        var corners: [SIMD2<Int>] = []
        let steps = [SIMD2(1, 0), SIMD2(0, 1), SIMD2(-1, 0), SIMD2(0, -1)]
        repeat {
            corners.append(position)
            // The cells ahead-left and ahead-right of the corner we stand on, seen along `direction`.
            for turn in [1, 0, 3] {   // left, straight, right: keep the patch on the left.
                let d = (direction + turn) % 4
                let (left, right) = OccupancyOutline.cellsBeside(corner: position, direction: d)
                if occupied(left.x, left.y) && !occupied(right.x, right.y) {
                    direction = d
                    break
                }
                if turn == 3 { direction = (direction + 2) % 4 }
            }
            position &+= steps[direction]
        } while position != start && corners.count <= 4 * patch.count
        return corners
    }

    /// The cells to the left and right of the edge leaving `corner` in `direction`.
    static func cellsBeside(corner: SIMD2<Int>, direction: Int) -> (SIMD2<Int>, SIMD2<Int>) {
        let (x, y) = (corner.x, corner.y)
        switch direction {
        case 0: return (SIMD2(x, y), SIMD2(x, y - 1))          // +x: left is the cell above the edge
        case 1: return (SIMD2(x - 1, y), SIMD2(x, y))          // +y
        case 2: return (SIMD2(x - 1, y - 1), SIMD2(x - 1, y))  // −x
        default: return (SIMD2(x, y - 1), SIMD2(x - 1, y - 1)) // −y
        }
    }

    /// Douglas–Peucker simplification of a closed outline, keeping vertices that deviate by
    /// more than `tolerance`.
    static func simplified(_ ring: [SIMD2<Float>], tolerance: Float) -> [SIMD2<Float>] {
        guard ring.count > 4 else { return ring }
        // Split the ring at the vertex farthest from the first, and simplify both halves.
        let far = ring.indices.max { length(ring[$0] - ring[0]) < length(ring[$1] - ring[0]) } ?? 0
        var keep = [Bool](repeating: false, count: ring.count)
        keep[0] = true
        keep[far] = true
        func reduce(_ from: Int, _ to: Int) {
            guard to > from + 1 else { return }
            let a = ring[from], b = ring[to % ring.count]
            let ab = b - a, span = max(length(ab), 1e-12)
            var worst = -1, worstDistance: Float = tolerance
            for i in (from + 1)..<to {
                let distance = abs(cross(ab, ring[i % ring.count] - a)) / span
                if distance > worstDistance { (worst, worstDistance) = (i, distance) }
            }
            guard worst >= 0 else { return }
            keep[worst % ring.count] = true
            reduce(from, worst)
            reduce(worst, to)
        }
        reduce(0, far)
        reduce(far, ring.count)
        return ring.indices.filter { keep[$0] }.map { ring[$0] }
    }
}
