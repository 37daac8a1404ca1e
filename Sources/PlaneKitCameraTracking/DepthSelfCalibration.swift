import PlaneKitGeometry

/// Learns a depth camera's fixed-pattern depth error (``DepthCorrection``) from its own tracked
/// frames, with no target and no reference: the same surface seen from two poses, in different
/// parts of the image, must lie in the same place.
///
/// Every ``Configuration/viewInterval`` well-tracked frames, the frame's raw depth is kept as a
/// view (every second pixel). Each new view is paired with the views taken
/// ``Configuration/pairedIntervals`` views before it. For each of its points that lands on the
/// older view's surface (normals within 25°, within 3 cm), the point-to-plane residual is a
/// linear function of the two pixels' depth multipliers and of a small rigid correction of the
/// pair's relative pose (the tracked poses are not exact either). The pair's rigid correction
/// is eliminated (a Schur complement of its six unknowns), so only the depth pattern — the part
/// of the disagreement that no rigid motion explains — is learned, summed over all pairs into
/// normal equations over the grid's cells. A smoothness term between neighbouring cells and a
/// small pull towards zero keep cells that few points reach near their neighbours.
///
/// The correction is offered (``correction``) only when it is worth having: at least
/// ``Configuration/minimumPairs`` pairs, and it removes at least
/// ``Configuration/minimumExplainedShare`` of the squared residual the rigid corrections leave.
/// A camera without a fixed pattern (the generated walks' simulated Kinect) explains almost
/// nothing this way and is left uncorrected.
///
/// After CLAMS (Teichman, Miller and Thrun, 2013), which learns such a map from SLAM offline;
/// here it is learned while tracking, on a coarse grid, as the tracked frames come.
struct DepthSelfCalibration: Sendable {
    /// Settings.
    struct Configuration: Sendable {
        /// Grid columns over the image (32-pixel cells across a VGA frame); rows keep the cells square.
        var columns = 20
        /// A view is kept every this many well-tracked frames.
        var viewInterval = 10
        /// A new view is paired with the views this many views older (at 30 Hz, 1.3 and 2 s: the
        /// camera has usually turned enough to see a surface in another part of the image).
        var pairedIntervals = [4, 6]
        /// Fewest pairs before a correction is offered: about six seconds of a moving camera
        /// at 30 Hz. A correction learned from fewer moves from one solution to the next by a
        /// fifth of its size, and each move shifts what was mapped.
        var minimumPairs = 24
        /// A new solution once this many pairs were added since the last.
        var solveInterval = 4
        /// The share of the squared residual, after each pair's rigid correction, that the
        /// depth pattern must explain to be used.
        var minimumExplainedShare = 0.05
        /// Fewest residuals for a pair to count.
        var minimumPairResiduals = 500
        /// Pull of each cell towards zero, and of neighbouring cells towards each other, as
        /// shares of the mean diagonal of the normal equations.
        var damping = 0.01, smoothness = 0.05
    }

    /// One kept frame: raw depth on a reduced grid (0 where there is none) and its pose.
    struct View: Sendable {
        var pose: Transform
        var depth: ContiguousArray<Float>
    }

    let configuration: Configuration
    /// The full image's size and intrinsics.
    let imageWidth: Int, imageHeight: Int
    /// The reduced grid's size and intrinsics (every `reduction`-th pixel).
    let width: Int, height: Int, reduction: Int
    let fx: Float, fy: Float, cx: Float, cy: Float
    /// The reduced grid's rays, for its points and normals.
    private let rays: RayGrid
    /// Grid rows and columns of the correction.
    let rows: Int, columns: Int
    /// The normal equations over the cells, after each pair's rigid correction was eliminated:
    /// `matrix · m = vector`.
    private var matrix: [Double]
    private var vector: [Double]
    /// Σ r² after each pair's best rigid correction alone.
    private var rigidResidual = 0.0
    /// Pairs summed, and how many had been when the latest solution was made.
    private(set) var pairCount = 0
    private var pairsSolved = 0
    /// Recent views, oldest first, and how many well-tracked frames have passed since the last.
    private var views: [View] = []
    private var framesSinceView = 0
    /// The latest solution, when it was worth having.
    private(set) var correction: DepthCorrection?
    /// The share of the squared residual the latest solution explained.
    private(set) var explainedShare = 0.0

    /// A calibration for frames of this size and camera.
    init(intrinsics k: PinholeIntrinsics, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        imageWidth = k.width
        imageHeight = k.height
        reduction = 2
        width = k.width / reduction
        height = k.height / reduction
        let reduced = k.reduced(by: reduction)
        (fx, fy, cx, cy) = (reduced.fx, reduced.fy, reduced.cx, reduced.cy)
        rays = RayGrid(intrinsics: reduced, width: width, height: height)
        columns = max(1, configuration.columns)
        rows = max(1, Int((Float(k.height) / Float(k.width) * Float(columns)).rounded()))
        matrix = [Double](repeating: 0, count: rows * columns * rows * columns)
        vector = [Double](repeating: 0, count: rows * columns)
    }

    /// Takes a well-tracked frame (`points`: its raw, uncorrected points, camera coordinates,
    /// `imageWidth × imageHeight`) at its world-from-camera `pose`.
    mutating func observe(points: UnsafeBufferPointer<SIMD3<Float>>, pose: Transform) {
        framesSinceView += 1
        guard framesSinceView >= configuration.viewInterval else { return }
        framesSinceView = 0
        var depth = ContiguousArray<Float>(repeating: 0, count: width * height)
        for v in 0..<height {
            let row = v * reduction * imageWidth
            for u in 0..<width {
                let p = points[row + u * reduction]
                if p.z > 0, p.z.isFinite, p.x.isFinite, p.y.isFinite { depth[v * width + u] = p.z }
            }
        }
        let view = View(pose: pose, depth: depth)
        var paired = false
        for back in configuration.pairedIntervals where back <= views.count {
            paired = add(pairOf: view, with: views[views.count - back]) || paired
        }
        views.append(view)
        let kept = (configuration.pairedIntervals.max() ?? 0)
        if views.count > kept { views.removeFirst(views.count - kept) }
        if paired, pairCount >= configuration.minimumPairs, pairCount - pairsSolved >= configuration.solveInterval {
            pairsSolved = pairCount
            solve()
        }
    }

    /// The cell of full-image pixel (`x`, `y`).
    @inline(__always) private func cell(_ x: Float, _ y: Float) -> Int {
        let c = min(max(Int(x * Float(columns) / Float(imageWidth)), 0), columns - 1)
        let r = min(max(Int(y * Float(rows) / Float(imageHeight)), 0), rows - 1)
        return r * columns + c
    }

    /// Sums the pair (`new`, `old`) into the normal equations; `false` when too few of its
    /// points met the older view's surface.
    private mutating func add(pairOf new: View, with old: View) -> Bool {
        let toOld = old.pose.inverse * new.pose
        let (r0, r1, r2) = toOld.rotation.columns
        var sums = PairSums(cells: rows * columns)
        let agreement: Float = 0.906   // cos 25°
        // Taken out of `self` once: a method of `self` called from this mutating one copied all
        // of `self` (264 bytes) for each of the 2 million normals of a walk.
        let rays = self.rays
        let (fx, fy, cx, cy) = (self.fx, self.fy, self.cx, self.cy)
        for v in stride(from: 1, to: height - 1, by: 2) {
            for u in stride(from: 1, to: width - 1, by: 2) {
                let z = new.depth[v * width + u]
                guard z > 0, let nNew = rays.normal(new.depth, u, v) else { continue }
                let p = rays.point(u, v, z)
                let turned = r0 * p.x + r1 * p.y + r2 * p.z
                let q = turned + toOld.translation
                guard q.z > 0.3 else { continue }
                let uo = Self.nearest(q.x / q.z * fx + cx), vo = Self.nearest(q.y / q.z * fy + cy)
                guard uo >= 0, vo >= 0, uo < width, vo < height else { continue }
                let zo = old.depth[vo * width + uo]
                guard zo > 0, let n = rays.normal(old.depth, uo, vo),
                      dot(n, r0 * nNew.x + r1 * nNew.y + r2 * nNew.z) > agreement else { continue }
                let s = rays.point(uo, vo, zo)
                let r = Double(dot(n, s - q))
                guard abs(r) < 0.03 else { continue }
                // The older point moves by m·s and the newer by m·(R p) along their rays.
                sums.add(residual: r, old: (cell(Float(uo * reduction), Float(vo * reduction)), Double(dot(n, s))),
                         new: (cell(Float(u * reduction), Float(v * reduction)), -Double(dot(n, turned))),
                         turn: SIMD3<Double>(cross(q, n)), shift: SIMD3<Double>(n))
            }
        }
        guard sums.count >= configuration.minimumPairResiduals else { return false }
        // Eliminate the pair's rigid correction: with H the rigid block, B the cell–rigid block,
        // the cells' equations become (A − B H⁻¹ Bᵀ)·m = a − B H⁻¹ b.
        let cells = rows * columns
        let rightSides = sums.rigidRightSides
        guard let solved = Cholesky.solve(sums.rigidMatrix, size: 6, rightSides: rightSides, count: cells + 1)
        else { return false }
        // `solved` holds H⁻¹Bᵀ (six numbers per cell) and then H⁻¹b; as vectors like the
        // cell–rigid block's, each product of six terms is one vector product.
        let solvedRows = (0...cells).map { c in
            SIMD8<Double>(solved[c * 6], solved[c * 6 + 1], solved[c * 6 + 2], solved[c * 6 + 3], solved[c * 6 + 4], solved[c * 6 + 5], 0, 0)
        }
        let indices = (0..<cells).filter { sums.touched[$0] }
        // Through pointers: hundreds of cells squared for every pair.
        sums.cellRigid.withUnsafeBufferPointer { cellRigid in
            solvedRows.withUnsafeBufferPointer { solved in
                sums.cellCells.withUnsafeBufferPointer { cellCells in
                    matrix.withUnsafeMutableBufferPointer { matrix in
                        for c in indices {
                            let row = cellRigid[c]
                            for d in indices {
                                matrix[c * cells + d] += cellCells[c * cells + d] - Self.sumOfSix(row * solved[d])
                            }
                        }
                    }
                }
                for c in indices {
                    vector[c] += sums.cellVector[c] - Self.sumOfSix(cellRigid[c] * solved[cells])
                }
            }
        }
        let explainedByRigid = Self.sumOfSix(sums.rigidVector * solvedRows[cells])
        rigidResidual += sums.squares - explainedByRigid
        pairCount += 1
        return true
    }

    /// The sum of a vector's first six lanes, added one after another from zero, as a loop
    /// over them would add them (so to the same bits).
    @inline(__always) private static func sumOfSix(_ p: SIMD8<Double>) -> Double {
        0.0 + p[0] + p[1] + p[2] + p[3] + p[4] + p[5]
    }

    /// `x` rounded to the nearest integer, halves away from zero: `Int(x.rounded())` without
    /// the library call `rounded()` makes (this toolchain's baseline x86-64 has no instruction
    /// for it). `x − Int(x)` is exact for any `x` an `Int` holds to the unit, so the result is too.
    @inline(__always) private static func nearest(_ x: Float) -> Int {
        let whole = Int(x)
        let fraction = x - Float(whole)
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }

    /// The normal equations of one pair, over the cells' multipliers `m` and the pair's rigid
    /// correction ξ, for residuals r + a_old·m[old] + a_new·m[new] + J·ξ = 0. The rigid parts
    /// are kept as vectors (J and its rows in six lanes of eight): each residual's 36 + 12 terms
    /// are a few vector operations instead of as many scalar ones, each lane summed as a scalar
    /// would be.
    private struct PairSums {
        let cells: Int
        var cellCells: [Double], cellVector: [Double]
        /// The cell–rigid block, one vector per cell.
        var cellRigid: [SIMD8<Double>]
        /// The rigid block, row after row, and its right side.
        var rigid = [SIMD8<Double>](repeating: .zero, count: 6), rigidVector = SIMD8<Double>.zero
        var squares = 0.0, count = 0
        var touched: [Bool]

        init(cells: Int) {
            self.cells = cells
            cellCells = [Double](repeating: 0, count: cells * cells)
            cellRigid = [SIMD8<Double>](repeating: .zero, count: cells)
            cellVector = [Double](repeating: 0, count: cells)
            touched = [Bool](repeating: false, count: cells)
        }

        /// Adds one residual `r`, its two cells with their coefficients, and J = (`turn`, `shift`).
        mutating func add(residual r: Double, old: (cell: Int, a: Double), new: (cell: Int, a: Double),
                          turn: SIMD3<Double>, shift: SIMD3<Double>) {
            let j = SIMD8<Double>(turn.x, turn.y, turn.z, shift.x, shift.y, shift.z, 0, 0)
            addRow(cell: old.cell, a: old.a, residual: r, old: old, new: new, j: j)
            addRow(cell: new.cell, a: new.a, residual: r, old: old, new: new, j: j)
            rigidVector -= j * r
            rigid.withUnsafeMutableBufferPointer { rows in
                for k in 0..<6 { rows[k] += j[k] * j }
            }
            squares += r * r
            count += 1
        }

        /// The rows of the equations that belong to `cell`, whose coefficient is `a` (a cell
        /// that is both the old and the new one gets both rows, which sum to (a_old + a_new)²).
        private mutating func addRow(cell c: Int, a: Double, residual r: Double, old: (cell: Int, a: Double),
                                     new: (cell: Int, a: Double), j: SIMD8<Double>) {
            touched[c] = true
            cellCells[c * cells + old.cell] += a * old.a
            cellCells[c * cells + new.cell] += a * new.a
            cellVector[c] -= a * r
            cellRigid[c] += a * j
        }

        /// The rigid block as a 6 × 6 matrix, row after row.
        var rigidMatrix: [Double] { rigid.flatMap { row in (0..<6).map { row[$0] } } }

        /// The cell–rigid block's transpose and then the rigid right side, six values each: the
        /// right sides the rigid block is solved for.
        var rigidRightSides: [Double] {
            (cellRigid + [rigidVector]).flatMap { row in (0..<6).map { row[$0] } }
        }
    }

    /// Solves for the cells' multipliers and keeps the correction when it explains enough.
    private mutating func solve() {
        let cells = rows * columns
        let mean = (0..<cells).reduce(0.0) { $0 + matrix[$1 * cells + $1] } / Double(cells)
        guard mean > 0, rigidResidual > 0 else { return }
        var a = matrix
        for c in 0..<cells { a[c * cells + c] += configuration.damping * mean }
        let w = configuration.smoothness * mean
        for r in 0..<rows {
            for c in 0..<columns {
                let i = r * columns + c
                for j in [c + 1 < columns ? i + 1 : -1, r + 1 < rows ? i + columns : -1] where j >= 0 {
                    a[i * cells + i] += w
                    a[j * cells + j] += w
                    a[i * cells + j] -= w
                    a[j * cells + i] -= w
                }
            }
        }
        guard let m = Cholesky.solve(a, size: cells, rightSides: vector, count: 1) else { return }
        // What the pattern removes from the squared residual: 2·mᵀv − mᵀAm, A without the damping.
        var quadratic = 0.0, linear = 0.0
        for c in 0..<cells {
            linear += m[c] * vector[c]
            var s = 0.0
            for d in 0..<cells { s += matrix[c * cells + d] * m[d] }
            quadratic += m[c] * s
        }
        explainedShare = (2 * linear - quadratic) / rigidResidual
        // `nil` too when the solution is not finite.
        correction = explainedShare >= configuration.minimumExplainedShare
            ? DepthCorrection(imageWidth: imageWidth, imageHeight: imageHeight, columns: columns, rows: rows, multipliers: m.map { Float($0) })
            : nil
    }

    /// The reduced grid's rays at unit depth (column `u`'s x and row `v`'s y, worked out once
    /// rather than with two divisions for each of the six points a normal takes), and the
    /// points and normals of a view's depth on it.
    private struct RayGrid: Sendable {
        let width: Int, height: Int
        let x: [Float], y: [Float]

        init(intrinsics k: PinholeIntrinsics, width: Int, height: Int) {
            self.width = width
            self.height = height
            x = (0..<width).map { (Float($0) - k.cx) / k.fx }
            y = (0..<height).map { (Float($0) - k.cy) / k.fy }
        }

        /// The point at (`u`, `v`) with depth `z`, camera coordinates.
        @inline(__always) func point(_ u: Int, _ v: Int, _ z: Float) -> SIMD3<Float> {
            SIMD3(x[u] * z, y[v] * z, z)
        }

        /// The unit normal of `depth`'s surface at (`u`, `v`), facing the camera, from its
        /// neighbours one grid step away on each side (two pixels), or `nil` at an edge or a hole.
        @inline(__always) func normal(_ depth: ContiguousArray<Float>, _ u: Int, _ v: Int) -> SIMD3<Float>? {
            guard u >= 1, v >= 1, u < width - 1, v < height - 1 else { return nil }
            let i = v * width + u
            let z = depth[i], l = depth[i - 1], r = depth[i + 1], t = depth[i - width], b = depth[i + width]
            guard z > 0, l > 0, r > 0, t > 0, b > 0 else { return nil }
            // A jump of 3 % of the depth between neighbours is an edge, not a surface.
            let limit = 0.03 * z
            guard abs(l - z) < limit, abs(r - z) < limit, abs(t - z) < limit, abs(b - z) < limit else { return nil }
            var n = cross(point(u + 1, v, r) - point(u - 1, v, l), point(u, v + 1, b) - point(u, v - 1, t))
            let length = (n * n).sum().squareRoot()
            guard length > 0 else { return nil }
            n /= length
            return dot(n, point(u, v, z)) > 0 ? -n : n
        }
    }

}

