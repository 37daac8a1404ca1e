/// Four neighbouring points of a row in vector lanes: their x, y and z each in one `SIMD4`.
///
/// The hot loops over a frame (the cell pass and pixel refinement) test and sum four pixels at
/// a time. A `SIMD3<Float>` point is 16 bytes with an unused fourth lane, so four points are
/// four aligned vector loads, turned into lanes by the shuffles the compiler picks.
struct PointQuad {
    var x: SIMD4<Float>
    var y: SIMD4<Float>
    var z: SIMD4<Float>

    /// The four points starting at `pointer` (which must address four readable points).
    @inline(__always) init(_ pointer: UnsafeRawPointer) {
        let stride = MemoryLayout<SIMD3<Float>>.stride
        let p0 = pointer.load(as: SIMD4<Float>.self)
        let p1 = pointer.load(fromByteOffset: stride, as: SIMD4<Float>.self)
        let p2 = pointer.load(fromByteOffset: 2 &* stride, as: SIMD4<Float>.self)
        let p3 = pointer.load(fromByteOffset: 3 &* stride, as: SIMD4<Float>.self)
        x = SIMD4(p0.x, p1.x, p2.x, p3.x)
        y = SIMD4(p0.y, p1.y, p2.y, p3.y)
        z = SIMD4(p0.z, p1.z, p2.z, p3.z)
    }

    /// Lanes already split.
    @inline(__always) init(x: SIMD4<Float>, y: SIMD4<Float>, z: SIMD4<Float>) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// One point in lane 0; the other lanes hold the origin, which has no valid depth. Row
    /// tails shorter than four pixels go through the same code this way.
    @inline(__always) init(single p: SIMD3<Float>) {
        x = SIMD4(p.x, 0, 0, 0)
        y = SIMD4(p.y, 0, 0, 0)
        z = SIMD4(p.z, 0, 0, 0)
    }

    /// All ones in each lane whose depth is in (0, ∞), zero elsewhere (holes: NaN, ±∞, ≤ 0).
    ///
    /// The cheaper test of the hot loops (``CellGrid/isValid(_:)`` also checks x and y). Points
    /// with a finite depth but a non-finite x or y pass it; they make their cell's sums
    /// non-finite, so the cell is never planar and never labelled by its sums, and the per-pixel
    /// plane tests reject them (a NaN distance compares false). It is written as
    /// `z ≤ greatestFiniteMagnitude` rather than `z < ∞` because the optimiser turns the latter
    /// pair of comparisons into a floating-point class test that SSE2 can only do with a dozen
    /// integer instructions.
    @inline(__always) var validity: SIMD4<Int32> {
        unsafeBitCast((z .> .zero) .& (z .<= SIMD4(repeating: .greatestFiniteMagnitude)), to: SIMD4<Int32>.self)
    }

    /// `x` where `bits` is all ones, zero where it is zero (a bitwise AND, so NaN lanes vanish).
    @inline(__always) static func masked(_ x: SIMD4<Float>, _ bits: SIMD4<Int32>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<Int32>.self) & bits, to: SIMD4<Float>.self)
    }
}
