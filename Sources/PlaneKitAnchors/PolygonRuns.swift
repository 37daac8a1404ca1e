import PlaneKitGeometry

/// The cells of a square grid whose centres lie inside a polygon, row by row: the scan-line
/// rasterization that fills a plane anchor's covered ground and tests an outline against it.
///
/// Cell `(i, j)` covers `[i·s, (i+1)·s) × [j·s, (j+1)·s)` for cell size `s`; indices beyond
/// `±limit` are clipped, so a wild polygon never yields more than `(2·limit + 1)²` cells.
struct PolygonRuns {
    /// Side of a cell (m).
    let cellSize: Float
    /// The farthest cell index from the origin, in either direction.
    let limit: Int
    /// Crossings of the current scan line, kept between calls to avoid reallocating.
    private var crossings: [Float] = []

    /// Runs over a grid of `cellSize` cells clipped to `±limit`.
    init(cellSize: Float, limit: Int) {
        self.cellSize = cellSize
        self.limit = limit
    }

    /// Calls `body(j, a, b)` for each run of cells `a...b` of row `j` whose centres lie inside
    /// `polygon` (either winding; non-finite vertices make it unusable, so nothing is called),
    /// until `body` returns `false`.
    mutating func forEach(in polygon: [SIMD2<Float>], _ body: (Int, Int, Int) -> Bool) {
        guard polygon.count >= 3, polygon.allSatisfy(\.isFinite), let box = PlaneExtent(enclosing: polygon) else { return }
        let firstRow = max(row(of: box.minimum.y), -limit), lastRow = min(row(of: box.maximum.y), limit)
        guard firstRow <= lastRow else { return }
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
                let from = (crossings[k] / cellSize - 0.5).rounded(.up)
                let to = (crossings[k + 1] / cellSize - 0.5).rounded(.down)
                // Clip in floating point first, so a huge coordinate cannot overflow `Int`.
                let a = Int(max(from, Float(-limit))), b = Int(min(to, Float(limit)))
                if a <= b, !body(j, a, b) { return }
                k += 2
            }
        }
    }

    /// The row holding coordinate `y`, clipped just beyond the limit.
    private func row(of y: Float) -> Int {
        Int(min(max((y / cellSize).rounded(.down), Float(-limit - 1)), Float(limit + 1)))
    }
}
