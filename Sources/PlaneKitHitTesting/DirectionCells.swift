/// The planes a ray from one origin can reach, by the ray's direction: the culling step of the
/// batch cast for runs of rays that share an origin (a camera's pixels).
///
/// Directions are cut into cells on the six faces of a cube around the origin (the face of the
/// direction's largest coordinate, then the other two coordinates divided by it). Each plane's
/// bounds rectangle, seen from the origin, covers a convex patch of each face; every cell under
/// that patch's bounding box, widened by ``pad``, gets the plane's bit. A ray then tests only
/// the planes of its cell instead of all of them. The marking is conservative: a cell may list
/// a plane its rays all miss (the exact test still runs), never leave out one they can hit.
///
/// The planes are numbered by their nearest distance from the origin, so a cell's bits, taken
/// lowest first, run front to back: the first hit usually comes first and puts the later planes
/// behind it, out of reach of their costlier bounds tests.
///
/// Each listed plane is then classified per cell by its footprint: where the rays of the cell
/// (widened by ``footprintPad``) meet the plane, widened by the rounding of the kernel's local
/// coordinates. A footprint the bounds test accepts everywhere marks the plane "inside" for the
/// cell (its rays skip the local coordinates and the polygon test); one it rejects everywhere
/// takes the plane out of the cell. Everything else, and every doubtful case, stays listed
/// with the exact test. A cell is classified when its first ray comes (``classify``): a
/// camera's rays fill a small share of the cells, and the others cost nothing.
struct DirectionCells {
    /// One cell's planes: bit `k` is ``order``[k].
    struct Cell {
        /// The planes a ray of the cell may hit.
        var listed: UInt64
        /// The listed planes whose bounds test passes for every ray of the cell that reaches
        /// them (in front, not parallel): only their distance is needed.
        var inside: UInt64
    }

    /// Face coordinates run from −1 to 1 over ``side`` units; a direction's cell is its face
    /// coordinates rounded to the nearest unit, so there are `side + 1` cells along each side.
    static let side = 32
    /// Cells along each side of a face.
    static let perSide = side + 1
    /// The cell of every direction that has none (zero, NaN or infinite): always empty.
    static let noCell = 6 * perSide * perSide
    /// How far each plane's patch is widened, in face coordinates (about 1°): covers the rounding
    /// of the ray's face coordinates and of the kernel's hit point (see ``build``).
    static let pad = 0.02
    /// How far a cell is widened, in face coordinates, for its footprints: covers the rounding
    /// of a ray's face coordinates in ``cells(_:_:_:)`` (a few float units of numbers up to
    /// ``side``, some 10⁻⁶ here); the rounding of the hit point is covered in local coordinates.
    static let footprintPad = 1e-3
    /// The most planes a table can hold (one bit each in a `UInt64` per cell).
    static let maximumPlanes = 64

    /// One entry per cell, face after face, row-major, and an empty one for ``noCell``.
    var masks: ContiguousArray<Cell>
    /// Per cell (and ``noCell``), whether its planes have been classified (see ``classify``).
    var classified: ContiguousArray<Bool>
    /// Per bit, the plane's footprint numbers.
    private(set) var footprints: ContiguousArray<Footprints>
    /// Plane indices (into the kernel's planes) from nearest to farthest from the origin.
    private(set) var order: ContiguousArray<Int32>

    /// An empty table, ready for ``build``.
    init() {
        masks = ContiguousArray(repeating: Cell(listed: 0, inside: 0), count: DirectionCells.noCell + 1)
        classified = ContiguousArray(repeating: true, count: DirectionCells.noCell + 1)
        footprints = []
        footprints.reserveCapacity(DirectionCells.maximumPlanes)
        order = []
        order.reserveCapacity(DirectionCells.maximumPlanes)
    }

    /// The cells of four directions (coordinates by lane), ``noCell`` for a zero, NaN or
    /// infinite one: the face of the largest coordinate (x before y before z on ties, + before
    /// −), and the other two coordinates over its size, rounded to cells. No branches, so random
    /// directions cost no mispredictions.
    @inline(__always)
    static func cells(_ dx: SIMD4<Float>, _ dy: SIMD4<Float>, _ dz: SIMD4<Float>) -> SIMD4<Int32> {
        let signs = SIMD4<UInt32>(repeating: 0x8000_0000)
        func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
            unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & ~signs, to: SIMD4<Float>.self)
        }
        let ax = magnitude(dx), ay = magnitude(dy), az = magnitude(dz)
        let xMajor = (ax .>= ay) .& (ax .>= az)
        let yMajor = .!xMajor .& (ay .>= az)
        let zMajor = .!xMajor .& .!yMajor
        // (a, b, major) per face: x → (y, z, x), y → (x, z, y), z → (x, y, z).
        let a = dy.replacing(with: dx, where: .!xMajor)
        let b = dz.replacing(with: dy, where: zMajor)
        var major = dx.replacing(with: dy, where: yMajor)
        major.replace(with: dz, where: zMajor)
        let size = magnitude(major)
        var face = SIMD4<Float>(repeating: 0).replacing(with: 2, where: yMajor)
        face.replace(with: 4, where: zMajor)
        face += SIMD4<Float>(repeating: 0).replacing(with: 1, where: major .< 0)
        let half = SIMD4<Float>(repeating: Float(side) / 2)
        let u = (a / size + 1) * half, v = (b / size + 1) * half
        // Rounded to the nearest integer by adding and taking away 2²³ (exact for 0 … 2²²); NaN
        // stays NaN and fails the test below.
        let magic = SIMD4<Float>(repeating: 8_388_608)
        let column = (u + magic) - magic, row = (v + magic) - magic
        let n = SIMD4<Float>(repeating: Float(perSide))
        var index = (face * n + row) * n + column
        let valid = (size .> 0) .& (size .< .infinity) .& (u .== u) .& (v .== v)
        index.replace(with: Float(noCell), where: .!valid)
        // A whole number below 2²³ plus 2²³ has the number in its low 23 bits.
        return unsafeBitCast(index + magic, to: SIMD4<Int32>.self) & SIMD4(repeating: 0x7F_FFFF)
    }

    /// Fills the table for rays from `origin` (finite) against the planes' `rectangles`; only
    /// planes for which `include` is true are listed. No cell is classified yet.
    ///
    /// Rounding: the kernel's hit point `o + t·d` carries the relative error of
    /// `t = −s / (n·d)`: a few float units of the sizes involved (|d|, |o|, the offset) over
    /// |n·d| and |s|, which for a rectangle at distance D from an origin |s| off its plane is
    /// about 5·10⁻⁷ · (D + |o| + constants) / |s| — and seen from the origin, the hit point's
    /// projection on the plane moves by that angle (the local coordinates' own rounding is
    /// smaller). A plane where that could exceed 10⁻³ rad (a twentieth of ``pad``), including an
    /// origin on the plane, is put in every cell.
    mutating func build(origin: SIMD3<Float>, rectangles: UnsafeBufferPointer<PlaneRectangle>, include: (Int) -> Bool) {
        let side = DirectionCells.side
        for k in masks.indices { masks[k] = Cell(listed: 0, inside: 0) }
        for k in 0..<DirectionCells.noCell { classified[k] = false }
        footprints.removeAll(keepingCapacity: true)
        let noCell = DirectionCells.noCell
        order.removeAll(keepingCapacity: true)
        let o = SIMD3<Double>(origin)

        // Planes that can be hit, nearest first (ties by index, so the order is deterministic).
        var nearest: [(distance: Double, index: Int)] = []
        for (index, r) in rectangles.enumerated() where include(index) {
            switch r.reach {
            case .nowhere: continue
            case .anywhere: nearest.append((0, index))
            case .corners(let corners): nearest.append((PlaneRectangle.distance(from: o, corners: corners), index))
            }
        }
        nearest.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }

        masks.withUnsafeMutableBufferPointer { masks in
            for (bitIndex, entry) in nearest.prefix(DirectionCells.maximumPlanes).enumerated() {
                order.append(Int32(entry.index))
                let bit = UInt64(1) << UInt64(bitIndex)
                let r = rectangles[entry.index]
                // Not classified unless its numbers are placed well (replaced below).
                footprints.append(Footprints(origin: o, rectangle: r, distance: .nan, index: entry.index))
                guard case .corners(let world) = r.reach else {
                    for k in 0..<noCell { masks[k].listed |= bit }
                    continue
                }
                let corners = world.map { $0 - o }
                let s = abs(dot(r.normal, o) + r.offset)
                let farthest = corners.map { dot($0, $0).squareRoot() }.max()!
                let scale = farthest + dot(o, o).squareRoot() + r.constants
                guard s > 0, 5e-7 * scale <= 1e-3 * s else {
                    for k in 0..<noCell { masks[k].listed |= bit }
                    continue
                }
                footprints[bitIndex] = Footprints(origin: o, rectangle: r, distance: s, index: entry.index)
                // Points of the rectangle inside a face's pyramid have their major coordinate
                // m ≥ |q| / √3 ≥ s / √3, so clipping at m ≥ s / 2 drops none of them.
                let clip = s / 2
                for face in 0..<6 {
                    // (a, b, m) of each corner in this face's frame.
                    let local = corners.map { q -> SIMD3<Double> in
                        switch face {
                        case 0: SIMD3(q.y, q.z, q.x)
                        case 1: SIMD3(q.y, q.z, -q.x)
                        case 2: SIMD3(q.x, q.z, q.y)
                        case 3: SIMD3(q.x, q.z, -q.y)
                        case 4: SIMD3(q.x, q.y, q.z)
                        default: SIMD3(q.x, q.y, -q.z)
                        }
                    }
                    var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
                    func add(_ p: SIMD3<Double>) {
                        let projected = SIMD2(p.x, p.y) / p.z
                        lo = pointwiseMin(lo, projected)
                        hi = pointwiseMax(hi, projected)
                    }
                    // The corners in front of the clip plane, and where the outline crosses it.
                    for i in 0..<4 {
                        let p = local[i], q = local[(i + 1) % 4]
                        if p.z >= clip { add(p) }
                        if (p.z >= clip) != (q.z >= clip) {
                            add(p + (q - p) * ((clip - p.z) / (q.z - p.z)))
                        }
                    }
                    guard lo.x <= hi.x else { continue }
                    lo -= DirectionCells.pad
                    hi += DirectionCells.pad
                    guard lo.x <= 1, lo.y <= 1, hi.x >= -1, hi.y >= -1 else { continue }
                    // The cells whose rounding takes in face coordinates lo…hi.
                    func range(_ l: Double, _ h: Double) -> ClosedRange<Int> {
                        let n = Double(side)
                        let first = Int(max(0, min(n, ((l + 1) * 0.5 * n + 0.5).rounded(.down))))
                        let last = Int(max(0, min(n, ((h + 1) * 0.5 * n + 0.5).rounded(.down))))
                        return first...last
                    }
                    let perSide = DirectionCells.perSide
                    let columns = range(lo.x, hi.x)
                    for row in range(lo.y, hi.y) {
                        let base = (face * perSide + row) * perSide
                        for column in columns { masks[base + column].listed |= bit }
                    }
                }
            }
        }
    }
}

extension DirectionCells {
    /// Classifies the listed planes of cell `index` (not ``noCell``) by their footprints:
    /// `footprint(plane, lo, hi)` tells what a plane's bounds test answers over the local
    /// rectangle `lo…hi`. Out of line: it runs once per cell a run's rays reach.
    @inline(never)
    static func classify(_ index: Int, masks: UnsafeMutableBufferPointer<Cell>, classified: UnsafeMutableBufferPointer<Bool>,
                         footprints: UnsafeBufferPointer<Footprints>,
                         footprint: (Int, SIMD2<Double>, SIMD2<Double>) -> PolygonGrid.Footprint) {
        classified[index] = true
        let face = index / (perSide * perSide), row = index / perSide % perSide, column = index % perSide
        var listed = masks[index].listed, inside: UInt64 = 0
        var pending = listed
        while pending != 0 {
            let k = pending.trailingZeroBitCount
            let bit = pending & (0 &- pending)
            pending &= pending &- 1
            let f = footprints[k]
            guard let (lo, hi) = f.bounds(face: face, row: row, column: column) else { continue }
            switch footprint(f.index, lo, hi) {
            case .inside: inside |= bit
            case .outside: listed &= ~bit
            case .mixed: break
            }
        }
        masks[index] = Cell(listed: listed, inside: inside)
    }
}

/// One plane's numbers for its footprints in the direction cells of one origin (plain values,
/// so that classifying a cell touches no reference counts).
struct Footprints {
    let o: SIMD3<Double>
    let normal: SIMD3<Double>
    let xRow: SIMD3<Double>, zRow: SIMD3<Double>
    let xConstant: Double, zConstant: Double, constants: Double
    /// `n·o + offset`.
    let signed: Double
    /// `|n·o + offset|`, the origin's distance from the plane, placed well enough for the
    /// rounding bounds of ``DirectionCells/build``; NaN for a plane not to classify.
    let distance: Double
    /// The largest of the local-coordinate rows' lengths and 1.
    let rowSize: Double
    /// The plane's index in the kernel.
    let index: Int

    init(origin: SIMD3<Double>, rectangle r: PlaneRectangle, distance: Double, index: Int) {
        o = origin
        normal = r.normal
        (xRow, zRow, xConstant, zConstant, constants) = (r.xRow, r.zRow, r.xConstant, r.zConstant, r.constants)
        signed = dot(r.normal, origin) + r.offset
        self.distance = distance
        rowSize = max(1, dot(r.xRow, r.xRow).squareRoot(), dot(r.zRow, r.zRow).squareRoot())
        self.index = index
    }

    /// The local rectangle holding every local point the kernel can compute for a ray of the
    /// cell; `nil` unless every direction of the cell widened by ``DirectionCells/footprintPad`` meets
    /// the plane in front of the origin. Then those directions' hits make the convex quadrilateral of the four corner
    /// directions' hits (the cell is a convex cone, the plane cuts it in a convex set, and the
    /// map to local coordinates is affine); its bounding rectangle is widened by the rounding
    /// of the kernel's hit point (the relative error of its distance along the ray, bounded as in
    /// ``DirectionCells/build`` with the footprint's own farthest point, moves it at most that
    /// share of the distance) and of the local coordinates themselves (a few float units of the
    /// origin, the hit and the plane's constants), all times four for margin.
    func bounds(face: Int, row: Int, column: Int) -> (lo: SIMD2<Double>, hi: SIMD2<Double>)? {
        let half = Double(DirectionCells.side) / 2, pad = DirectionCells.footprintPad
        let a0 = (Double(column) - 0.5) / half - 1 - pad, a1 = (Double(column) + 0.5) / half - 1 + pad
        let b0 = (Double(row) - 0.5) / half - 1 - pad, b1 = (Double(row) + 0.5) / half - 1 + pad
        // Written so that NaN fails.
        guard distance > 0 else { return nil }
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        var farthest = 0.0
        for corner in 0..<4 {
            let a = corner & 1 == 0 ? a0 : a1, b = corner < 2 ? b0 : b1
            // The inverse of the face frames of DirectionCells.cells.
            let w: SIMD3<Double>
            switch face {
            case 0: w = SIMD3(1, a, b)
            case 1: w = SIMD3(-1, a, b)
            case 2: w = SIMD3(a, 1, b)
            case 3: w = SIMD3(a, -1, b)
            case 4: w = SIMD3(a, b, 1)
            default: w = SIMD3(a, b, -1)
            }
            let t = -signed / dot(normal, w)
            // Written so that NaN fails.
            guard t > 0, t < .infinity else { return nil }
            let p = o + t * w
            let local = SIMD2(dot(xRow, p) + xConstant, dot(zRow, p) + zConstant)
            lo = pointwiseMin(lo, local)
            hi = pointwiseMax(hi, local)
            farthest = max(farthest, t * dot(w, w).squareRoot())
        }
        let size = 2 * dot(o, o).squareRoot() + farthest + constants
        let relativeError = 5e-7 * size / distance
        let margin = 4 * rowSize * (relativeError * farthest + 1.2e-7 * 4 * size)
        return (lo - margin, hi + margin)
    }
}

/// A plane's bounds rectangle in the world, for ``DirectionCells``.
struct PlaneRectangle: Sendable {
    /// Where rays from an origin can meet a plane's rectangle.
    enum Reach: Sendable {
        /// Nowhere: the plane has no polygon or no usable numbers (the exact test fails too).
        case nowhere
        /// Anywhere: numbers too large to place the rectangle; the exact test decides.
        case anywhere
        /// Within the four corners, on the plane, in order around the rectangle.
        case corners([SIMD3<Double>])
    }

    /// Where rays can meet the rectangle.
    var reach: Reach
    /// The plane's normal and offset.
    var normal: SIMD3<Double>
    var offset: Double
    /// The size of the plane's own numbers (offset and local-coordinate constants), which
    /// bounds the rounding of a hit's distance and local coordinates with the origin's size.
    var constants: Double
    /// Local x and z of a world point p: `dot(p, xRow) + xConstant`, `dot(p, zRow) + zConstant`.
    var xRow: SIMD3<Double>
    var xConstant: Double
    var zRow: SIMD3<Double>
    var zConstant: Double

    /// The rectangle `minimum…maximum` in the plane's local `(x, z)`, for a plane with local
    /// coordinates `dot(p, xRow) + xConstant`, `dot(p, zRow) + zConstant`: each corner is the
    /// point of the plane with those local coordinates (solved exactly, not assuming the rows
    /// are orthonormal).
    init(normal: SIMD3<Float>, offset: Float, xRow: SIMD3<Float>, xConstant: Float, zRow: SIMD3<Float>, zConstant: Float,
         minimum: SIMD2<Float>, maximum: SIMD2<Float>) {
        self.normal = SIMD3<Double>(normal)
        self.offset = Double(offset)
        self.xRow = SIMD3<Double>(xRow)
        self.xConstant = Double(xConstant)
        self.zRow = SIMD3<Double>(zRow)
        self.zConstant = Double(zConstant)
        constants = abs(Double(offset)) + abs(Double(xConstant)) + abs(Double(zConstant))
        // Written so that NaN fails.
        guard minimum.x <= maximum.x, minimum.y <= maximum.y, normal != .zero, normal.isFinite, offset.isFinite else {
            reach = .nowhere
            return
        }
        let r1 = SIMD3<Double>(xRow), r2 = SIMD3<Double>(zRow), r3 = self.normal
        let c23 = cross(r2, r3), c31 = cross(r3, r1), c12 = cross(r1, r2)
        let determinant = dot(r1, c23)
        func point(_ u: Float, _ v: Float) -> SIMD3<Double> {
            let b1 = Double(u) - Double(xConstant), b2 = Double(v) - Double(zConstant), b3 = -Double(offset)
            return (b1 * c23 + b2 * c31 + b3 * c12) / determinant
        }
        let found = [point(minimum.x, minimum.y), point(maximum.x, minimum.y), point(maximum.x, maximum.y), point(minimum.x, maximum.y)]
        let finite = constants.isFinite && found.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
        reach = finite ? .corners(found) : .anywhere
    }

    /// The distance from `o` to the rectangle: to the plane and, within it, to the nearest point
    /// of the rectangle.
    static func distance(from o: SIMD3<Double>, corners c: [SIMD3<Double>]) -> Double {
        let e1 = c[1] - c[0], e2 = c[3] - c[0]
        let l1 = dot(e1, e1), l2 = dot(e2, e2)
        let w = o - c[0]
        let a = l1 > 0 ? min(1, max(0, dot(w, e1) / l1)) : 0
        let b = l2 > 0 ? min(1, max(0, dot(w, e2) / l2)) : 0
        let gap = o - (c[0] + a * e1 + b * e2)
        return dot(gap, gap).squareRoot()
    }
}

extension SIMD3 where Scalar == Double {
    /// The double-precision copy of a float vector.
    init(_ v: SIMD3<Float>) { self.init(Double(v.x), Double(v.y), Double(v.z)) }
}

/// The dot product in double precision (the table is built in doubles so that its corners and
/// distances carry no float rounding of their own).
private func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

/// The cross product in double precision.
private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
