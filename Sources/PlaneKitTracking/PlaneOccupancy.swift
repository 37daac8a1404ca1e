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
    /// non-finite vertices make the polygon unusable). Returns how many cells became occupied.
    @discardableResult
    mutating func fill(_ polygon: [SIMD2<Float>]) -> Int {
        guard polygon.count >= 3, polygon.allSatisfy(\.isFinite),
              let box = PlaneExtent(enclosing: polygon) else { return 0 }
        let limit = PlaneOccupancy.maximumHalfSide
        let first = cell(of: box.minimum), last = cell(of: box.maximum)
        let firstRow = max(first.y, -limit), lastRow = min(last.y, limit)
        guard firstRow <= lastRow else { return 0 }
        var added = 0
        var crossings: [Float] = []
        for j in firstRow...lastRow {
            // Scan line through the row's cell centres; half-open edges count each crossing once.
            let y = (Float(j) + 0.5) * cellSize
            crossings.removeAll(keepingCapacity: true)
            var previous = polygon[polygon.count - 1]
            for v in polygon {
                if (v.y > y) != (previous.y > y) {
                    crossings.append(v.x + (y - v.y) * (previous.x - v.x) / (previous.y - v.y))
                }
                previous = v
            }
            crossings.sort()
            var k = 0
            while k + 1 < crossings.count {
                let from = Int((crossings[k] / cellSize - 0.5).rounded(.up))
                let to = Int((crossings[k + 1] / cellSize - 0.5).rounded(.down))
                let a = max(from, -limit), b = min(to, limit)
                if a <= b {
                    reserve(from: SIMD2(a, j), to: SIMD2(b, j))
                    for i in a...b where occupy(SIMD2(i, j)) { added += 1 }
                }
                k += 2
            }
        }
        return added
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
        let patch = largestPatch()
        func occupied(_ c: Int, _ r: Int) -> Bool {
            c >= 0 && r >= 0 && c < columns && r < rows && patch[r * columns + c]
        }
        guard let first = patch.firstIndex(of: true) else { return [] }
        // The first patch cell in row-major order has nothing below or left of it in its row, so
        // the walk starts at its lower-left corner going +x with the patch on the left.
        let start = SIMD2(first % columns, first / columns)
        var position = start, direction = 0
        var corners: [SIMD2<Int>] = []
        let steps = [SIMD2(1, 0), SIMD2(0, 1), SIMD2(-1, 0), SIMD2(0, -1)]
        repeat {
            corners.append(position)
            var turned = false
            for turn in [1, 0, 3] {   // left, straight, right
                let d = (direction + turn) % 4
                let (left, right) = PlaneOccupancy.cellsBeside(corner: position, direction: d)
                if occupied(left.x, left.y) && !occupied(right.x, right.y) {
                    direction = d
                    turned = true
                    break
                }
            }
            if !turned { direction = (direction + 2) % 4 }
            position &+= steps[direction]
        } while position != start && corners.count <= 4 * occupiedCount + 4
        // Keep only the corners where the walk turns, then simplify.
        var turns: [SIMD2<Float>] = []
        for (k, corner) in corners.enumerated() {
            let before = corners[(k + corners.count - 1) % corners.count], after = corners[(k + 1) % corners.count]
            if (corner &- before) != (after &- corner) {
                turns.append(SIMD2<Float>(corner &+ lower) * cellSize)
            }
        }
        return PlaneOccupancy.simplified(turns, tolerance: 0.75 * cellSize)
    }

    /// The cells to the left and right of the edge leaving `corner` in `direction`
    /// (0 = +x, 1 = +y, 2 = −x, 3 = −y); corner `(x, y)` is the lower-left corner of cell `(x, y)`.
    private static func cellsBeside(corner: SIMD2<Int>, direction: Int) -> (SIMD2<Int>, SIMD2<Int>) {
        let (x, y) = (corner.x, corner.y)
        switch direction {
        case 0: return (SIMD2(x, y), SIMD2(x, y - 1))
        case 1: return (SIMD2(x - 1, y), SIMD2(x, y))
        case 2: return (SIMD2(x - 1, y - 1), SIMD2(x - 1, y))
        default: return (SIMD2(x, y - 1), SIMD2(x - 1, y - 1))
        }
    }

    /// The largest 4-connected patch of occupied cells (grid-local mask).
    private func largestPatch() -> [Bool] {
        var component = [Int32](repeating: 0, count: cells.count)
        var best: Int32 = 0, bestSize = 0, next: Int32 = 0
        var stack: [Int] = []
        for start in cells.indices where cells[start] && component[start] == 0 {
            next += 1
            component[start] = next
            stack.append(start)
            var size = 0
            while let i = stack.popLast() {
                size += 1
                let c = i % columns, r = i / columns
                if c > 0, cells[i - 1], component[i - 1] == 0 { component[i - 1] = next; stack.append(i - 1) }
                if c + 1 < columns, cells[i + 1], component[i + 1] == 0 { component[i + 1] = next; stack.append(i + 1) }
                if r > 0, cells[i - columns], component[i - columns] == 0 { component[i - columns] = next; stack.append(i - columns) }
                if r + 1 < rows, cells[i + columns], component[i + columns] == 0 {
                    component[i + columns] = next
                    stack.append(i + columns)
                }
            }
            if size > bestSize { (best, bestSize) = (next, size) }
        }
        return component.map { $0 == best && best != 0 }
    }

    /// Douglas–Peucker simplification of a closed ring, keeping vertices that stray more than
    /// `tolerance` from the simplified outline.
    static func simplified(_ ring: [SIMD2<Float>], tolerance: Float) -> [SIMD2<Float>] {
        guard ring.count > 4 else { return ring }
        var far = 0, farDistance: Float = -1
        for (i, v) in ring.enumerated() where (v - ring[0]).length > farDistance { (far, farDistance) = (i, (v - ring[0]).length) }
        var keep = [Bool](repeating: false, count: ring.count)
        keep[0] = true
        keep[far] = true
        var pending = [(0, far), (far, ring.count)]
        while let (from, to) = pending.popLast() {
            guard to > from + 1 else { continue }
            let a = ring[from], b = ring[to % ring.count]
            let ab = b - a, span = max(ab.length, 1e-12)
            var worst = -1, worstDistance = tolerance
            for i in (from + 1)..<to {
                let d = abs(cross(ab, ring[i] - a)) / span
                if d > worstDistance { (worst, worstDistance) = (i, d) }
            }
            guard worst >= 0 else { continue }
            keep[worst] = true
            pending.append((from, worst))
            pending.append((worst, to))
        }
        return ring.indices.filter { keep[$0] }.map { ring[$0] }
    }
}
