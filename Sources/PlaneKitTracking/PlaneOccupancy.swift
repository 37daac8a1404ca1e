import PlaneKitDetection
import PlaneKitGeometry

/// The ground a plane anchor has been seen to cover: a grid of square cells in the anchor's
/// fixed grid frame (local `(x, z)`), grown by filling each frame's outline.
///
/// Cell `(i, j)` covers `[i·s, (i+1)·s) × [j·s, (j+1)·s)` for cell size `s`. A polygon fills
/// the cells whose centres it contains. The grid is stored densely over the occupied bounds
/// plus a margin, reallocated when an outline reaches past it, and never beyond
/// ``maximumHalfSide`` cells from the grid frame's origin in either direction (25.6 m at 5 cm),
/// so a wild outline cannot ask for a huge allocation.
struct PlaneOccupancy: Sendable {
    /// Side of a cell (m).
    let cellSize: Float
    /// The farthest cell index from the origin, in either direction.
    static let maximumHalfSide = 512
    /// Spare cells added on each side when the grid grows, so that growth is rare.
    private static let growthMargin = 8

    /// Cell index of `cells[0]`.
    private(set) var lower = SIMD2<Int>(0, 0)
    private(set) var columns = 0
    private(set) var rows = 0
    private(set) var cells: [Bool] = []
    /// How many cells are occupied.
    private(set) var occupiedCount = 0
    /// Inclusive bounds of the occupied cells' indices (meaningless while none is occupied).
    private(set) var occupiedMinimum = SIMD2<Int>(.max, .max)
    private(set) var occupiedMaximum = SIMD2<Int>(.min, .min)

    init(cellSize: Float) {
        self.cellSize = cellSize
    }

    /// The covered area (m²): occupied cells × cell area.
    var area: Float { Float(occupiedCount) * cellSize * cellSize }

    /// The rectangle covering every occupied cell, as (minimum, maximum) corners in local
    /// `(x, z)`, or `nil` while nothing is occupied.
    var bounds: (minimum: SIMD2<Float>, maximum: SIMD2<Float>)? {
        guard occupiedCount > 0 else { return nil }
        return (SIMD2<Float>(occupiedMinimum) * cellSize, SIMD2<Float>(occupiedMaximum &+ 1) * cellSize)
    }

    /// The index of the cell holding `p`.
    func cell(of p: SIMD2<Float>) -> SIMD2<Int> {
        let q = (p / cellSize).rounded(.down)
        let limit = Float(PlaneOccupancy.maximumHalfSide + 1)
        return SIMD2<Int>(pointwiseMin(pointwiseMax(q, SIMD2(repeating: -limit)), SIMD2(repeating: limit)))
    }

    /// `true` when cell `c` is occupied.
    func isOccupied(_ c: SIMD2<Int>) -> Bool {
        let i = c &- lower
        guard i.x >= 0, i.y >= 0, i.x < columns, i.y < rows else { return false }
        return cells[i.y * columns + i.x]
    }

    /// Marks cell `c` occupied; `true` when it was not before. Cells beyond the size limit are ignored.
    @discardableResult
    mutating func occupy(_ c: SIMD2<Int>) -> Bool {
        let limit = PlaneOccupancy.maximumHalfSide
        guard abs(c.x) <= limit, abs(c.y) <= limit else { return false }
        reserve(from: c, to: c)
        let i = c &- lower
        let index = i.y * columns + i.x
        guard !cells[index] else { return false }
        cells[index] = true
        occupiedCount += 1
        occupiedMinimum = pointwiseMin(occupiedMinimum, c)
        occupiedMaximum = pointwiseMax(occupiedMaximum, c)
        return true
    }

    /// Occupies the cells whose centres lie inside `polygon` (local `(x, z)`, either winding;
    /// non-finite vertices make the polygon unusable); a polygon too thin to hold a cell centre
    /// (a strip of a surface seen edge-on) occupies the cells of its vertices instead, as
    /// ``isOccupied(near:reach:)`` tests it, so that the next sighting can find it. Returns how
    /// many cells became occupied.
    @discardableResult
    mutating func fill(_ polygon: [SIMD2<Float>]) -> Int {
        var added = 0, anyRun = false
        var runs = PolygonRuns(cellSize: cellSize, limit: PlaneOccupancy.maximumHalfSide)
        runs.forEach(in: polygon) { j, a, b in
            anyRun = true
            reserve(from: SIMD2(a, j), to: SIMD2(b, j))
            for i in a...b where occupy(SIMD2(i, j)) { added += 1 }
            return true
        }
        guard !anyRun, polygon.count >= 3, polygon.allSatisfy(\.isFinite) else { return added }
        for vertex in polygon where occupy(cell(of: vertex)) { added += 1 }
        return added
    }

    /// `true` when some occupied cell lies within `reach` cells (in both directions, a square
    /// neighbourhood) of a cell of row `j` from column `a` to `b` (inclusive).
    func isOccupied(row j: Int, from a: Int, to b: Int, reach: Int) -> Bool {
        guard occupiedCount > 0 else { return false }
        // Clip the dilated run to the occupied bounds, then to the stored grid.
        let lowRow = max(j - reach, occupiedMinimum.y), highRow = min(j + reach, occupiedMaximum.y)
        let lowColumn = max(a - reach, occupiedMinimum.x), highColumn = min(b + reach, occupiedMaximum.x)
        guard lowRow <= highRow, lowColumn <= highColumn else { return false }
        for r in lowRow...highRow {
            let base = (r - lower.y) * columns - lower.x
            for c in lowColumn...highColumn where cells[base + c] { return true }
        }
        return false
    }

    /// `true` when some occupied cell lies within `reach` cells of a cell whose centre lies
    /// inside `polygon` (local `(x, z)`); a polygon too thin to hold a cell centre is tested by
    /// the cells of its vertices.
    func isOccupied(near polygon: [SIMD2<Float>], reach: Int) -> Bool {
        var found = false, anyRun = false
        var runs = PolygonRuns(cellSize: cellSize, limit: PlaneOccupancy.maximumHalfSide)
        runs.forEach(in: polygon) { j, a, b in
            anyRun = true
            found = isOccupied(row: j, from: a, to: b, reach: reach)
            return !found
        }
        if found || anyRun { return found }
        return polygon.contains { v in
            v.isFinite && { let c = cell(of: v); return isOccupied(row: c.y, from: c.x, to: c.x, reach: reach) }()
        }
    }

    /// Every occupied cell's index.
    func occupiedCells() -> [SIMD2<Int>] {
        var result: [SIMD2<Int>] = []
        result.reserveCapacity(occupiedCount)
        for r in 0..<rows {
            for c in 0..<columns where cells[r * columns + c] { result.append(lower &+ SIMD2(c, r)) }
        }
        return result
    }

    /// The centre of cell `c` in local `(x, z)`.
    func center(of c: SIMD2<Int>) -> SIMD2<Float> {
        (SIMD2<Float>(c) + 0.5) * cellSize
    }

    /// Makes room for the cells from `a` to `b` (inclusive), growing with a margin.
    private mutating func reserve(from a: SIMD2<Int>, to b: SIMD2<Int>) {
        let upper = lower &+ SIMD2(columns, rows) &- 1
        if columns > 0, a.x >= lower.x, a.y >= lower.y, b.x <= upper.x, b.y <= upper.y { return }
        let limit = PlaneOccupancy.maximumHalfSide
        let margin = PlaneOccupancy.growthMargin
        var newLower = a &- margin, newUpper = b &+ margin
        if columns > 0 {
            newLower = pointwiseMin(newLower, lower)
            newUpper = pointwiseMax(newUpper, upper)
        }
        newLower = pointwiseMax(newLower, SIMD2(repeating: -limit))
        newUpper = pointwiseMin(newUpper, SIMD2(repeating: limit))
        let newColumns = newUpper.x - newLower.x + 1, newRows = newUpper.y - newLower.y + 1
        var grown = [Bool](repeating: false, count: newColumns * newRows)
        for r in 0..<rows {
            let target = (lower.y + r - newLower.y) * newColumns + (lower.x - newLower.x)
            for c in 0..<columns where cells[r * columns + c] { grown[target + c] = true }
        }
        (lower, columns, rows, cells) = (newLower, newColumns, newRows, grown)
    }

    // MARK: Outline

    /// The outer boundary of the largest 4-connected patch of occupied cells, traced along cell
    /// edges counter-clockwise and simplified (Douglas–Peucker, tolerance 0.75 cell) in local
    /// `(x, z)`. Empty while nothing is occupied.
    func outline() -> [SIMD2<Float>] {
        guard occupiedCount > 0 else { return [] }
        let patch = CellOutline.largestPatch(cells, columns: columns, rows: rows).mask
        let corners = CellOutline.outerBoundary(of: patch, columns: columns, rows: rows)
        return CellOutline.simplified(corners.map { SIMD2<Float>($0 &+ lower) * cellSize }, tolerance: 0.75 * cellSize)
    }
}
