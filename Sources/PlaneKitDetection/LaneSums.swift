/// Sums of points relative to a reference point, kept in four lanes (one per position in a
/// ``PointQuad``) until the points are all added: the nine sums of ``ShiftedSums``, as vector
/// adds and multiplies with no shuffles in the loop.
struct LaneSums {
    var sx = SIMD4<Float>.zero, sy = SIMD4<Float>.zero, sz = SIMD4<Float>.zero
    var sxx = SIMD4<Float>.zero, syy = SIMD4<Float>.zero, szz = SIMD4<Float>.zero
    var sxy = SIMD4<Float>.zero, sxz = SIMD4<Float>.zero, syz = SIMD4<Float>.zero
    /// Per lane, how many added quads had that lane masked off.
    var missing = SIMD4<Int32>.zero
    /// How many quads were added.
    var quads: Int32 = 0

    /// Adds the lanes of `quad` where `bits` is all ones, relative to `reference`. A quad with
    /// every lane set (most of a frame) skips the masking.
    @inline(__always) mutating func add(_ quad: PointQuad, minus reference: SIMD3<Float>, where bits: SIMD4<Int32>) {
        var dx = quad.x - reference.x, dy = quad.y - reference.y, dz = quad.z - reference.z
        if bits != SIMD4(repeating: -1) {
            missing &+= bits &+ 1
            dx = PointQuad.masked(dx, bits)
            dy = PointQuad.masked(dy, bits)
            dz = PointQuad.masked(dz, bits)
        }
        quads &+= 1
        sx += dx; sy += dy; sz += dz
        sxx += dx * dx; syy += dy * dy; szz += dz * dz
        sxy += dx * dy; sxz += dx * dz; syz += dy * dz
    }

    /// How many points were added.
    var count: Int32 { 4 &* quads &- missing.wrappedSum() }

    /// The lanes added up, as ``ShiftedSums`` with the same reference.
    func shifted(reference: SIMD3<Float>) -> ShiftedSums {
        var sums = ShiftedSums(reference: reference)
        sums.count = count
        sums.sum = SIMD3(sx.sum(), sy.sum(), sz.sum())
        sums.squares = SIMD3(sxx.sum(), syy.sum(), szz.sum())
        sums.cross = SIMD3(sxy.sum(), sxz.sum(), syz.sum())
        return sums
    }
}
