#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// The 8-connected patches of a label image, each its own plane.
///
/// At room scale one physical plane is one plane wherever it shows (a wall on both sides of a
/// pole, as ARKit anchors it). At object scale the unit is a face: two boxes' tops at one height,
/// or the table seen through a gap in an object, are different faces, and range-image
/// benchmarks (Hoover et al. 1996) count each connected region on its own. Patches smaller than
/// the smallest plane are dropped.
struct ConnectedPatches {
    /// The moments of each kept patch's pixels; patch k is labelled k + 1.
    var moments: [PointMoments] = []
    /// The scatter depth noise adds to them.
    var noise: [NoiseScatter] = []
    /// Each patch's pixels lie in columns `minimum.x...maximum.x`, rows `minimum.y...maximum.y`.
    var minimum: [SIMD2<Int32>] = []
    var maximum: [SIMD2<Int32>] = []
    /// The patch of each label of the image (index 0, no label, is −1): label k + 1 is patch k
    /// until ``mergeCoplanar(noise:)`` joins patches.
    var regionOfLabel: [Int] = []
    /// The pairs of kept patches with pixels within ``neighbourReach`` of each other (up to two
    /// columns apart along a row, up to two rows and two columns apart otherwise), each once as
    /// `a << 32 | b` with patch a < patch b, in ascending order.
    var neighbours: [UInt64] = []

    /// Splits `labels` (0 = none) into patches in place: the pixels of kept patch k get k + 1,
    /// the pixels of patches under `minimumPoints` get 0.
    ///
    /// Works on runs: the maximal stretches of one label along a row (a face's row is one run or
    /// a few, so there are far fewer runs than pixels). Pass 1 joins, through a union–find over
    /// runs, each run to the runs of the row above with its label that touch it, diagonals
    /// included (8-connectivity). A patch's root is its first run, so patches are numbered in the
    /// order their first pixels come in the image. Pass 2 writes the final labels run by run and
    /// sums each patch's points in `Float` relative to its first point in the row (four at a time,
    /// in ``LaneSums``), adding each
    /// row's sums to the patch's `Double` moments (a row of a patch is a few hundred points at
    /// most, so `Float` loses nothing that matters there).
    init(labels: UnsafeMutableBufferPointer<UInt16>, points: UnsafeBufferPointer<SIMD3<Float>>, width: Int,
         height: Int, noise model: DepthNoiseModel, minimumPoints: Int) {
        var runs: [Run] = []
        runs.reserveCapacity(4 * height)
        var parent: [Int32] = []
        parent.reserveCapacity(4 * height)
        // Runs of row v are runs[rowStart[v] ..< rowStart[v + 1]].
        var rowStart = [Int](repeating: 0, count: height + 1)
        // Pass 1: runs, joined to the touching runs above with the same label.
        for v in 0..<height {
            let row = v * width
            rowStart[v] = runs.count
            var above = v > 0 ? rowStart[v - 1] : 0
            let aboveEnd = v > 0 ? rowStart[v] : 0
            var u = 0
            let words = UnsafeRawPointer(labels.baseAddress! + row)
            while u < width {
                // Holes and runs four pixels at a time (``LabelWords``) while a word fits.
                while u &+ 4 <= width && LabelWords.load(words, at: u) == 0 { u &+= 4 }
                guard u < width else { break }
                let label = labels[row + u]
                guard label != 0 else {
                    u += 1
                    continue
                }
                let start = u
                let fill = UInt64(label) &* 0x0001_0001_0001_0001
                while u &+ 4 <= width && LabelWords.load(words, at: u) == fill { u &+= 4 }
                while u < width && labels[row + u] == label { u += 1 }
                let own = Int32(runs.count)
                runs.append(Run(start: Int32(start), end: Int32(u), label: label))
                parent.append(own)
                // Runs above that end left of this one's diagonal end left of every later run's too.
                while above < aboveEnd && Int(runs[above].end) < start { above += 1 }
                var k = above
                while k < aboveEnd && Int(runs[k].start) <= u {
                    if runs[k].label == label {
                        let a = UnionFind.root(own, in: &parent)
                        let b = UnionFind.root(Int32(k), in: &parent)
                        if a != b { parent[Int(max(a, b))] = min(a, b) }
                    }
                    k += 1
                }
            }
        }
        rowStart[height] = runs.count
        // Roots and sizes.
        var size = [Int](repeating: 0, count: runs.count)
        for r in runs.indices {
            parent[r] = UnionFind.root(Int32(r), in: &parent)
            size[Int(parent[r])] += Int(runs[r].end - runs[r].start)
        }
        // Labels are 16-bit: beyond 65 534 patches (only in clouds of hundreds of millions of
        // points) the rest are dropped like small ones.
        var number = [Int32](repeating: -1, count: runs.count)
        var kept = 0
        for r in runs.indices where parent[r] == Int32(r) && size[r] >= minimumPoints && kept < Int(UInt16.max) - 1 {
            number[r] = Int32(kept)
            kept += 1
        }
        neighbours = Self.neighbours(runs: runs, rowStart: rowStart, parent: parent, number: number)
        // Pass 2: final labels and sums, a row at a time.
        var patches = [Accumulator](repeating: Accumulator(), count: kept)
        var touched = [Int](repeating: 0, count: kept)
        runs.withUnsafeBufferPointer { runs in
        parent.withUnsafeBufferPointer { parent in
        number.withUnsafeBufferPointer { number in
        patches.withUnsafeMutableBufferPointer { patches in
        touched.withUnsafeMutableBufferPointer { touched in
            for v in 0..<height {
                let row = v * width
                var touchedCount = 0
                for r in rowStart[v]..<rowStart[v + 1] {
                    let run = runs[r]
                    let k = Int(number[Int(parent[r])])
                    let first = row + Int(run.start), end = row + Int(run.end)
                    guard k >= 0 else {
                        (labels.baseAddress! + first).update(repeating: 0, count: end - first)
                        continue
                    }
                    if patches[k].row.quads == 0 {
                        patches[k].rowReference = points[first]
                        touched[touchedCount] = k
                        touchedCount += 1
                        patches[k].lower = pointwiseMin(patches[k].lower, SIMD2(run.start, Int32(v)))
                        patches[k].upper.y = Int32(v)
                    }
                    (labels.baseAddress! + first).update(repeating: UInt16(k + 1), count: end - first)
                    // Summed four points at a time in a local, which stays in registers, then
                    // stored once.
                    let reference = patches[k].rowReference
                    var sums = patches[k].row
                    var pointer = UnsafeRawPointer(points.baseAddress! + first)
                    var i = first
                    while i &+ 4 <= end {
                        let quad = PointQuad(pointer)
                        sums.add(quad, minus: reference, where: quad.validity)
                        pointer += 4 &* MemoryLayout<SIMD3<Float>>.stride
                        i &+= 4
                    }
                    while i < end {
                        let quad = PointQuad(single: points[i])
                        sums.add(quad, minus: reference, where: quad.validity)
                        i &+= 1
                    }
                    patches[k].row = sums
                    patches[k].upper.x = max(patches[k].upper.x, run.end - 1)
                }
                for t in 0..<touchedCount {
                    let k = touched[t]
                    patches[k].total.merge(patches[k].row.shifted(reference: patches[k].rowReference).moments)
                    patches[k].row = LaneSums()
                }
            }
        }
        }
        }
        }
        }
        regionOfLabel = [-1] + Array(0..<kept)
        moments = patches.map(\.total)
        minimum = patches.map(\.lower)
        maximum = patches.map(\.upper)
        noise = moments.map { m in
            guard let centroid = m.centroid else { return NoiseScatter() }
            return NoiseScatter(count: m.count, centroid: centroid, sigma: model.sigma(atDepth: centroid.z))
        }
    }

    /// The pairs of kept patches within reach of each other, found from the runs: a run and the
    /// later runs of its row that start at most `neighbourReach` columns past its last pixel, and
    /// a run and each run of the `neighbourReach` rows below that overlaps it widened by
    /// `neighbourReach` columns on each side. That is every pair of pixels of two patches at
    /// most `neighbourReach` apart along a row, or along a column with at most that many
    /// columns across.
    private static func neighbours(runs: [Run], rowStart: [Int], parent: [Int32], number: [Int32]) -> [UInt64] {
        let reach = Int32(neighbourReach)
        var pairs: [UInt64] = []
        let height = rowStart.count - 1
        // In each of the rows within reach below (two: `neighbourReach` is 2), the first run
        // that can still reach the current run or a later one (runs of a row come left to
        // right, so it only moves right).
        var firstBelow = InlineArray<2, Int>(repeating: 0)
        for v in 0..<height {
            for d in 0..<2 where v + 1 + d < height { firstBelow[d] = rowStart[v + 1 + d] }
            for r in rowStart[v]..<rowStart[v + 1] {
                let run = runs[r]
                var next = r + 1
                while next < rowStart[v + 1] && runs[next].start - run.end < reach {
                    note(r, next, parent: parent, number: number, into: &pairs)
                    next += 1
                }
                for d in 0..<2 where v + 1 + d < height {
                    let end = rowStart[v + 2 + d]
                    while firstBelow[d] < end && runs[firstBelow[d]].end - 1 < run.start - reach { firstBelow[d] += 1 }
                    var s = firstBelow[d]
                    while s < end && runs[s].start <= run.end - 1 + reach {
                        note(r, s, parent: parent, number: number, into: &pairs)
                        s += 1
                    }
                }
            }
        }
        pairs.sort()
        var unique = 0
        for pair in pairs where unique == 0 || pairs[unique - 1] != pair {
            pairs[unique] = pair
            unique += 1
        }
        pairs.removeLast(pairs.count - unique)
        return pairs
    }

    /// Adds the pair of the patches of runs `r` and `s` when both are kept and differ.
    @inline(__always)
    private static func note(_ r: Int, _ s: Int, parent: [Int32], number: [Int32], into pairs: inout [UInt64]) {
        let a = number[Int(parent[r])], b = number[Int(parent[s])]
        guard a >= 0, b >= 0, a != b else { return }
        // Along a boundary the same pair comes up run after run.
        let pair = UInt64(min(a, b)) << 32 | UInt64(max(a, b))
        if pairs.last != pair { pairs.append(pair) }
    }

    /// A maximal stretch of one label along a row: columns `start ..< end`.
    private struct Run {
        var start: Int32
        var end: Int32
        var label: UInt16
    }

    /// One kept patch while pass 2 sums it.
    private struct Accumulator {
        /// The current row's points, relative to `rowReference`, in lanes.
        var row = LaneSums()
        /// The patch's first point in the current row.
        var rowReference = SIMD3<Float>.zero
        /// The rows done so far.
        var total = PointMoments()
        /// The pixel bounds so far.
        var lower = SIMD2<Int32>(Int32.max, Int32.max)
        var upper = SIMD2<Int32>(-1, -1)
    }
}

extension ConnectedPatches {
    /// Two patches whose union leaves at most this many σ of RMS residual …
    static let mergeRMSFactor: Float = 2
    /// … or no more than this many times the RMS residual of the rougher patch alone …
    static let roughnessGrowth: Double = 1.25
    /// … and whose every part lies within this many σ of the union's plane …
    static let sideRMSFactor: Float = 3
    /// … or within this many times the union's RMS residual, are one face.
    static let sideGrowth: Double = 3
    /// Patches this close (pixels) count as neighbours: a face split by a seam of unlabelled
    /// pixels one or two wide (a crease in the data, a row of dropouts) is still one face.
    static let neighbourReach = 2

    /// Merges neighbouring patches that lie on one plane: the surviving patches keep their
    /// order, and ``regionOfLabel`` sends each label to the patch it is now part of. The label
    /// image is left as it is; the detector's final renumbering rewrites it.
    ///
    /// A face whose cells disagreed (a noisy dark surface, a strip too thin for whole cells)
    /// grows as several regions that no cell-level test joins. Their pixels, taken together,
    /// still fit one plane as well as the noise allows (at most ``mergeRMSFactor`` σ at the
    /// union's depth, or for a face rougher than the noise model no more than ``roughnessGrowth``
    /// times its rougher part) while two faces meeting at a fold do not, however small the fold
    /// angle, once each side has a few hundred pixels. Each part must also lie on the union's
    /// plane (within ``sideRMSFactor`` σ, or ``sideGrowth`` times the union's residual): a thin
    /// patch beside a large face barely moves the union's residual, however far off it lies.
    /// No angle between the parts' own planes is required: a strip a few pixels wide on a depth
    /// staircase fits a plane tilted by tens of degrees (one tread of the steps), yet lies on its
    /// face. Pairs are tried most parallel first; merging repeats until no pair passes.
    mutating func mergeCoplanar(noise model: DepthNoiseModel) {
        guard moments.count > 1, !neighbours.isEmpty else { return }
        var parent = Array(moments.indices)
        func fit(_ k: Int) -> FastPlaneFit? { FastPlaneFit(moments[k], noise: noise[k]) }
        var merged = true
        while merged {
            merged = false
            var candidates: [(cosine: Double, a: Int, b: Int)] = []
            var seen = Set<UInt64>()
            for pair in neighbours {
                let a = UnionFind.root(Int(pair >> 32), in: &parent), b = UnionFind.root(Int(pair & 0xFFFF_FFFF), in: &parent)
                guard a != b, seen.insert(UInt64(min(a, b)) << 32 | UInt64(max(a, b))).inserted,
                      let fa = fit(a), let fb = fit(b) else { continue }
                let cosine = abs((fa.normal * fb.normal).sum())
                candidates.append((cosine, a, b))
            }
            candidates.sort { $0.cosine > $1.cosine }
            for candidate in candidates {
                let a = UnionFind.root(candidate.a, in: &parent), b = UnionFind.root(candidate.b, in: &parent)
                guard a != b else { continue }
                let union = moments[a] + moments[b]
                var unionNoise = noise[a]
                unionNoise += noise[b]
                guard let joined = FastPlaneFit(union, noise: unionNoise), let fa = fit(a), let fb = fit(b) else { continue }
                // Within 2σ of the noise model, or, for a face noisier than the model (seen at a
                // grazing angle, dark), no rougher than its rougher part by more than a quarter.
                let sigma = Double(model.sigma(atDepth: Float(joined.centroid.z)))
                let own = max(fa.meanSquaredError, fb.meanSquaredError)
                let limit = max(Double(Self.mergeRMSFactor) * Double(Self.mergeRMSFactor) * sigma * sigma,
                                Self.roughnessGrowth * Self.roughnessGrowth * own)
                guard joined.meanSquaredError <= limit else { continue }
                // Each part must lie on the union's plane too: the union of a large face and a
                // small patch of the face beside it keeps the large face's residual, but leaves
                // the small one millimetres off.
                let sideLimit = max(Double(Self.sideRMSFactor * Self.sideRMSFactor) * sigma * sigma,
                                    Self.sideGrowth * Self.sideGrowth * joined.meanSquaredError)
                guard joined.meanSquaredDistance(of: moments[a]) <= sideLimit,
                      joined.meanSquaredDistance(of: moments[b]) <= sideLimit else { continue }
                moments[a] = union
                noise[a] = unionNoise
                minimum[a] = pointwiseMin(minimum[a], minimum[b])
                maximum[a] = pointwiseMax(maximum[a], maximum[b])
                parent[b] = a
                merged = true
            }
        }
        // Renumber: the surviving patches keep their order.
        var number = [Int](repeating: -1, count: moments.count)
        var roots: [Int] = []
        for k in moments.indices where UnionFind.root(k, in: &parent) == k {
            number[k] = roots.count
            roots.append(k)
        }
        guard roots.count < moments.count else { return }
        for label in regionOfLabel.indices.dropFirst() {
            regionOfLabel[label] = number[UnionFind.root(regionOfLabel[label], in: &parent)]
        }
        moments = roots.map { moments[$0] }
        noise = roots.map { noise[$0] }
        minimum = roots.map { minimum[$0] }
        maximum = roots.map { maximum[$0] }
    }
}
