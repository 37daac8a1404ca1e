import PlaneKitGeometry

/// Per-pixel labelling after region growing. Cells inside a region (all four neighbours in the
/// same region) go to it whole. Every valid pixel of a region's border cells, and of the cells
/// around a region, goes to the plane it lies within a depth-dependent distance of (the nearest
/// if several), so labels follow the true boundary rather than the cell grid. The regions'
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
        let stride = MemoryLayout<SIMD3<Float>>.stride
        let base = UnsafeRawPointer(points.baseAddress!)

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
                    var candidatePlanes = InlineArray<9, SIMD4<Float>>(repeating: .zero)
                    var sums = InlineArray<9, ShiftedSums>(repeating: ShiftedSums(reference: cell.sums.reference))
                    for k in 0..<candidateCount { candidatePlanes[k] = planes[Int(candidates[k])] }
                    for v in y0..<y1 {
                        let row = v * width
                        var offsetBytes = (row + x0) * stride
                        for u in x0..<x1 {
                            let flagged = out[row + u] != 0
                            out[row + u] = 0
                            guard flagged else {
                                offsetBytes += stride
                                continue
                            }
                            var p4 = base.load(fromByteOffset: offsetBytes, as: SIMD4<Float>.self)
                            offsetBytes += stride
                            guard p4.z > 0 && p4.z < .infinity else { continue }
                            p4.w = 1
                            let dz = p4.z - z0
                            let limit = a + b * dz * dz
                            var best = -1, bestDistance = limit * limit
                            for k in 0..<candidateCount {
                                let d = (candidatePlanes[k] * p4).sum()
                                if d * d <= bestDistance { (best, bestDistance) = (k, d * d) }
                            }
                            if best >= 0 {
                                out[row + u] = UInt16(candidates[best] + 1)
                                sums[best].add(SIMD3(p4.x, p4.y, p4.z))
                            }
                        }
                    }
                    for k in 0..<candidateCount where sums[k].count > 0 {
                        let r = Int(candidates[k])
                        moments[r].merge(sums[k].moments)
                        let centroid = sums[k].reference + sums[k].sum / Float(sums[k].count)
                        noiseScatter[r] += NoiseScatter(count: Int(sums[k].count), centroid: centroid,
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
}
