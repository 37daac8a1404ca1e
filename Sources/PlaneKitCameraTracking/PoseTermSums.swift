import PlaneKitGeometry

/// A block of point-to-plane terms summed in single precision, eight lanes at a time, before
/// ``PoseNormalEquations`` takes them in double precision.
///
/// Each term's Jacobian row `J = (q × n, n)` and residual `r` go into one eight-lane vector
/// `v = (J, r, 0)`; row `k` of the sums gains `w·J[k]·v`. So one term costs six vector
/// multiply-adds instead of 28 scalar double ones, and columns 0–5 of the rows hold `H`,
/// column 6 holds `g`. A block stays short (``capacity`` terms) so that single precision loses
/// nothing that matters; the caller flushes it into the double-precision equations when full.
struct PoseTermSums {
    /// Terms a block holds before it must be flushed.
    static let capacity = 256

    private var row0 = SIMD8<Float>.zero, row1 = SIMD8<Float>.zero, row2 = SIMD8<Float>.zero
    private var row3 = SIMD8<Float>.zero, row4 = SIMD8<Float>.zero, row5 = SIMD8<Float>.zero
    private var cost: Float = 0
    /// Terms in the block.
    private(set) var count = 0

    /// An empty block.
    init() {}

    /// `true` when the block must be flushed before the next term.
    var isFull: Bool { count == PoseTermSums.capacity }

    /// Adds the term of a point `q` (in the keyframe's camera) paired with normal `n`, residual
    /// `r` and weight `w`.
    @inline(__always)
    mutating func add(point q: SIMD3<Float>, normal n: SIMD3<Float>, residual r: Float, weight w: Float) {
        let j = cross(q, n)
        let v = SIMD8<Float>(j.x, j.y, j.z, n.x, n.y, n.z, r, 0)
        let wv = w * v
        row0 += wv[0] * v
        row1 += wv[1] * v
        row2 += wv[2] * v
        row3 += wv[3] * v
        row4 += wv[4] * v
        row5 += wv[5] * v
        cost += wv[6] * r
        count += 1
    }

    /// Row `k` (0 to 5) of the sums: `H`'s row in lanes 0–5, `g[k]` in lane 6.
    func row(_ k: Int) -> SIMD8<Float> {
        switch k {
        case 0: row0
        case 1: row1
        case 2: row2
        case 3: row3
        case 4: row4
        default: row5
        }
    }

    /// The weighted sum of squared residuals of the block.
    var weightedSquares: Float { cost }

    /// Moves the block's sums into `equations` and empties the block.
    mutating func flush(into equations: inout PoseNormalEquations) {
        guard count > 0 else { return }
        equations.add(self)
        self = PoseTermSums()
    }
}
