import PlaneKitGeometry

/// Per-pixel labelling after region growing: every valid pixel of a region's cells, and of the
/// cells around it, goes to the plane it lies within a depth-dependent distance of, so labels
/// follow the true boundary rather than the cell grid. The regions' moments are rebuilt from
/// exactly the labelled pixels for the final fit.
struct PixelRefinement {
    /// One label per pixel: 0 = none, r + 1 = region r.
    var labels: ContiguousArray<UInt16>
    /// The moments of each region's labelled pixels.
    var moments: [PointMoments]
    /// The scatter depth noise adds to them.
    var noise: [NoiseScatter]
    /// Each region's labelled pixels lie in columns `minimum.x...maximum.x`, rows `minimum.y...maximum.y`.
    var minimum: [SIMD2<Int32>]
    var maximum: [SIMD2<Int32>]

    /// At most this many planes can be told apart by a ``PixelRefinement`` (UInt16 labels).
    static let maximumRegions = Int(UInt16.max) - 1

    init(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int, grid: CellGrid,
         growing: RegionGrowing, configuration c: OrganizedPlaneDetector.Configuration) {
        let regionCount = min(growing.regions.count, PixelRefinement.maximumRegions)
        var labels = ContiguousArray<UInt16>(repeating: 0, count: width * height)
        var moments = [PointMoments](repeating: PointMoments(), count: regionCount)
        var noiseScatter = [NoiseScatter](repeating: NoiseScatter(), count: regionCount)
        var minimum = [SIMD2<Int32>](repeating: SIMD2(Int32.max, Int32.max), count: regionCount)
        var maximum = [SIMD2<Int32>](repeating: SIMD2(-1, -1), count: regionCount)
        let planes = growing.regions.prefix(regionCount).map { SIMD4($0.plane.normal, $0.plane.offset) }
        let noise = c.noise
        let factor = c.pixelDistanceFactor

        labels.withUnsafeMutableBufferPointer { out in
            for cy in 0..<grid.rows {
                for cx in 0..<grid.columns {
                    let i = grid.index(cx, cy)
                    let cell = grid.cells[i]
                    guard cell.sums.count > 0 else { continue }
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
                    guard candidateCount > 0 else { continue }
                    let x0 = Int(cell.x0), x1 = Int(cell.x1), y0 = Int(cell.y0), y1 = Int(cell.y1)

                    if interior {
                        // Inside a region: keep the cell's sums and take out the few pixels that
                        // are off the plane (an object lying on a table, a dropout's junk depth).
                        let plane = planes[own]
                        let normal = SIMD3(plane.x, plane.y, plane.z), offset = plane.w
                        let label = UInt16(own + 1)
                        var rejected = ShiftedSums(reference: cell.sums.reference)
                        for v in y0..<y1 {
                            let row = v * width
                            for u in x0..<x1 {
                                let p = points[row + u]
                                guard CellGrid.isValid(p) else { continue }
                                let distance = dot(normal, p) + offset
                                let limit = factor * noise.sigma(atDepth: p.z)
                                if distance * distance <= limit * limit {
                                    out[row + u] = label
                                } else {
                                    rejected.add(p)
                                }
                            }
                        }
                        let kept = cell.sums.subtracting(rejected)
                        if kept.count > 0 {
                            moments[own].merge(kept.moments)
                            noiseScatter[own] += NoiseScatter(count: Int(kept.count), centroid: cell.centroid, sigma: cell.sigma)
                            minimum[own] = pointwiseMin(minimum[own], SIMD2(Int32(x0), Int32(y0)))
                            maximum[own] = pointwiseMax(maximum[own], SIMD2(Int32(x1 - 1), Int32(y1 - 1)))
                        }
                        continue
                    }

                    // At a boundary: each pixel goes to the nearest candidate plane within reach.
                    var candidatePlanes = InlineArray<9, SIMD4<Float>>(repeating: .zero)
                    var sums = InlineArray<9, ShiftedSums>(repeating: ShiftedSums(reference: cell.sums.reference))
                    for k in 0..<candidateCount { candidatePlanes[k] = planes[Int(candidates[k])] }
                    for v in y0..<y1 {
                        let row = v * width
                        for u in x0..<x1 {
                            let p = points[row + u]
                            guard CellGrid.isValid(p) else { continue }
                            let limit = factor * noise.sigma(atDepth: p.z)
                            var best = -1, bestDistance = limit * limit
                            let p4 = SIMD4(p, 1)
                            for k in 0..<candidateCount {
                                let d = (candidatePlanes[k] * p4).sum()
                                if d * d <= bestDistance { (best, bestDistance) = (k, d * d) }
                            }
                            if best >= 0 {
                                out[row + u] = UInt16(candidates[best] + 1)
                                sums[best].add(p)
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
        self.labels = labels
        self.moments = moments
        self.noise = noiseScatter
        self.minimum = minimum
        self.maximum = maximum
    }
}
