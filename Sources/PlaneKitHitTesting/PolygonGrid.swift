import PlaneKitGeometry

/// A polygon prepared for point-in-polygon queries in (nearly) constant time.
///
/// The polygon's bounding rectangle is cut into a uniform grid. Cells no edge touches are
/// wholly inside or wholly outside and answer at once; the few cells an edge touches ("mixed")
/// run the crossing-number test over the edges of their grid row only (a horizontal slab):
/// every edge that the +x test ray from a point can cross spans the point's `z`, so it lies in
/// the point's slab. The grid data of all planes lives in three shared flat arrays
/// (``PolygonGridStorage``), so a query touches no reference counts.
///
/// Points within ``edgeTolerance`` of an edge count as inside, so a hit exactly on the outline
/// is always a hit, whatever rounding the ray arithmetic brings.
@usableFromInline struct PolygonGrid: Sendable {
    /// The lower corner of the bounding rectangle.
    @usableFromInline var minimum: SIMD2<Float>
    /// The upper corner of the bounding rectangle.
    @usableFromInline var maximum: SIMD2<Float>
    /// Cells per unit length.
    @usableFromInline var inverseCell: Float
    /// Grid columns (along x) and rows (along z); 0 columns for a polygon without area.
    @usableFromInline var columns: Int32
    @usableFromInline var rows: Int32
    /// Where this grid's cells start in ``PolygonGridStorage/cells``.
    @usableFromInline var cellOffset: Int32
    /// Where this grid's row slabs start in ``PolygonGridStorage/slabs``.
    @usableFromInline var slabOffset: Int32
    /// Where this grid's summed cell counts start in ``PolygonGridStorage/sums``.
    @usableFromInline var sumOffset: Int32

    /// Distance from an edge within which a point counts as on the edge (10 µm).
    @usableFromInline static let edgeTolerance: Float = 1e-5

    /// Cell states.
    @usableFromInline static let outside: UInt8 = 0
    @usableFromInline static let inside: UInt8 = 1
    @usableFromInline static let mixed: UInt8 = 2

    /// A grid that contains nothing (fewer than three usable vertices).
    static let empty = PolygonGrid(minimum: SIMD2(repeating: .infinity), maximum: SIMD2(repeating: -.infinity),
                                   inverseCell: 0, columns: 0, rows: 0, cellOffset: 0, slabOffset: 0, sumOffset: 0)

    /// `true` when `p` is inside the polygon or within ``edgeTolerance`` of its outline.
    @inlinable @inline(__always) func contains(_ p: SIMD2<Float>, cells: UnsafeBufferPointer<UInt8>,
                             slabs: UnsafeBufferPointer<SIMD2<Int32>>, edges: UnsafeBufferPointer<SIMD4<Float>>) -> Bool {
        let t = PolygonGrid.edgeTolerance
        // Written so that NaN fails: every comparison with NaN is false.
        guard columns > 0, p.x >= minimum.x - t, p.x <= maximum.x + t, p.y >= minimum.y - t, p.y <= maximum.y + t else {
            return false
        }
        // Clamped to the grid in floats, then truncated: the same cell as rounding down and
        // clamping (a point just below the minimum, within the tolerance, goes to cell 0), without
        // a floor call (SSE2 has no rounding instruction).
        let column = Int32(min(Float(columns &- 1), max(0, (p.x - minimum.x) * inverseCell)))
        let row = Int32(min(Float(rows &- 1), max(0, (p.y - minimum.y) * inverseCell)))
        let state = cells[Int(cellOffset &+ row &* columns &+ column)]
        if state != PolygonGrid.mixed { return state == PolygonGrid.inside }
        let slab = slabs[Int(slabOffset &+ row)]
        var inside = false
        for k in Int(slab.x)..<Int(slab.x + slab.y) {
            let e = edges[k]
            let a = SIMD2(e.x, e.y), b = SIMD2(e.z, e.w)
            if PolygonGrid.segment(a, b, isNear: p) { return true }
            if (a.y > p.y) != (b.y > p.y) {
                let xCross = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < xCross { inside.toggle() }
            }
        }
        return inside
    }

    /// What ``contains`` answers for every point of a region of the plane.
    enum Footprint {
        /// `true` for every point.
        case inside
        /// `false` for every point.
        case outside
        /// Either, or not provably one of them.
        case mixed
    }

    /// What ``contains`` answers over the local rectangle `lo`…`hi` (exact numbers; the caller
    /// widens it by the rounding of the points it stands for): `.inside` only when the rectangle
    /// lies in the polygon's bounding rectangle and every grid cell a point of it can be given
    /// is an inside cell, `.outside` when every such cell is an outside one (points beyond the
    /// bounding rectangle and its tolerance fail before the cell is looked at, the others are
    /// clamped into the grid's border cells as ``contains`` does).
    func footprint(_ lo: SIMD2<Double>, _ hi: SIMD2<Double>, sums: UnsafeBufferPointer<SIMD2<Int32>>) -> Footprint {
        // Written so that NaN gives .mixed.
        guard columns > 0, lo.x <= hi.x, lo.y <= hi.y else { return .mixed }
        let minimum = SIMD2<Double>(Double(self.minimum.x), Double(self.minimum.y))
        let maximum = SIMD2<Double>(Double(self.maximum.x), Double(self.maximum.y))
        let inverse = Double(inverseCell)
        // ``contains`` finds the cell in floats; a hundredth of a cell more each way covers its
        // rounding (a few float units of numbers up to 64).
        func range(_ l: Double, _ h: Double, _ origin: Double, _ count: Int32) -> (Int, Int) {
            let last = Double(count - 1)
            let first = min(last, max(0, ((l - origin) * inverse - 0.01).rounded(.down)))
            return (Int(first), Int(min(last, max(0, ((h - origin) * inverse + 0.01).rounded(.down)))))
        }
        let (c0, c1) = range(lo.x, hi.x, minimum.x, columns), (r0, r1) = range(lo.y, hi.y, minimum.y, rows)
        // Inclusive prefix sums: corner (r, c) holds the counts of cells above and left of it.
        let stride = Int(columns) + 1, base = Int(sumOffset)
        let counts = sums[base + (r1 + 1) * stride + c1 + 1] &- sums[base + r0 * stride + c1 + 1]
            &- sums[base + (r1 + 1) * stride + c0] &+ sums[base + r0 * stride + c0]
        let within = lo.x >= minimum.x && hi.x <= maximum.x && lo.y >= minimum.y && hi.y <= maximum.y
        if within && counts.x == 0 { return .inside }
        if counts.y == 0 { return .outside }
        return .mixed
    }

    /// `true` when `p` lies within ``edgeTolerance`` of the segment `a`–`b`.
    @inlinable static func segment(_ a: SIMD2<Float>, _ b: SIMD2<Float>, isNear p: SIMD2<Float>) -> Bool {
        let ab = b - a, ap = p - a
        let lengthSquared = dot(ab, ab)
        let along = dot(ap, ab)
        if along <= 0 { return dot(ap, ap) <= edgeTolerance * edgeTolerance }
        if along >= lengthSquared {
            let bp = p - b
            return dot(bp, bp) <= edgeTolerance * edgeTolerance
        }
        let across = cross(ab, ap)
        return across * across <= edgeTolerance * edgeTolerance * lengthSquared
    }
}

/// The flat arrays behind every ``PolygonGrid`` of a set of planes.
@usableFromInline struct PolygonGridStorage: Sendable {
    /// One state per cell (outside, inside, mixed), grid after grid, row-major.
    @usableFromInline var cells = ContiguousArray<UInt8>()
    /// Per grid row: (first edge, edge count) in ``edges``.
    @usableFromInline var slabs = ContiguousArray<SIMD2<Int32>>()
    /// Edges as `(a.x, a.y, b.x, b.y)`, slab after slab (an edge spanning several rows is repeated).
    @usableFromInline var edges = ContiguousArray<SIMD4<Float>>()
    /// Per grid, `(rows + 1) × (columns + 1)` summed counts: entry `(r, c)` holds how many cells
    /// of rows `0 ..< r` and columns `0 ..< c` are not inside (x) and not outside (y), so that
    /// ``PolygonGrid/footprint`` counts any block of cells with four reads.
    var sums = ContiguousArray<SIMD2<Int32>>()

    /// The most cells along a grid's longer side: 128 × 128 bytes keeps 20 planes' grids in L2, and the
    /// cells an outline crosses (which cost a slab scan) a thin band along it.
    static let maximumSide = 128

    /// Prepares `polygon` and appends its grid data; returns the grid.
    mutating func add(_ polygon: Polygon2D) -> PolygonGrid {
        // Drop repeated vertices; a non-finite vertex makes the outline meaningless.
        var vertices: [SIMD2<Float>] = []
        vertices.reserveCapacity(polygon.vertices.count)
        for v in polygon.vertices {
            guard v.isFinite else { return .empty }
            if vertices.last != v { vertices.append(v) }
        }
        while vertices.count > 1, vertices.first == vertices.last { vertices.removeLast() }
        guard vertices.count >= 3, let bounds = PlaneExtent(enclosing: vertices) else { return .empty }
        let minimum = bounds.minimum, maximum = bounds.maximum
        let size = pointwiseMax(maximum - minimum, SIMD2(repeating: 1e-6))
        // About 8·√n cells along the longer side: the mixed cells, which cost a slab scan, shrink
        // to a small share of the area while the grid stays small.
        let side = min(PolygonGridStorage.maximumSide, max(16, Int((8 * Float(vertices.count).squareRoot()).rounded())))
        let cell = max(size.x, size.y) / Float(side)
        let columns = min(PolygonGridStorage.maximumSide, max(1, Int((size.x / cell).rounded(.up))))
        let rows = min(PolygonGridStorage.maximumSide, max(1, Int((size.y / cell).rounded(.up))))
        let inverseCell = 1 / cell
        let tolerance = PolygonGrid.edgeTolerance

        var states = [UInt8](repeating: PolygonGrid.outside, count: columns * rows)
        let n = vertices.count
        func cellRange(_ lo: Float, _ hi: Float, _ origin: Float, _ count: Int) -> ClosedRange<Int> {
            let first = max(0, min(count - 1, Int(((lo - tolerance - origin) * inverseCell).rounded(.down))))
            let last = max(0, min(count - 1, Int(((hi + tolerance - origin) * inverseCell).rounded(.down))))
            return first...last
        }
        // Mark every cell an edge passes through (or comes within the tolerance of) as mixed.
        for i in 0..<n {
            let a = vertices[i], b = vertices[(i + 1) % n]
            let lo = pointwiseMin(a, b), hi = pointwiseMax(a, b)
            for r in cellRange(lo.y, hi.y, minimum.y, rows) {
                for c in cellRange(lo.x, hi.x, minimum.x, columns) {
                    let c0 = minimum + SIMD2(Float(c), Float(r)) * cell - tolerance
                    let c1 = minimum + SIMD2(Float(c + 1), Float(r + 1)) * cell + tolerance
                    if PolygonGridStorage.segment(a, b, touches: c0, c1) { states[r * columns + c] = PolygonGrid.mixed }
                }
            }
        }
        // The other cells are wholly on one side: their centre decides.
        let outline = Polygon2D(vertices)
        for r in 0..<rows {
            for c in 0..<columns where states[r * columns + c] != PolygonGrid.mixed {
                let centre = minimum + (SIMD2(Float(c), Float(r)) + 0.5) * cell
                states[r * columns + c] = outline.contains(centre) ? PolygonGrid.inside : PolygonGrid.outside
            }
        }
        // One slab per row: the edges whose z-range overlaps the row (widened by the tolerance).
        let slabOffset = slabs.count
        for r in 0..<rows {
            let lo = minimum.y + Float(r) * cell - tolerance, hi = minimum.y + Float(r + 1) * cell + tolerance
            let first = edges.count
            for i in 0..<n {
                let a = vertices[i], b = vertices[(i + 1) % n]
                if min(a.y, b.y) <= hi && max(a.y, b.y) >= lo { edges.append(SIMD4(a.x, a.y, b.x, b.y)) }
            }
            slabs.append(SIMD2(Int32(first), Int32(edges.count - first)))
        }
        let cellOffset = cells.count
        cells.append(contentsOf: states)
        let sumOffset = sums.count
        sums.append(contentsOf: repeatElement(.zero, count: columns + 1))
        for r in 0..<rows {
            var row = SIMD2<Int32>.zero
            sums.append(.zero)
            for c in 0..<columns {
                let state = states[r * columns + c]
                row &+= SIMD2(state == PolygonGrid.inside ? 0 : 1, state == PolygonGrid.outside ? 0 : 1)
                sums.append(sums[sums.count - columns - 1] &+ row)
            }
        }
        return PolygonGrid(minimum: minimum, maximum: maximum, inverseCell: inverseCell, columns: Int32(columns),
                           rows: Int32(rows), cellOffset: Int32(cellOffset), slabOffset: Int32(slabOffset),
                           sumOffset: Int32(sumOffset))
    }

    /// `true` when the segment `a`–`b` meets the closed rectangle `lo`…`hi`: their bounding
    /// boxes overlap and the segment's line does not leave all four corners on one side.
    static func segment(_ a: SIMD2<Float>, _ b: SIMD2<Float>, touches lo: SIMD2<Float>, _ hi: SIMD2<Float>) -> Bool {
        guard max(a.x, b.x) >= lo.x, min(a.x, b.x) <= hi.x, max(a.y, b.y) >= lo.y, min(a.y, b.y) <= hi.y else { return false }
        let ab = b - a
        let sides = [SIMD2(lo.x, lo.y), SIMD2(hi.x, lo.y), SIMD2(hi.x, hi.y), SIMD2(lo.x, hi.y)].map { cross(ab, $0 - a) }
        return !(sides.allSatisfy { $0 > 0 } || sides.allSatisfy { $0 < 0 })
    }
}
