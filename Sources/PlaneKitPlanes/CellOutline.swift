import PlaneKitGeometry

/// Outlines of occupied cells on a 2D grid: the largest connected patch, its outer boundary
/// traced along cell edges, and Douglas–Peucker simplification. Plane descriptions (from one
/// frame's points) and tracked anchors (from their support over many frames) draw their outlines
/// with it.
///
/// Grids are row-major, `columns × rows`; cell `(c, r)` spans grid corners `(c, r)` to
/// `(c + 1, r + 1)`.
public enum CellOutline {
    /// The largest 4-connected patch of occupied cells as a mask, and its size in cells.
    public static func largestPatch(_ grid: [Bool], columns: Int, rows: Int) -> (mask: [Bool], cells: Int) {
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
                let c = i % columns, r = i / columns
                if c > 0, grid[i - 1], component[i - 1] == 0 { component[i - 1] = next; stack.append(i - 1) }
                if c + 1 < columns, grid[i + 1], component[i + 1] == 0 { component[i + 1] = next; stack.append(i + 1) }
                if r > 0, grid[i - columns], component[i - columns] == 0 { component[i - columns] = next; stack.append(i - columns) }
                if r + 1 < rows, grid[i + columns], component[i + columns] == 0 {
                    component[i + columns] = next
                    stack.append(i + columns)
                }
            }
            if size > bestSize { (best, bestSize) = (next, size) }
        }
        return (component.map { $0 == best && best != 0 }, bestSize)
    }

    /// The outer boundary of a 4-connected patch as the grid corners where it turns,
    /// counter-clockwise, following cell edges with the patch on the left. Empty for an empty patch.
    public static func outerBoundary(of patch: [Bool], columns: Int, rows: Int) -> [SIMD2<Int>] {
        guard let first = patch.firstIndex(of: true) else { return [] }
        func occupied(_ c: Int, _ r: Int) -> Bool {
            c >= 0 && r >= 0 && c < columns && r < rows && patch[r * columns + c]
        }
        // The first patch cell in row-major order has no patch cell below it, so its bottom edge
        // is on the outer boundary: start at its lower-left corner going +x.
        // Directions: 0 = +x, 1 = +y, 2 = −x, 3 = −y.
        let start = SIMD2(first % columns, first / columns)
        var position = start, direction = 0
        var corners: [SIMD2<Int>] = []
        let steps: InlineArray<4, SIMD2<Int>> = [SIMD2(1, 0), SIMD2(0, 1), SIMD2(-1, 0), SIMD2(0, -1)]
        let turns: InlineArray<3, Int> = [1, 0, 3]   // left, straight, right: keep the patch on the left
        repeat {
            corners.append(position)
            var turned = false
            for k in 0..<3 {
                let d = (direction + turns[k]) % 4
                let (left, right) = cellsBeside(corner: position, direction: d)
                if occupied(left.x, left.y) && !occupied(right.x, right.y) {
                    direction = d
                    turned = true
                    break
                }
            }
            if !turned { direction = (direction + 2) % 4 }
            position &+= steps[direction]
        } while position != start && corners.count <= 4 * patch.count + 4
        // Keep only the corners where the walk turns.
        var result: [SIMD2<Int>] = []
        for (k, corner) in corners.enumerated() {
            let before = corners[(k + corners.count - 1) % corners.count], after = corners[(k + 1) % corners.count]
            if (corner &- before) != (after &- corner) { result.append(corner) }
        }
        return result
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

    /// Douglas–Peucker simplification of a closed ring, keeping vertices that stray more than
    /// `tolerance` from the simplified outline.
    public static func simplified(_ ring: [SIMD2<Float>], tolerance: Float) -> [SIMD2<Float>] {
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
