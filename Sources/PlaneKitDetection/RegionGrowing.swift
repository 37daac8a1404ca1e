#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// A group of planar cells that share one plane.
struct CellRegion {
    /// The moments of all the region's points.
    var moments: PointMoments
    /// The scatter depth noise alone adds to them.
    var noise: NoiseScatter
    /// Σ over the region's cells of (points · σ²): the squared residual pure sensor noise would
    /// leave. Comparing the fit's residual with it tells a plane from a gently curved surface.
    var expectedSquaredNoise: Double
    /// The least-squares plane, facing the sensor.
    var plane: Plane
    /// The mean point.
    var centroid: SIMD3<Float>
    /// How many cells the region has.
    var cellCount: Int

    /// The depth noise at the region's centroid.
    func sigma(_ noise: DepthNoiseModel) -> Float { noise.sigma(atDepth: centroid.z) }

    /// Adds every point and cell of `other` to this region (the plane is refit separately).
    mutating func absorb(_ other: CellRegion) {
        moments.merge(other.moments)
        noise += other.noise
        expectedSquaredNoise += other.expectedSquaredNoise
        cellCount += other.cellCount
    }

    /// Refits the plane from the moments; `false` when they no longer define one.
    mutating func refit() -> Bool {
        guard let fit = FastPlaneFit(moments, noise: noise) else { return false }
        plane = fit.plane(facing: .zero)
        centroid = SIMD3<Float>(fit.centroid)
        return true
    }

    /// The standard deviation of the normal's direction (rad): RMS noise over √n times the
    /// in-plane spread along the narrower direction.
    var normalSigma: Float {
        guard let fit = FastPlaneFit(moments, noise: noise) else { return .infinity }
        let noise = (expectedSquaredNoise / Double(moments.count)).squareRoot()
        return Float(noise / (Double(moments.count).squareRoot() * max(fit.middleEigenvalue.squareRoot(), 1e-9)))
    }

    /// `true` when the points fit the plane as well as sensor noise allows (RMS residual at
    /// most `factor` times the expected noise, or at most `floor`).
    func isFlat(factor: Float, floor: Float = 0) -> Bool {
        guard let fit = FastPlaneFit(moments, noise: noise) else { return false }
        let expected = expectedSquaredNoise / Double(moments.count)
        return fit.meanSquaredError <= max(Double(factor * factor) * expected, Double(floor * floor))
    }
}

/// Groups planar cells into planes: seeds from the fullest bin of a normal histogram (after
/// CAPE), breadth-first growth over the 4-connected cell graph with angle and distance tests
/// against the growing region's own plane, then merging of adjacent coplanar regions.
struct RegionGrowing {
    /// The region of each cell, or −1.
    var cellRegion: ContiguousArray<Int32>
    /// The regions; `cellRegion` values index it.
    var regions: [CellRegion]

    /// Bins per axis of the normal histogram, over the normal's x and y in −1…1, separately for
    /// normals with negative and non-negative z. 16 bins are about 7° wide near the view axis.
    static let binsPerAxis = 16

    /// Steps to a cell's 4-connected neighbours, then to its diagonal ones.
    static let neighbourSteps = [(-1, 0), (1, 0), (0, -1), (0, 1), (-1, -1), (1, -1), (-1, 1), (1, 1)]

    /// The fewest lines of cells along a strip for ``isSliceOfBend(_:grid:stamp:attempt:configuration:)``
    /// to judge it: a short patch of a real surface (a table's warped edge, a cell across a
    /// fold) can show the surface turning beside it by chance.
    static let minimumBendLines = 5
    /// How many cells out from a strip's side the surface must keep turning, the same way and
    /// further each time, for the strip to be a slice of a bend. Where two flat surfaces meet
    /// at a crease, the cell across it leans halfway and the next cell of the other surface
    /// leans the rest of the way: two cells out can look like a bend, three cannot.
    static let bendSteps = 3

    static func bin(of normal: SIMD3<Float>) -> Int32 {
        let b = Float(binsPerAxis)
        let x = min(binsPerAxis - 1, max(0, Int((normal.x + 1) * 0.5 * b)))
        let y = min(binsPerAxis - 1, max(0, Int((normal.y + 1) * 0.5 * b)))
        return Int32((normal.z < 0 ? 0 : binsPerAxis * binsPerAxis) + y * binsPerAxis + x)
    }

    init(grid: inout CellGrid, configuration c: OrganizedPlaneDetector.Configuration) {
        let cellCount = grid.cells.count
        cellRegion = ContiguousArray(repeating: -1, count: cellCount)
        regions = []
        var binCounts = [Int](repeating: 0, count: 2 * RegionGrowing.binsPerAxis * RegionGrowing.binsPerAxis)
        // Best seeds first: the smallest residual relative to the noise expected at their depth.
        // Sorted as plain integers: a planar cell's quality is finite and not negative, so its
        // bits order as the values do (+ 0 turns a −0 into +0), and the cell index below them
        // keeps equal qualities in cell order.
        var keys: [UInt64] = []
        for i in 0..<cellCount where grid.cells[i].isPlanar {
            let cell = grid.cells[i]
            let bin = RegionGrowing.bin(of: cell.normal)
            grid.cells[i].bin = bin
            binCounts[Int(bin)] += 1
            let quality = cell.meanSquaredError / max(cell.sigma * cell.sigma, 1e-12) + 0
            keys.append(UInt64(quality.bitPattern) << 32 | UInt64(i))
        }
        guard !keys.isEmpty else { return }
        keys.sort()
        let order = keys.map { Int($0 & 0xFFFF_FFFF) }

        // A cell leaves the histogram when it is tried as a seed or joins a region.
        var inHistogram = [Bool](repeating: false, count: cellCount)
        for i in order { inHistogram[i] = true }
        // Each bin's cells, best first, and how far its seeds have been taken: finding the next
        // seed of a bin skips only cells that left the histogram, once each, instead of scanning
        // every planar cell again for every seed (which grew with the square of the cell count).
        var binCells = [[Int]](repeating: [], count: binCounts.count)
        for i in order { binCells[Int(grid.cells[i].bin)].append(i) }
        var binCursor = [Int](repeating: 0, count: binCounts.count)
        var stamp = [Int32](repeating: -1, count: cellCount)
        var attempt: Int32 = 0
        var queue: [Int] = []
        queue.reserveCapacity(cellCount)
        let cosMaximum = cos(c.maximumGrowAngle)
        // Faces at object scale are often thin oblique strips whose cells touch only at corners.
        let neighbourCount = c.splitsDisconnected ? 8 : 4

        while true {
            var bestBin = -1, bestCount = 0
            for (bin, count) in binCounts.enumerated() where count > bestCount { (bestBin, bestCount) = (bin, count) }
            guard bestBin >= 0 else { break }
            while binCursor[bestBin] < binCells[bestBin].count, !inHistogram[binCells[bestBin][binCursor[bestBin]]] {
                binCursor[bestBin] += 1
            }
            guard binCursor[bestBin] < binCells[bestBin].count else {
                binCounts[bestBin] = 0   // cannot happen; guards against an endless loop
                continue
            }
            let seed = binCells[bestBin][binCursor[bestBin]]
            inHistogram[seed] = false
            binCounts[bestBin] -= 1
            attempt += 1

            let seedCell = grid.cells[seed]
            var region = CellRegion(
                moments: seedCell.moments, noise: seedCell.noise,
                expectedSquaredNoise: Double(seedCell.moments.count) * Double(seedCell.sigma * seedCell.sigma),
                plane: Plane(unitNormal: seedCell.normal, offset: -dot(seedCell.normal, seedCell.centroid)),
                centroid: seedCell.centroid, cellCount: 1)
            queue.removeAll(keepingCapacity: true)
            queue.append(seed)
            stamp[seed] = attempt
            var head = 0, nextRefit = 2
            while head < queue.count {
                let current = queue[head]
                head += 1
                let cx = current % grid.columns, cy = current / grid.columns
                for direction in 0..<neighbourCount {
                    let (dx, dy) = RegionGrowing.neighbourSteps[direction]
                    let nx = cx + dx, ny = cy + dy
                    guard nx >= 0, ny >= 0, nx < grid.columns, ny < grid.rows else { continue }
                    let j = grid.index(nx, ny)
                    guard stamp[j] != attempt, cellRegion[j] < 0 else { continue }
                    let cell = grid.cells[j]
                    guard cell.isPlanar else { continue }
                    // The normal test allows for the cell normal's own uncertainty (four standard
                    // deviations: a far, noisy cell of the plane is rarely turned away), within bounds.
                    let angle = min(c.maximumGrowAngle, max(c.growAngle, 4 * cell.normalSigma))
                    let cosine = dot(cell.normal, region.plane.normal)
                    guard cosine >= cosMaximum, cosine >= cos(angle) else { continue }
                    // Faces of objects (``OrganizedPlaneDetector/Configuration/splitsDisconnected``)
                    // meet at folds, where the plane of a face seen steeply passes close to the
                    // cells of the face beside it: there the distance is taken along the ray
                    // (``RayDistance``). A room's floor, seen at a grazing angle far off, is grown
                    // by plain distance, so that it stays one plane.
                    let rayCosine = c.splitsDisconnected ? RayDistance.cosine(normal: region.plane.normal, point: cell.centroid) : 1
                    guard abs(region.plane.signedDistance(to: cell.centroid)) <= c.growDistanceFactor * cell.sigma * rayCosine
                    else { continue }
                    stamp[j] = attempt
                    queue.append(j)
                    region.moments.merge(cell.moments)
                    region.noise += cell.noise
                    region.expectedSquaredNoise += Double(cell.moments.count) * Double(cell.sigma * cell.sigma)
                    region.cellCount += 1
                    if region.cellCount >= nextRefit {
                        _ = region.refit()
                        nextRefit = region.cellCount * 2
                    }
                }
            }
            guard region.cellCount >= c.minimumCellsPerPlane, region.refit(), region.isFlat(factor: c.regionRMSFactor),
                  !RegionGrowing.isStripOnCurvedSurface(queue, region: region, grid: grid, regionOf: cellRegion,
                                                        stamp: stamp, attempt: attempt),
                  !RegionGrowing.isSliceOfBend(queue, grid: grid, stamp: stamp, attempt: attempt, configuration: c) else {
                continue   // the grown cells stay free for other seeds
            }
            let label = Int32(regions.count)
            for j in queue {
                cellRegion[j] = label
                if inHistogram[j] {
                    inHistogram[j] = false
                    binCounts[Int(grid.cells[j].bin)] -= 1
                }
            }
            regions.append(region)
        }
        mergeCoplanarNeighbours(grid: grid, configuration: c)
    }

    /// `true` when the region is a strip one cell wide that a smooth surface continues beyond its
    /// long sides: the typical false plane on a cylinder, whose cells along the axis share one
    /// normal and deviate from a plane by less than the noise. A real narrow plane seen at a
    /// grazing angle (a table top far away) is also one cell tall, but across its edges lie depth
    /// jumps, non-planar cells or other planes far off its plane, not a surface that bends away.
    /// (A planar cell turned away but still on the plane's edge would have joined the region
    /// had the surface been flat.) A strip facing the sensor (within 60°) is rejected outright.
    static func isStripOnCurvedSurface(_ cells: [Int], region: CellRegion, grid: CellGrid,
                                       regionOf: ContiguousArray<Int32>, stamp: [Int32], attempt: Int32) -> Bool {
        guard let first = cells.first else { return false }
        let x = first % grid.columns, y = first / grid.columns
        let isRow = cells.allSatisfy { $0 / grid.columns == y }
        let isColumn = cells.allSatisfy { $0 % grid.columns == x }
        guard isRow || isColumn else { return false }
        // A plane that is a strip in the image only because it is seen at a grazing angle (a
        // far table top) is kept; a strip facing the sensor is a physically narrow surface
        // (a pole, a chair leg, a slice of a cylinder), which PlaneKit does not report.
        if let direction = region.centroid.normalized, abs(dot(direction, region.plane.normal)) >= 0.5 {
            return true
        }
        // A neighbouring planar cell continues the surface when it is turned less than 60° and
        // lies beside the strip rather than above or below it: the step from the strip cell's
        // centroid to its centroid rises gently out of the region's plane (``risesGently(_:outOf:)``).
        func continues(from i: Int, _ nx: Int, _ ny: Int) -> Bool {
            guard nx >= 0, ny >= 0, nx < grid.columns, ny < grid.rows else { return false }
            let j = grid.index(nx, ny)
            guard stamp[j] != attempt, grid.cells[j].isPlanar else { return false }
            let cell = grid.cells[j]
            guard dot(cell.normal, region.plane.normal) > 0.5 else { return false }
            return risesGently(cell.centroid - grid.cells[i].centroid, outOf: region.plane.normal)
        }
        var curved = 0
        for i in cells {
            let cx = i % grid.columns, cy = i / grid.columns
            let eitherSide = isRow && !isColumn
                ? continues(from: i, cx, cy - 1) || continues(from: i, cx, cy + 1)
                : continues(from: i, cx - 1, cy) || continues(from: i, cx + 1, cy)
            if eitherSide { curved += 1 }
        }
        return 2 * curved >= cells.count
    }

    /// `true` when `step`, from one cell's centroid to a neighbouring cell's, rises at most 35°
    /// out of the plane with unit normal `normal`: the surface runs on between them, without a
    /// depth jump (a surface turning by θ rises about θ/2 from one cell to the next; a step or
    /// an edge to another surface rises much more steeply).
    static func risesGently(_ step: SIMD3<Float>, outOf normal: SIMD3<Float>) -> Bool {
        abs(dot(step, normal)) <= 0.7 * (step - dot(step, normal) * normal).length
    }

    /// `true` when the region is a narrow slice of a surface that keeps turning beside it: a
    /// strip two cells across on average (each line across it holds one to three cells side by
    /// side: a slanted strip crosses three on some lines), at least ``minimumBendLines`` long,
    /// beside whose long sides, on half its lines or more, the next ``bendSteps`` cells out
    /// each turn the same way by a steady angle, more than growth allows, up to 60° in all, and
    /// rise smoothly from one to the next. That is a cylinder seen close up, where a cell spans
    /// so little of the curve that neighbouring cells pass as one plane, and its axis runs
    /// slanted across the cells of a tilted camera. Beside a flat narrow face the surface stops
    /// turning at a fold or an edge; at a wall's corner it turns 90° within two cells. (Straight
    /// strips one cell wide are judged by ``isStripOnCurvedSurface(_:region:grid:regionOf:stamp:attempt:)``.)
    static func isSliceOfBend(_ cells: [Int], grid: CellGrid, stamp: [Int32], attempt: Int32,
                              configuration c: OrganizedPlaneDetector.Configuration) -> Bool {
        guard cells.count >= minimumBendLines else { return false }
        var lower = SIMD2<Int>(repeating: .max), upper = SIMD2<Int>(repeating: .min)
        for i in cells {
            let p = SIMD2(i % grid.columns, i / grid.columns)
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        guard lower.x != upper.x, lower.y != upper.y else { return false }
        // Lines across the strip: rows of a strip that runs down the image, else columns.
        let runsDown = upper.y - lower.y >= upper.x - lower.x
        let along = runsDown ? 1 : 0, across = 1 - along
        let lines = upper[along] - lower[along] + 1
        guard lines >= minimumBendLines, cells.count <= 2 * lines else { return false }
        var first = [Int](repeating: .max, count: lines), last = [Int](repeating: .min, count: lines)
        var count = [Int](repeating: 0, count: lines)
        for i in cells {
            let p = SIMD2(i % grid.columns, i / grid.columns)
            let line = p[along] - lower[along]
            first[line] = min(first[line], p[across])
            last[line] = max(last[line], p[across])
            count[line] += 1
        }
        guard (0..<lines).allSatisfy({ count[$0] > 0 && count[$0] <= 3 && last[$0] - first[$0] + 1 == count[$0] }) else {
            return false
        }
        // The grid index of the cell `position` across the strip on `line`, or nil off the grid.
        func index(line: Int, at position: Int) -> Int? {
            var p = SIMD2<Int>.zero
            p[along] = lower[along] + line
            p[across] = position
            guard p.x >= 0, p.y >= 0, p.x < grid.columns, p.y < grid.rows else { return nil }
            return grid.index(p.x, p.y)
        }
        // A step from cell a to cell b turns by more than growth allows b, stays within 60°, and
        // rises at most 35° out of a's plane (no depth jump).
        func turns(from a: Cell, to b: Cell) -> Bool {
            let angle = min(c.maximumGrowAngle, max(c.growAngle, 4 * b.normalSigma))
            let cosine = dot(a.normal, b.normal)
            guard cosine < cos(angle), cosine > 0.5 else { return false }
            return risesGently(b.centroid - a.centroid, outOf: a.normal)
        }
        func keepsTurning(line: Int, from edge: Int, outwards direction: Int) -> Bool {
            guard let e = index(line: line, at: edge) else { return false }
            var previous = grid.cells[e]
            let start = previous.normal
            var turned: Float = 1, lastTurn = SIMD3<Float>.zero, lastAngle: Float = 0
            for k in 1...bendSteps {
                guard let j = index(line: line, at: edge + k * direction), stamp[j] != attempt, grid.cells[j].isPlanar,
                      turns(from: previous, to: grid.cells[j]) else { return false }
                let next = grid.cells[j]
                // The same way each time, further from the strip's edge cell but within 60° of
                // it, and by a steady angle: between half and twice the step before.
                let turn = next.normal - previous.normal, cosine = dot(start, next.normal)
                let angle = acos(min(1, dot(previous.normal, next.normal)))
                guard dot(turn, lastTurn) >= 0, cosine < turned, cosine > 0.5,
                      k == 1 || (angle >= 0.5 * lastAngle && angle <= 2 * lastAngle) else { return false }
                (previous, turned, lastTurn, lastAngle) = (next, cosine, turn, angle)
            }
            return true
        }
        var bending = 0
        for line in 0..<lines where keepsTurning(line: line, from: first[line], outwards: -1)
            || keepsTurning(line: line, from: last[line], outwards: 1) {
            bending += 1
        }
        return 2 * bending >= lines
    }

    /// `true` when regions `a` and `b` describe one plane: similar normals, each centroid near the
    /// other's plane, and the union still as flat as noise allows.
    static func areCoplanar(_ a: CellRegion, _ b: CellRegion, configuration c: OrganizedPlaneDetector.Configuration) -> Bool {
        // The smaller region's plane is the less certain one: its normal may be off by a few of
        // its own standard deviations, and its plane must not be extrapolated to the larger
        // region. So: the small region's centroid must lie on the large region's plane, the
        // normals agree within the merge angle widened to the small normal's uncertainty, and
        // the union must still be flat.
        let (large, small) = a.moments.count >= b.moments.count ? (a, b) : (b, a)
        // No angle allowed below is wider than the widest growth angle: most pairs fail here,
        // before the small region's normal uncertainty (a plane fit) is computed.
        let cosine = dot(a.plane.normal, b.plane.normal)
        guard cosine >= cos(c.maximumGrowAngle) else { return false }
        let angle = min(c.maximumGrowAngle, max(c.mergeAngle, 4 * small.normalSigma))
        guard cosine >= cos(angle) else { return false }
        // Real sensors add systematic depth errors (the depth map's own distortion, a table's
        // warp) of up to about a centimetre, more than their noise near the sensor; merging
        // tolerates ``mergeTolerance`` of them.
        let reach = max(c.growDistanceFactor * small.sigma(c.noise), c.mergeTolerance)
        guard abs(large.plane.signedDistance(to: small.centroid)) <= reach else { return false }
        var union = a
        union.absorb(b)
        return union.isFlat(factor: c.regionRMSFactor, floor: c.mergeTolerance / 2)
    }

    /// Merges coplanar regions that are not adjacent but separated only by something in front
    /// of their plane (a pole in front of a wall, a chair on the floor) or by holes: one physical
    /// surface, one plane. Regions with their plane's surroundings visible between them (two
    /// tables at one height with the floor between) stay apart. The test walks the cell grid
    /// along the line between the regions' nearest cells.
    mutating func mergeAcrossOcclusions(grid: CellGrid, configuration c: OrganizedPlaneDetector.Configuration,
                                        parent: inout [Int]) {
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { x = parent[x] }
            return x
        }
        var merged = true
        while merged {
            merged = false
            let roots = regions.indices.filter { find($0) == $0 }
            guard roots.count > 1 else { return }
            // Each root's edge cells (a 4-neighbour in another region, a hole or off the grid)
            // as grid coordinates, in cell order: root r's are cells[first[r] ..< first[r + 1]].
            // The nearest pair of two regions' cells is a pair of edge cells: from any other
            // cell, the neighbour towards the other region is nearer.
            let rootOfRegion = regions.indices.map { Int32(find($0)) }
            var rootOf = [Int32](repeating: -1, count: cellRegion.count)
            for i in cellRegion.indices where cellRegion[i] >= 0 { rootOf[i] = rootOfRegion[Int(cellRegion[i])] }
            var isEdge = [Bool](repeating: false, count: cellRegion.count)
            var first = [Int](repeating: 0, count: regions.count + 1)
            for cy in 0..<grid.rows {
                for cx in 0..<grid.columns {
                    let i = grid.index(cx, cy), r = rootOf[i]
                    guard r >= 0 else { continue }
                    guard cx == 0 || cy == 0 || cx + 1 == grid.columns || cy + 1 == grid.rows
                        || rootOf[i - 1] != r || rootOf[i + 1] != r
                        || rootOf[i - grid.columns] != r || rootOf[i + grid.columns] != r else { continue }
                    isEdge[i] = true
                    first[Int(r) + 1] += 1
                }
            }
            for r in 0..<regions.count { first[r + 1] += first[r] }
            var cells = [SIMD2<Int32>](repeating: .zero, count: first[regions.count])
            var next = first
            for i in cellRegion.indices where isEdge[i] {
                let r = Int(rootOf[i])
                cells[next[r]] = SIMD2(Int32(i % grid.columns), Int32(i / grid.columns))
                next[r] += 1
            }
            outer: for (ia, a) in roots.enumerated() {
                for b in roots[(ia + 1)...] where find(a) == a && find(b) == b {
                    guard first[a] < first[a + 1], first[b] < first[b + 1],
                          RegionGrowing.areCoplanar(regions[a], regions[b], configuration: c),
                          RegionGrowing.areCoplanar(regions[b], regions[a], configuration: c) else { continue }
                    // The nearest pair of cells (by grid distance; the first such pair in cell order).
                    var best = (SIMD2<Int32>.zero, SIMD2<Int32>.zero, Int32.max)
                    for p in cells[first[a]..<first[a + 1]] {
                        for q in cells[first[b]..<first[b + 1]] {
                            let delta = p &- q
                            let d = delta.x &* delta.x &+ delta.y &* delta.y
                            if d < best.2 { best = (p, q, d) }
                        }
                    }
                    guard isOccludedGap(from: grid.index(Int(best.0.x), Int(best.0.y)), to: grid.index(Int(best.1.x), Int(best.1.y)),
                                        plane: regions[a].plane, regionA: a, regionB: b,
                                        grid: grid, configuration: c, find: find) else { continue }
                    regions[a].absorb(regions[b])
                    _ = regions[a].refit()
                    parent[b] = a
                    merged = true
                    break outer
                }
            }
        }
    }

    /// `true` when every cell strictly between grid cells `i` and `j` is a hole, belongs to one
    /// of the two regions, or lies in front of `plane` (or on it).
    func isOccludedGap(from i: Int, to j: Int, plane: Plane, regionA: Int, regionB: Int, grid: CellGrid,
                       configuration c: OrganizedPlaneDetector.Configuration, find: (Int) -> Int) -> Bool {
        let (x0, y0) = (i % grid.columns, i / grid.columns), (x1, y1) = (j % grid.columns, j / grid.columns)
        let steps = max(abs(x1 - x0), abs(y1 - y0))
        guard steps > 1 else { return true }
        for k in 1..<steps {
            let x = x0 + Int((Float(k * (x1 - x0)) / Float(steps)).rounded())
            let y = y0 + Int((Float(k * (y1 - y0)) / Float(steps)).rounded())
            let index = grid.index(x, y)
            let r = cellRegion[index]
            if r >= 0, find(Int(r)) == regionA || find(Int(r)) == regionB { continue }
            let cell = grid.cells[index]
            guard cell.sums.count > 0 else { continue }   // a hole
            // The depth along the cell's ray where it would meet the plane.
            guard let ray = cell.centroid.normalized else { continue }
            let denominator = dot(plane.normal, ray)
            guard abs(denominator) > 1e-4 else { return false }
            let onPlane = -plane.offset / denominator
            if cell.centroid.length > onPlane + c.growDistanceFactor * cell.sigma { return false }   // behind: a gap
        }
        return true
    }

    /// `true` when the pair of regions `a` comes before `b`: by first region, then by second.
    static func inRegionOrder(_ a: SIMD2<Int32>, _ b: SIMD2<Int32>) -> Bool {
        a.x != b.x ? a.x < b.x : a.y < b.y
    }

    /// Merges adjacent regions that are one plane (a region can stop growing at a noisy cell and
    /// a second seed then grows the rest), then renumbers the regions densely.
    mutating func mergeCoplanarNeighbours(grid: CellGrid, configuration c: OrganizedPlaneDetector.Configuration) {
        guard regions.count > 1 else { return }
        var parent = Array(0..<regions.count)
        var merged = true
        while merged {
            merged = false
            // Adjacent pairs of current regions, most parallel first; equally parallel ones in
            // the order of their regions, so that the merges do not depend on how a hash table
            // (seeded per process) would order them.
            var pairs: [SIMD2<Int32>] = []
            let diagonal = c.splitsDisconnected
            for cy in 0..<grid.rows {
                for cx in 0..<grid.columns {
                    let i = grid.index(cx, cy)
                    let own = cellRegion[i]
                    guard own >= 0 else { continue }
                    // The right, lower and (at object scale) both lower diagonal neighbours. Most
                    // are in the same region, whose root need not be looked up.
                    let right = cx + 1 < grid.columns, below = cy + 1 < grid.rows
                    @inline(__always) func note(_ j: Int, _ parent: inout [Int], _ pairs: inout [SIMD2<Int32>]) {
                        let other = cellRegion[j]
                        guard other >= 0, other != own else { return }
                        let a = Int32(UnionFind.root(Int(own), in: &parent))
                        let b = Int32(UnionFind.root(Int(other), in: &parent))
                        if a != b { pairs.append(SIMD2(min(a, b), max(a, b))) }
                    }
                    if right { note(i + 1, &parent, &pairs) }
                    if below { note(i + grid.columns, &parent, &pairs) }
                    if diagonal && right && below { note(i + grid.columns + 1, &parent, &pairs) }
                    if diagonal && cx > 0 && below { note(i + grid.columns - 1, &parent, &pairs) }
                }
            }
            pairs.sort(by: RegionGrowing.inRegionOrder)
            var ranked: [(parallel: Float, pair: SIMD2<Int32>)] = []
            for (k, pair) in pairs.enumerated() where k == 0 || pair != pairs[k - 1] {
                ranked.append((dot(regions[Int(pair.x)].plane.normal, regions[Int(pair.y)].plane.normal), pair))
            }
            ranked.sort { $0.parallel != $1.parallel ? $0.parallel > $1.parallel : RegionGrowing.inRegionOrder($0.pair, $1.pair) }
            for (_, pair) in ranked {
                let a = UnionFind.root(Int(pair.x), in: &parent), b = UnionFind.root(Int(pair.y), in: &parent)
                guard a != b, RegionGrowing.areCoplanar(regions[a], regions[b], configuration: c) else { continue }
                regions[a].absorb(regions[b])
                _ = regions[a].refit()
                parent[b] = a
                merged = true
            }
        }
        mergeAcrossOcclusions(grid: grid, configuration: c, parent: &parent)
        // Renumber densely.
        var newIndex = [Int32](repeating: -1, count: regions.count)
        var kept: [CellRegion] = []
        for r in regions.indices where UnionFind.root(r, in: &parent) == r {
            newIndex[r] = Int32(kept.count)
            kept.append(regions[r])
        }
        for i in cellRegion.indices where cellRegion[i] >= 0 {
            cellRegion[i] = newIndex[UnionFind.root(Int(cellRegion[i]), in: &parent)]
        }
        regions = kept
    }
}
