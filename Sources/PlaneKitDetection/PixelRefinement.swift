import PlaneKitGeometry

/// Per-pixel labelling after region growing. Cells inside a region (all four neighbours in the
/// same region, or no other region among the eight neighbours) go to it whole. Every valid pixel
/// of a region's cells that border another region, and of the cells around a region, goes to the
/// plane it lies within a depth-dependent distance of (the nearest if several), so labels follow
/// the true boundary rather than the cell grid. The regions'
/// moments are rebuilt from exactly the labelled pixels for the final fit.
struct PixelRefinement {
    /// The moments of each region's labelled pixels.
    var moments: [PointMoments]
    /// The scatter depth noise adds to them.
    var noise: [NoiseScatter]
    /// Each region's labelled pixels lie in columns `minimum.x...maximum.x`, rows `minimum.y...maximum.y`.
    var minimum: [SIMD2<Int32>]
    var maximum: [SIMD2<Int32>]

    /// At most this many planes can be told apart by a ``PixelRefinement`` (UInt16 labels).
    static let maximumRegions = Int(UInt16.max) - 1

    /// Labels the pixels. `out` holds the validity flags ``CellGrid`` wrote (0xFFFF = valid
    /// depth, 0 = hole) and receives the labels: 0 = none, r + 1 = region r.
    init(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int, grid: CellGrid,
         growing: RegionGrowing, configuration c: OrganizedPlaneDetector.Configuration,
         labels out: UnsafeMutableBufferPointer<UInt16>) {
        let regionCount = min(growing.regions.count, PixelRefinement.maximumRegions)
        var moments = [PointMoments](repeating: PointMoments(), count: regionCount)
        var noiseScatter = [NoiseScatter](repeating: NoiseScatter(), count: regionCount)
        var minimum = [SIMD2<Int32>](repeating: SIMD2(Int32.max, Int32.max), count: regionCount)
        var maximum = [SIMD2<Int32>](repeating: SIMD2(-1, -1), count: regionCount)
        let planes = growing.regions.prefix(regionCount).map { SIMD4($0.plane.normal, $0.plane.offset) }
        let noise = c.noise
        // The pixel threshold factor·σ(z) = a + b·(z − z0)², unpacked for the hot loops.
        let a = c.pixelDistanceFactor * noise.constant, b = c.pixelDistanceFactor * noise.quadratic
        let z0 = noise.referenceDepth
        let base = UnsafeRawPointer(points.baseAddress!)

        // Scratch for one boundary cell, allocated once: its candidate planes, their labels and
        // the sums of the pixels each receives.
        let candidatePlanes = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 9)
        let candidateLabels = UnsafeMutablePointer<UInt16>.allocate(capacity: 9)
        let sums = UnsafeMutablePointer<ShiftedSums>.allocate(capacity: 9)
        sums.initialize(repeating: ShiftedSums(reference: .zero), count: 9)
        defer {
            candidatePlanes.deallocate()
            candidateLabels.deallocate()
            sums.deallocate()
        }
        do {
            for cy in 0..<grid.rows {
                for cx in 0..<grid.columns {
                    let i = grid.index(cx, cy)
                    let cell = grid.cells[i]
                    let own = Int(growing.cellRegion[i])
                    // Regions of this cell and its 8 neighbours, without repeats.
                    var candidates = InlineArray<9, Int32>(repeating: -1)
                    var candidateCount = 0
                    var interior = own >= 0 && own < regionCount
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let nx = cx + dx, ny = cy + dy
                            guard nx >= 0, ny >= 0, nx < grid.columns, ny < grid.rows else { continue }
                            let r = growing.cellRegion[grid.index(nx, ny)]
                            if (dx == 0) != (dy == 0), r != own { interior = false }
                            guard r >= 0, Int(r) < regionCount else { continue }
                            var seen = false
                            for k in 0..<candidateCount where candidates[k] == r { seen = true }
                            if !seen {
                                candidates[candidateCount] = r
                                candidateCount += 1
                            }
                        }
                    }
                    // A cell of a region with no other region around it (its other neighbours are
                    // holes or non-planar cells) has no boundary to place: it passed the
                    // planarity test on its own, so it is taken whole like an interior cell. The
                    // non-planar cells beside it are still refined pixel by pixel, so the plane
                    // still reaches into them.
                    if own >= 0 && own < regionCount && candidateCount == 1 { interior = true }
                    let x0 = Int(cell.x0), x1 = Int(cell.x1), y0 = Int(cell.y0), y1 = Int(cell.y1)
                    guard candidateCount > 0, cell.sums.count > 0 else {
                        for v in y0..<y1 { for u in x0..<x1 { out[v * width + u] = 0 } }
                        continue
                    }

                    if interior {
                        // Inside a region (after CAPE): the cell passed the planarity test and
                        // agrees with its neighbours, so all its valid pixels are the plane's and
                        // its sums go to the region whole. Without holes no point is read again.
                        // The validity flags AND the label: valid pixels get it, holes stay 0.
                        let label = UInt16(own + 1)
                        for v in y0..<y1 {
                            let row = v * width
                            for u in x0..<x1 { out[row + u] &= label }
                        }
                        moments[own].merge(cell.moments)
                        noiseScatter[own] += cell.noise
                        minimum[own] = pointwiseMin(minimum[own], SIMD2(Int32(x0), Int32(y0)))
                        maximum[own] = pointwiseMax(maximum[own], SIMD2(Int32(x1 - 1), Int32(y1 - 1)))
                        continue
                    }

                    // At a boundary: each pixel goes to the nearest candidate plane within reach.
                    for k in 0..<candidateCount {
                        candidatePlanes[k] = planes[Int(candidates[k])]
                        candidateLabels[k] = UInt16(candidates[k] + 1)
                        sums[k] = ShiftedSums(reference: cell.sums.reference)
                    }
                    var ownK = -1
                    for k in 0..<candidateCount where Int(candidates[k]) == own { ownK = k }
                    // The own region's pixels are the cell's (valid) pixels minus those that go
                    // elsewhere or nowhere; `sums[ownK]` collects the latter.
                    PixelRefinement.assign(x0: x0, x1: x1, y0: y0, y1: y1, width: width, points: base,
                                           labels: out, planes: candidatePlanes, labelOf: candidateLabels,
                                           count: candidateCount, own: ownK, sums: sums, a: a, b: b, z0: z0)
                    for k in 0..<candidateCount {
                        var s = sums[k]
                        if k == ownK { s = cell.sums.subtracting(s) }
                        guard s.count > 0 else { continue }
                        let r = Int(candidates[k])
                        moments[r].merge(s.moments)
                        let centroid = s.reference + s.sum / Float(s.count)
                        noiseScatter[r] += NoiseScatter(count: Int(s.count), centroid: centroid,
                                                        sigma: noise.sigma(atDepth: centroid.z))
                        minimum[r] = pointwiseMin(minimum[r], SIMD2(Int32(x0), Int32(y0)))
                        maximum[r] = pointwiseMax(maximum[r], SIMD2(Int32(x1 - 1), Int32(y1 - 1)))
                    }
                }
            }
        }
        self.moments = moments
        self.noise = noiseScatter
        self.minimum = minimum
        self.maximum = maximum
    }

    /// Labels the pixels of one boundary cell (`x0..<x1` × `y0..<y1`): each pixel with a valid
    /// depth goes to the nearest of the `count` candidate planes it lies within a + b·(z − z0)²
    /// of, or to none. Pixels that go to candidate k ≠ `own` are added to `sums[k]`; with an own
    /// region (`own` ≥ 0), every valid pixel that does not go to it is added to `sums[own]`,
    /// so that the own region's pixels are the cell's sums minus those. Four pixels at a time
    /// are tested against every candidate in vector lanes; only pixels that do not simply go
    /// to the own region are handled one by one.
    @inline(__always)
    static func assign(x0: Int, x1: Int, y0: Int, y1: Int, width: Int, points base: UnsafeRawPointer,
                       labels out: UnsafeMutableBufferPointer<UInt16>, planes: UnsafeMutablePointer<SIMD4<Float>>,
                       labelOf: UnsafeMutablePointer<UInt16>, count: Int, own: Int,
                       sums: UnsafeMutablePointer<ShiftedSums>, a: Float, b: Float, z0: Float) {
        let stride = MemoryLayout<SIMD3<Float>>.stride
        let labels = out.baseAddress!
        let ownLabel: UInt16 = own >= 0 ? labelOf[own] : 0
        let none = SIMD4<Int32>(repeating: -1)
        let ownLanes = SIMD4<Int32>(repeating: Int32(own))
        let zero = SIMD4<Float>.zero, infinity = SIMD4<Float>(repeating: .infinity)
        for v in y0..<y1 {
            let first = v &* width &+ x0
            var pointer = base + first &* stride
            var u = x0
            while u &+ 4 <= x1 {
                let p0 = pointer.load(as: SIMD4<Float>.self)
                let p1 = pointer.load(fromByteOffset: stride, as: SIMD4<Float>.self)
                let p2 = pointer.load(fromByteOffset: 2 &* stride, as: SIMD4<Float>.self)
                let p3 = pointer.load(fromByteOffset: 3 &* stride, as: SIMD4<Float>.self)
                let x = SIMD4(p0.x, p1.x, p2.x, p3.x), y = SIMD4(p0.y, p1.y, p2.y, p3.y)
                let z = SIMD4(p0.z, p1.z, p2.z, p3.z)
                let valid = (z .> zero) .& (z .< infinity)
                let dz = z - z0
                let limit = a + b * dz * dz
                var bestDistance = limit * limit
                var best = none
                for k in 0..<count {
                    let plane = planes[k]
                    let d = plane.x * x + plane.y * y + plane.z * z + plane.w
                    let squared = d * d
                    let closer = squared .<= bestDistance
                    bestDistance.replace(with: squared, where: closer)
                    best.replace(with: Int32(k), where: closer)
                }
                best.replace(with: -1, where: .!valid)
                let index = v &* width &+ u
                if own >= 0 && best == ownLanes {
                    // The common case: all four pixels are the own region's.
                    (labels + index).withMemoryRebound(to: SIMD4<UInt16>.self, capacity: 1) {
                        $0.pointee = SIMD4(repeating: ownLabel)
                    }
                } else {
                    let lanes: InlineArray<4, SIMD4<Float>> = [p0, p1, p2, p3]
                    for lane in 0..<4 {
                        assignOne(lanes[lane], best: Int(best[lane]), valid: valid[lane], at: labels + (index &+ lane),
                                  labelOf: labelOf, own: own, sums: sums)
                    }
                }
                pointer += 4 &* stride
                u &+= 4
            }
            while u < x1 {
                let p = pointer.load(as: SIMD4<Float>.self)
                let valid = p.z > 0 && p.z < .infinity
                var best = -1
                if valid {
                    let dz = p.z - z0
                    let limit = a + b * dz * dz
                    var bestDistance = limit * limit
                    for k in 0..<count {
                        let plane = planes[k]
                        let d = plane.x * p.x + plane.y * p.y + plane.z * p.z + plane.w
                        if d * d <= bestDistance { (best, bestDistance) = (k, d * d) }
                    }
                }
                assignOne(p, best: best, valid: valid, at: labels + (v &* width &+ u), labelOf: labelOf, own: own,
                          sums: sums)
                pointer += stride
                u &+= 1
            }
        }
    }

    /// Writes one pixel's label and adds it to the sums ``assign`` keeps.
    @inline(__always)
    static func assignOne(_ p: SIMD4<Float>, best: Int, valid: Bool, at label: UnsafeMutablePointer<UInt16>,
                          labelOf: UnsafeMutablePointer<UInt16>, own: Int, sums: UnsafeMutablePointer<ShiftedSums>) {
        let point = SIMD3(p.x, p.y, p.z)
        if best >= 0 {
            label.pointee = labelOf[best]
            guard best != own else { return }
            sums[best].add(point)
        } else {
            label.pointee = 0
        }
        if own >= 0 && valid { sums[own].add(point) }
    }
}
