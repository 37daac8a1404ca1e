import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// The ground a plane anchor has been seen to cover: a grid of square cells in the anchor's
/// fixed grid frame (local `(x, z)`), grown by filling each frame's outline.
///
/// Cell `(i, j)` covers `[i·s, (i+1)·s) × [j·s, (j+1)·s)` for cell size `s`. A polygon fills
/// the cells whose centres it contains. The grid is stored densely over the occupied bounds
/// plus a margin, reallocated when an outline reaches past it, and never beyond
/// ``maximumHalfExtent`` from the grid frame's origin in either direction (25.6 m at 5 cm).
///
/// The work of filling and outlining is proportional to the stored cells, so their count is
/// bounded by the extent, not by how far away the surface is: when the covered ground would
/// need more than ``maximumSide`` cells along either axis, the cells double in size (each
/// 2 × 2 block becomes one cell, occupied when any of the four was). A room's floor keeps its
/// 5 cm cells (up to 16 m across); a wall 50 m away, which a low-resolution frame sees tens of
/// metres wide, is kept in 20 cm cells, at most ``maximumSide``² of them.
package struct PlaneOccupancy: Sendable {
    /// Side of a cell (m): the configured size, doubled each time the grid was coarsened.
    package private(set) var cellSize: Float
    /// The farthest cell index from the origin, in either direction, at the configured cell size.
    package static let maximumHalfSide = 512
    /// The most cells the stored grid holds along either axis: 320, so at most 102 400 cells.
    static let maximumSide = 320
    /// Spare cells added on each side when the grid grows, so that growth is rare.
    private static let growthMargin = 8

    /// How many times the cells have doubled in size.
    private(set) var coarsening = 0
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

    package init(cellSize: Float) {
        self.cellSize = cellSize
    }

    /// The farthest cell index from the origin at the current cell size: the same distance
    /// (``maximumHalfExtent``) in fewer, larger cells.
    var limit: Int { PlaneOccupancy.maximumHalfSide >> coarsening }

    /// The farthest the grid reaches from the grid frame's origin (m).
    var maximumHalfExtent: Float { Float(PlaneOccupancy.maximumHalfSide) * cellSize / Float(1 << coarsening) }

    /// The cells stored (`columns × rows`): what filling and outlining walk over.
    var storedCellCount: Int { columns * rows }

    /// The covered area (m²): occupied cells × cell area.
    var area: Float { Float(occupiedCount) * cellSize * cellSize }

    /// The rectangle covering every occupied cell, as (minimum, maximum) corners in local
    /// `(x, z)`, or `nil` while nothing is occupied.
    var bounds: (minimum: SIMD2<Float>, maximum: SIMD2<Float>)? {
        guard occupiedCount > 0 else { return nil }
        return (SIMD2<Float>(occupiedMinimum) * cellSize, SIMD2<Float>(occupiedMaximum &+ 1) * cellSize)
    }

    /// The index of the cell holding `p`, clipped to just beyond the limit.
    package func cell(of p: SIMD2<Float>) -> SIMD2<Int> {
        let q = (p / cellSize).rounded(.down)
        let limit = Float(self.limit + 1)
        return SIMD2<Int>(pointwiseMin(pointwiseMax(q, SIMD2(repeating: -limit)), SIMD2(repeating: limit)))
    }

    /// `true` when cell `c` is occupied.
    func isOccupied(_ c: SIMD2<Int>) -> Bool {
        let i = c &- lower
        guard i.x >= 0, i.y >= 0, i.x < columns, i.y < rows else { return false }
        return cells[i.y * columns + i.x]
    }

    /// Marks the cell holding `p` (local `(x, z)`) occupied; `true` when the covered ground
    /// changed (the cell was not occupied, or the grid had to be coarsened to take it).
    /// Points beyond the size limit, and non-finite ones, are ignored.
    @discardableResult
    mutating func occupy(point p: SIMD2<Float>) -> Bool {
        guard p.isFinite else { return false }
        let coarsened = reserve(from: cell(of: p), to: cell(of: p))
        return occupyReserved(cell(of: p)) || coarsened
    }

    /// Marks cell `c` occupied, `c` counted in cells of the configured size (as a saved world
    /// map stores them; coarsened cells hold several of them). Cells beyond the limit are ignored.
    package mutating func occupy(cell c: SIMD2<Int>) {
        reserve(from: c &>> coarsening, to: c &>> coarsening)
        // Reserving may have coarsened the grid: index at the size that now holds.
        occupyReserved(c &>> coarsening)
    }

    /// Marks reserved cell `c` occupied; `true` when it was not before. Cells beyond the
    /// limit are ignored.
    @discardableResult
    private mutating func occupyReserved(_ c: SIMD2<Int>) -> Bool {
        let limit = self.limit
        guard abs(c.x) <= limit, abs(c.y) <= limit else { return false }
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
    /// ``isOccupied(near:reach:)`` tests it, so that the next sighting can find it. Returns
    /// `true` when the covered ground changed (cells became occupied, or the grid was coarsened
    /// to hold the polygon).
    @discardableResult
    mutating func fill(_ polygon: [SIMD2<Float>]) -> Bool {
        guard polygon.count >= 3, polygon.allSatisfy(\.isFinite), let box = PlaneExtent(enclosing: polygon) else { return false }
        // Room for the whole polygon first: any coarsening happens here, before the runs are
        // computed at the cell size that then holds.
        var changed = reserve(from: cell(of: box.minimum), to: cell(of: box.maximum))
        var anyRun = false
        var runs = PolygonRuns(cellSize: cellSize, limit: limit)
        runs.forEach(in: polygon) { j, a, b in
            anyRun = true
            for i in a...b where occupyReserved(SIMD2(i, j)) { changed = true }
            return true
        }
        guard !anyRun else { return changed }
        for vertex in polygon where occupyReserved(cell(of: vertex)) { changed = true }
        return changed
    }

    /// `true` when some occupied cell lies within `reach` cells (in both directions, a square
    /// neighbourhood) of a cell of row `j` from column `a` to `b` (inclusive).
    package func isOccupied(row j: Int, from a: Int, to b: Int, reach: Int) -> Bool {
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
        var runs = PolygonRuns(cellSize: cellSize, limit: limit)
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
    package func occupiedCells() -> [SIMD2<Int>] {
        var result: [SIMD2<Int>] = []
        result.reserveCapacity(occupiedCount)
        for r in 0..<rows {
            for c in 0..<columns where cells[r * columns + c] { result.append(lower &+ SIMD2(c, r)) }
        }
        return result
    }

    /// The centre of cell `c` in local `(x, z)`.
    package func center(of c: SIMD2<Int>) -> SIMD2<Float> {
        (SIMD2<Float>(c) + 0.5) * cellSize
    }

    /// Makes room for the cells from `a` to `b` (inclusive, clipped to the limit), growing
    /// with a margin; when the occupied cells and these together need more than
    /// ``maximumSide`` cells along an axis, coarsens the grid until they fit. `true` when it
    /// coarsened (cell indices held by the caller are then stale).
    @discardableResult
    private mutating func reserve(from a: SIMD2<Int>, to b: SIMD2<Int>) -> Bool {
        let clip = SIMD2(repeating: limit)
        var (a, b) = (pointwiseMax(a, 0 &- clip), pointwiseMin(b, clip))
        let upper = lower &+ SIMD2(columns, rows) &- 1
        if columns > 0, a.x >= lower.x, a.y >= lower.y, b.x <= upper.x, b.y <= upper.y { return false }
        var levels = 0
        while true {
            // What must be held, in cells of this level: the new range and the occupied cells.
            let limit = PlaneOccupancy.maximumHalfSide >> (coarsening + levels)
            var needLower = pointwiseMax(pointwiseMin(a, b), SIMD2(repeating: -limit))
            var needUpper = pointwiseMin(pointwiseMax(a, b), SIMD2(repeating: limit))
            if occupiedCount > 0 {
                needLower = pointwiseMin(needLower, occupiedMinimum &>> levels)
                needUpper = pointwiseMax(needUpper, occupiedMaximum &>> levels)
            }
            let need = needUpper &- needLower &+ 1
            if need.x <= PlaneOccupancy.maximumSide && need.y <= PlaneOccupancy.maximumSide {
                regrid(lower: needLower, upper: needUpper, levels: levels, limit: limit)
                return levels > 0
            }
            // Halving an index rounds towards −∞ (an arithmetic shift), as the cells nest.
            (a, b) = (a &>> 1, b &>> 1)
            levels += 1
        }
    }

    /// Reallocates the grid to hold cells `needLower...needUpper` (at the new level) plus a margin
    /// that keeps it within ``maximumSide`` cells and the limit, moving the occupied cells into
    /// it, each `levels` times halved.
    private mutating func regrid(lower needLower: SIMD2<Int>, upper needUpper: SIMD2<Int>, levels: Int, limit: Int) {
        let margin = PlaneOccupancy.growthMargin
        // The margin on each side, as much of growthMargin as fits within maximumSide.
        let spare = (SIMD2(repeating: PlaneOccupancy.maximumSide) &- (needUpper &- needLower &+ 1)) / 2
        let side = pointwiseMin(SIMD2(repeating: margin), spare)
        var newLower = needLower &- side, newUpper = needUpper &+ side
        // Keep the old grid's margin when it fits, so that growth stays rare.
        if columns > 0 && levels == 0 {
            let widened = (pointwiseMin(newLower, lower), pointwiseMax(newUpper, lower &+ SIMD2(columns, rows) &- 1))
            let span = widened.1 &- widened.0 &+ 1
            if span.x <= PlaneOccupancy.maximumSide && span.y <= PlaneOccupancy.maximumSide { (newLower, newUpper) = widened }
        }
        newLower = pointwiseMax(newLower, SIMD2(repeating: -limit))
        newUpper = pointwiseMin(newUpper, SIMD2(repeating: limit))
        let newColumns = newUpper.x - newLower.x + 1, newRows = newUpper.y - newLower.y + 1
        var grown = [Bool](repeating: false, count: newColumns * newRows)
        var count = 0
        for r in 0..<rows {
            for c in 0..<columns where cells[r * columns + c] {
                let moved = ((lower &+ SIMD2(c, r)) &>> levels) &- newLower
                let index = moved.y * newColumns + moved.x
                if !grown[index] { grown[index] = true; count += 1 }
            }
        }
        (lower, columns, rows, cells) = (newLower, newColumns, newRows, grown)
        if levels > 0 {
            coarsening += levels
            cellSize *= Float(1 << levels)
            occupiedCount = count
            occupiedMinimum = occupiedMinimum &>> levels
            occupiedMaximum = occupiedMaximum &>> levels
        }
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
