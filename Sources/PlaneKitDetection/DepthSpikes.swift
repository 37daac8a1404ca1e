/// Isolated wrong depths: a structured-light scanner's decoding errors, one or two pixels across,
/// that stand centimetres off the surface around them.
///
/// On SegComp's ABW images they are about 0.1% of the readings, gathered on faces seen at a
/// grazing angle. One spike in a 6-pixel cell lifts its residual by a sixth of the spike's height
/// and makes a depth jump in its middle row, so a whole cell of an otherwise flat face is lost.
/// A spike is told from real structure by the four pixels two steps away along the row and the
/// column: a spike lies beyond all four by more than a limit, while a ramp, an edge, a corner or
/// a one-pixel-thin strip has one of them on its own side. Looking two pixels away, not one, also
/// finds spikes two pixels wide. On a ramp steeper than the limit over two pixels, a spike smaller
/// than the ramp's rise hides, and the first pixel of a one-pixel strip running up the ramp can
/// be taken for one.
enum DepthSpikes {
    /// How many depth steps beyond its neighbours a reading must lie to be a spike: a quantised
    /// ramp seen at a grazing angle jitters by a step or two, decoding errors by 4 to 20.
    static let limitInSteps: Float = 4

    /// Turns the spikes of a depth image into holes.
    ///
    /// `depths` holds each pixel's depth (any common offset) and `weights` 1 for a reading, 0 for
    /// a hole; a spike's weight and depth become 0. Pixels within two of the border, and pixels
    /// with a hole among the four they are compared with, are kept; so is every pixel of an image
    /// narrower than 8 (fewer than four pixels of a row can be judged) or lower than 5.
    ///
    /// Four pixels at a time in SIMD registers, without branches. A row's verdicts wait in a ring
    /// of three row buffers and are applied once the row two below has been judged, the last to
    /// read it, so every test sees the measured neighbours and no frame-sized scratch is needed.
    static func remove(depths: UnsafeMutableBufferPointer<Float>, weights: UnsafeMutableBufferPointer<Float>,
                       width: Int, height: Int, limit: Float) {
        // Rows are judged four pixels at a time, the last group overlapping the one before it; in
        // a narrower image it would reach into the border columns.
        guard width >= 8, height > 4 else { return }
        var ring = ContiguousArray<Float>(repeating: 1, count: 3 * width)
        ring.withUnsafeMutableBufferPointer { ring in
            let d = UnsafeMutableRawPointer(depths.baseAddress!), w = UnsafeMutableRawPointer(weights.baseAddress!)
            let kept = UnsafeMutableRawPointer(ring.baseAddress!)
            let up = 2 * width
            @inline(__always) func load(_ base: UnsafeMutableRawPointer, _ i: Int) -> SIMD4<Float> {
                base.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
            }
            @inline(__always) func lower(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
                a.replacing(with: b, where: b .< a)
            }
            @inline(__always) func higher(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
                a.replacing(with: b, where: b .> a)
            }
            // Clears row v's spikes, judged pixels 2..<width − 2, four at a time; the last group
            // overlaps the one before it rather than running past them.
            func apply(row v: Int) {
                let verdicts = kept + 4 &* ((v % 3) &* width)
                let weight = w + 4 &* (v &* width), depths = d + 4 &* (v &* width)
                var u = 2
                while u < width &- 2 {
                    let at = min(u, width &- 6)
                    let keep = load(verdicts, at)
                    weight.storeBytes(of: load(weight, at) * keep, toByteOffset: 4 &* at, as: SIMD4<Float>.self)
                    depths.storeBytes(of: load(depths, at) * keep, toByteOffset: 4 &* at, as: SIMD4<Float>.self)
                    u = at &+ 4
                }
            }
            for v in 2..<(height - 2) {
                let verdicts = kept + 4 &* ((v % 3) &* width)
                // The row and the rows two above and below, as byte addresses.
                let weight = w + 4 &* (v &* width), depths = d + 4 &* (v &* width)
                let weightAbove = weight - 4 &* up, weightBelow = weight + 4 &* up
                let depthAbove = depths - 4 &* up, depthBelow = depths + 4 &* up
                var u = 2
                while u < width &- 2 {
                    let at = min(u, width &- 6)
                    // 1 where the reading and all four it is compared with are readings.
                    let judged = load(weight, at) * load(weight, at &- 2) * load(weight, at &+ 2)
                        * load(weightAbove, at) * load(weightBelow, at)
                    let left = load(depths, at &- 2), right = load(depths, at &+ 2)
                    let above = load(depthAbove, at), below = load(depthBelow, at)
                    let lowest = lower(lower(left, right), lower(above, below))
                    let highest = higher(higher(left, right), higher(above, below))
                    let depth = load(depths, at)
                    let outside = (depth .> highest + limit) .| (depth .< lowest - limit)
                    verdicts.storeBytes(of: SIMD4<Float>(repeating: 1).replacing(with: 1 - judged, where: outside),
                                        toByteOffset: 4 &* at, as: SIMD4<Float>.self)
                    u = at &+ 4
                }
                if v >= 4 { apply(row: v - 2) }
            }
            apply(row: max(2, height - 4))
            if height - 3 > 2 { apply(row: height - 3) }
        }
    }
}
