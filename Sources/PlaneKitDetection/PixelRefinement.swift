import PlaneKitGeometry

/// Per-pixel labelling after region growing. Cells inside a region (all four neighbours in the
/// same region, or no other region among the eight neighbours) go to it whole. Every valid pixel
/// of a region's cells that border another region, and of the cells around a region, goes to the
/// plane it lies within a depth-dependent distance of (the nearest along its ray if several), so
/// labels follow the true boundary rather than the cell grid. The regions'
/// moments are rebuilt from exactly the labelled pixels for the final fit.
struct PixelRefinement {
    /// The moments of each region's labelled pixels.
    var moments: [PointMoments]
    /// The scatter depth noise adds to them.
    var noise: [NoiseScatter]
    /// Each region's labelled pixels lie in columns `minimum.x...maximum.x`, rows `minimum.y...maximum.y`.
    var minimum: [SIMD2<Int32>]
    var maximum: [SIMD2<Int32>]
    /// The region of each label of the image (index 0, no label, is −1). Refinement labels the
    /// regions largest first by their cells' point counts, which is nearly always the final
    /// order by labelled pixels, so the detector's final renumbering has little or nothing to
    /// rewrite. After ``FaceLabelling`` several labels can belong to one region (faces found
    /// coplanar), and the final renumbering rewrites them.
    var regionOfLabel: [Int]

    /// At most this many planes can be told apart by a ``PixelRefinement`` (UInt16 labels).
    static let maximumRegions = Int(UInt16.max) - 1

    /// Labels the pixels. `out` holds the validity flags ``CellGrid`` wrote (0xFFFF = valid
    /// depth, 0 = hole) and receives the labels: 0 = none, l = region `regionOfLabel[l]`.
    init(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int, grid: CellGrid,
         growing: RegionGrowing, configuration c: OrganizedPlaneDetector.Configuration,
         labels out: UnsafeMutableBufferPointer<UInt16>) {
        let regionCount = min(growing.regions.count, PixelRefinement.maximumRegions)
        var moments = [PointMoments](repeating: PointMoments(), count: regionCount)
        var noiseScatter = [NoiseScatter](repeating: NoiseScatter(), count: regionCount)
        var minimum = [SIMD2<Int32>](repeating: SIMD2(Int32.max, Int32.max), count: regionCount)
        var maximum = [SIMD2<Int32>](repeating: SIMD2(-1, -1), count: regionCount)
        let planes = growing.regions.prefix(regionCount).map { SIMD4($0.plane.normal, $0.plane.offset) }
        var slot = [Int](repeating: 0, count: regionCount)
        let bySize = (0..<regionCount).sorted {
            let (m, n) = (growing.regions[$0].moments.count, growing.regions[$1].moments.count)
            return m != n ? m > n : $0 < $1
        }
        for (position, r) in bySize.enumerated() { slot[r] = position }
        let noise = c.noise
        // The pixel threshold factor·σ(z) = a + b·(z − z0)², unpacked for the hot loops.
        let a = c.pixelDistanceFactor * noise.constant, b = c.pixelDistanceFactor * noise.quadratic
        let z0 = noise.referenceDepth
        let base = UnsafeRawPointer(points.baseAddress!)

        // Scratch for one boundary cell, allocated once: its candidate planes and labels, spread
        // over vector lanes, and the sums of the pixels each receives.
        let scratch = UnsafeMutablePointer<Candidate>.allocate(capacity: 9)
        scratch.initialize(repeating: Candidate(), count: 9)
        // And one row of a cell in lanes (see ``assign``).
        let row = UnsafeMutablePointer<RowQuad>.allocate(capacity: (grid.cellSize + 3) / 4)
        defer {
            scratch.deallocate()
            row.deallocate()
        }
        let labels = out.baseAddress!
        growing.cellRegion.withUnsafeBufferPointer { cellRegion in
            let columns = grid.columns, rows = grid.rows
            for cy in 0..<rows {
                for cx in 0..<columns {
                    let i = cy &* columns &+ cx
                    let cell = grid.cells[i]
                    let own = Int(cellRegion[i])
                    // Regions of this cell and its 8 neighbours, without repeats.
                    var candidates = InlineArray<9, Int32>(repeating: -1)
                    var candidateCount = 0
                    var interior = own >= 0 && own < regionCount
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let nx = cx &+ dx, ny = cy &+ dy
                            guard nx >= 0, ny >= 0, nx < columns, ny < rows else { continue }
                            let r = cellRegion[ny &* columns &+ nx]
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
                        for v in y0..<y1 { (labels + (v &* width &+ x0)).update(repeating: 0, count: x1 - x0) }
                        continue
                    }

                    if interior {
                        // Inside a region (after CAPE): the cell passed the planarity test and
                        // agrees with its neighbours, so all its valid pixels are the plane's and
                        // its sums go to the region whole. Without holes no point is read again.
                        // The validity flags AND the label: valid pixels get it, holes stay 0.
                        let label = UInt16(slot[own] + 1)
                        if Int(cell.sums.count) == (x1 - x0) * (y1 - y0) {
                            for v in y0..<y1 { (labels + (v &* width &+ x0)).update(repeating: label, count: x1 - x0) }
                        } else {
                            for v in y0..<y1 {
                                let row = labels + (v &* width &+ x0)
                                for u in 0..<(x1 - x0) { row[u] &= label }
                            }
                        }
                        moments[own].merge(cell.moments)
                        noiseScatter[own] += cell.noise
                        minimum[own] = pointwiseMin(minimum[own], SIMD2(Int32(x0), Int32(y0)))
                        maximum[own] = pointwiseMax(maximum[own], SIMD2(Int32(x1 - 1), Int32(y1 - 1)))
                        continue
                    }

                    // At a boundary: each pixel goes to the nearest candidate plane within reach.
                    var ownK = -1
                    for k in 0..<candidateCount {
                        let r = Int(candidates[k])
                        if r == own { ownK = k }
                        let plane = planes[r]
                        scratch[k] = Candidate(plane: plane, label: UInt16(slot[r] + 1))
                    }
                    // The own region's pixels are the cell's (valid) pixels minus those that go
                    // elsewhere or nowhere; the own candidate's sums collect the latter.
                    let reference = cell.sums.reference
                    PixelRefinement.assign(x0: x0, x1: x1, y0: y0, y1: y1, width: width, points: base, labels: labels,
                                           candidates: scratch, count: candidateCount, own: ownK, reference: reference,
                                           a: a, b: b, z0: z0, alongRay: c.splitsDisconnected, row: row)
                    for k in 0..<candidateCount {
                        var s = scratch[k].sums.shifted(reference: reference)
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
        regionOfLabel = [Int](repeating: -1, count: regionCount + 1)
        for r in 0..<regionCount { regionOfLabel[slot[r] + 1] = r }
    }

    /// A candidate plane of a boundary cell, its coefficients and label repeated over the lanes
    /// of a ``PointQuad``, and the sums of the pixels that go to it.
    struct Candidate {
        /// `(n, offset)` of the plane `n·p + offset = 0`.
        var plane = SIMD4<Float>.zero
        var label = SIMD4<Int32>.zero
        var sums = LaneSums()

        init() {}

        /// The plane `n·p + offset = 0` given as `(n, offset)`, labelled `label`, no pixels yet.
        init(plane: SIMD4<Float>, label: UInt16) {
            self.plane = plane
            self.label = SIMD4(repeating: Int32(label))
        }
    }

    /// One quad of a row in ``assign``: its points in lanes and, per lane, what ``assign`` needs.
    struct RowQuad {
        var quad: PointQuad
        /// The largest squared distance from a plane at which the pixel may join it.
        var reach: SIMD4<Float>
        /// How near the nearest candidate so far is along the ray (see ``assign``).
        var nearness: SIMD4<Float>
        /// The nearest candidate's label so far (0: none).
        var best: SIMD4<Int32>
        /// The point's squared range times ``RayDistance/steepestCosine``² along the ray, 1 for
        /// plain distance.
        var grazingFloor: SIMD4<Float>
    }

    /// Labels the pixels of one boundary cell (`x0..<x1` × `y0..<y1`): each pixel with a valid
    /// depth goes to the nearest of the `count` candidates it lies within a + b·(z − z0)² of, or
    /// to none. With `alongRay` (faces of objects), nearest is along the pixel's ray
    /// (``RayDistance``): the distance d from plane n·p + w = 0 divided by the cosine n·p / |p|,
    /// floored at ``RayDistance/steepestCosine``; d² / ((n·p)² + floor²·|p|²) orders the
    /// candidates the same way without a square root. A room's surfaces go by plain distance:
    /// a tracked keyframe puts its points onto the planes they are labelled with, and along the
    /// ray the generated walks' tracking lost up to 13 cm (seed 6 with the accelerometer: 1.06
    /// against 14.1 cm).
    /// Pixels that go to candidate k ≠ `own` are added to its sums; with an own candidate
    /// (`own` ≥ 0), every valid pixel that does not go to it is added to the own candidate's sums,
    /// so that its pixels are the cell's sums minus those.
    ///
    /// A row at a time, in three passes over its quads (four pixels in vector lanes): the points
    /// into lanes, then each candidate against every quad (its coefficients stay in registers),
    /// then labels and sums; sums are only touched for quads where some pixel does not simply
    /// go to the own region. (In one loop over quads the optimiser sinks the lane shuffles into
    /// the loop over candidates and doubles the work.)
    @inline(__always)
    static func assign(x0: Int, x1: Int, y0: Int, y1: Int, width: Int, points base: UnsafeRawPointer,
                       labels: UnsafeMutablePointer<UInt16>, candidates: UnsafeMutablePointer<Candidate>, count: Int,
                       own: Int, reference: SIMD3<Float>, a: Float, b: Float, z0: Float, alongRay: Bool,
                       row: UnsafeMutablePointer<RowQuad>) {
        let stride = MemoryLayout<SIMD3<Float>>.stride
        let ownLabel = own >= 0 ? candidates[own].label : SIMD4(repeating: -1)
        let columns = x1 &- x0
        // Nearness is d² / (w·(n·p)² + g): along the ray w = 1, g = floor²·|p|²; plain, w = 0, g = 1.
        let floorSquared = SIMD4(repeating: alongRay ? RayDistance.steepestCosine * RayDistance.steepestCosine : 0)
        let rayWeight = SIMD4<Float>(repeating: alongRay ? 1 : 0), plain = SIMD4<Float>(repeating: alongRay ? 0 : 1)
        for v in y0..<y1 {
            let first = v &* width &+ x0
            let quads = PixelRefinement.copyLanes(of: base + first &* stride, count: columns, to: row)
            for j in 0..<quads {
                let quad = row[j].quad
                let dz = quad.z - z0
                let limit = a + b * dz * dz
                row[j].reach = limit * limit
                row[j].nearness = SIMD4(repeating: .greatestFiniteMagnitude)
                row[j].best = .zero
                row[j].grazingFloor = floorSquared * (quad.x * quad.x + quad.y * quad.y + quad.z * quad.z) + plain
            }
            for k in 0..<count {
                let plane = candidates[k].plane, label = candidates[k].label
                let nx = SIMD4(repeating: plane.x), ny = SIMD4(repeating: plane.y)
                let nz = SIMD4(repeating: plane.z), offset = SIMD4(repeating: plane.w)
                for j in 0..<quads {
                    let quad = row[j].quad
                    let along = nx * quad.x + ny * quad.y + nz * quad.z
                    let d = along + offset
                    let squared = d * d
                    let nearness = squared / (rayWeight * along * along + row[j].grazingFloor)
                    // Ties go to the later candidate; a NaN distance never wins. (Bitwise blends:
                    // `replace(with:where:)` and `pointwiseMin` compile to a branch per lane.)
                    let closer = unsafeBitCast((squared .<= row[j].reach) .& (nearness .<= row[j].nearness),
                                               to: SIMD4<Int32>.self)
                    row[j].best = (row[j].best & ~closer) | (label & closer)
                    row[j].nearness = PointQuad.masked(row[j].nearness, ~closer) + PointQuad.masked(nearness, closer)
                }
            }
            var out = labels + first
            for j in 0..<quads {
                let quad = row[j].quad
                let valid = quad.validity
                let best = row[j].best & valid
                let remaining = columns &- 4 &* j
                if remaining >= 4 {
                    UnsafeMutableRawPointer(out).storeBytes(of: SIMD4<UInt16>(truncatingIfNeeded: best),
                                                            as: SIMD4<UInt16>.self)
                } else {
                    for lane in 0..<remaining { out[lane] = UInt16(truncatingIfNeeded: best[lane]) }
                }
                out += 4
                // Valid pixels that leave the own region (or, without one, that join any plane).
                let leaving = own >= 0 ? valid & unsafeBitCast(best .!= ownLabel, to: SIMD4<Int32>.self)
                                       : unsafeBitCast(best .!= .zero, to: SIMD4<Int32>.self)
                guard leaving != .zero else { continue }
                if own >= 0 { candidates[own].sums.add(quad, minus: reference, where: leaving) }
                for k in 0..<count where k != own {
                    let joining = unsafeBitCast(best .== candidates[k].label, to: SIMD4<Int32>.self)
                    if joining != .zero { candidates[k].sums.add(quad, minus: reference, where: joining) }
                }
            }
        }
    }

    /// Copies `count` points starting at `points` into the quads of `row`. A last, partial quad
    /// is padded with the origin, which has no valid depth. Returns the number of quads.
    @inline(__always)
    static func copyLanes(of points: UnsafeRawPointer, count: Int, to row: UnsafeMutablePointer<RowQuad>) -> Int {
        let stride = MemoryLayout<SIMD3<Float>>.stride
        var pointer = points, out = row
        var left = count
        while left >= 4 {
            out.pointee.quad = PointQuad(pointer)
            out += 1
            pointer += 4 &* stride
            left &-= 4
        }
        if left > 0 {
            var x = SIMD4<Float>.zero, y = SIMD4<Float>.zero, z = SIMD4<Float>.zero
            for lane in 0..<left {
                let p = pointer.load(fromByteOffset: lane &* stride, as: SIMD3<Float>.self)
                x[lane] = p.x
                y[lane] = p.y
                z[lane] = p.z
            }
            out.pointee.quad = PointQuad(x: x, y: y, z: z)
        }
        return (count &+ 3) / 4
    }
}
