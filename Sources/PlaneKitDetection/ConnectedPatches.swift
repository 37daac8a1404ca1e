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

    /// Splits `labels` (0 = none) into patches in place: the pixels of kept patch k get k + 1,
    /// the pixels of patches under `minimumPoints` get 0.
    ///
    /// Two passes of a union–find over provisional patch numbers: the first joins each labelled
    /// pixel to its already visited neighbours with the same label (left, and the three above),
    /// the second sums each patch's points and writes the final labels.
    init(labels: UnsafeMutableBufferPointer<UInt16>, points: UnsafeBufferPointer<SIMD3<Float>>, width: Int,
         height: Int, noise model: DepthNoiseModel, minimumPoints: Int) {
        let count = width * height
        var patch = [Int32](repeating: -1, count: count)
        var parent: [Int32] = []
        func find(_ x: Int32) -> Int32 {
            var x = x
            while parent[Int(x)] != x {
                parent[Int(x)] = parent[Int(parent[Int(x)])]
                x = parent[Int(x)]
            }
            return x
        }
        func union(_ a: Int32, _ b: Int32) {
            let ra = find(a), rb = find(b)
            if ra != rb { parent[Int(max(ra, rb))] = min(ra, rb) }
        }
        for v in 0..<height {
            for u in 0..<width {
                let i = v * width + u
                let label = labels[i]
                guard label != 0 else { continue }
                var own: Int32 = -1
                func join(_ j: Int) {
                    guard labels[j] == label else { return }
                    if own < 0 { own = patch[j] } else { union(own, patch[j]) }
                }
                // Visited neighbours: left, up-left, up, up-right.
                if u > 0 { join(i - 1) }
                if v > 0 {
                    if u > 0 { join(i - width - 1) }
                    join(i - width)
                    if u + 1 < width { join(i - width + 1) }
                }
                if own < 0 {
                    own = Int32(parent.count)
                    parent.append(own)
                }
                patch[i] = own
            }
        }
        // Sizes of the roots, then the kept roots' numbers.
        var size = [Int](repeating: 0, count: parent.count)
        for i in 0..<count where patch[i] >= 0 {
            let root = find(patch[i])
            patch[i] = root
            size[Int(root)] += 1
        }
        var number = [Int32](repeating: -1, count: parent.count)
        // Labels are 16-bit: beyond 65 534 patches (only in clouds of hundreds of millions of
        // points) the rest are dropped like small ones.
        for root in parent.indices where parent[root] == Int32(root) && size[root] >= minimumPoints
            && moments.count < Int(UInt16.max) - 1 {
            number[root] = Int32(moments.count)
            moments.append(PointMoments())
            minimum.append(SIMD2(Int32.max, Int32.max))
            maximum.append(SIMD2(-1, -1))
        }
        for v in 0..<height {
            for u in 0..<width {
                let i = v * width + u
                guard patch[i] >= 0 else { continue }
                let k = Int(number[Int(patch[i])])
                guard k >= 0 else {
                    labels[i] = 0
                    continue
                }
                labels[i] = UInt16(k + 1)
                moments[k].add(points[i])
                let pixel = SIMD2(Int32(u), Int32(v))
                minimum[k] = pointwiseMin(minimum[k], pixel)
                maximum[k] = pointwiseMax(maximum[k], pixel)
            }
        }
        noise = moments.map { m in
            guard let centroid = m.centroid else { return NoiseScatter() }
            return NoiseScatter(count: m.count, centroid: centroid, sigma: model.sigma(atDepth: centroid.z))
        }
    }
}

extension ConnectedPatches {
    /// Two patches whose union leaves at most this many σ of RMS residual …
    static let mergeRMSFactor: Float = 2
    /// … or no more than this many times the RMS residual of the rougher patch alone …
    static let roughnessGrowth: Double = 1.25
    /// … and whose planes are at most this far apart (rad) are one face.
    static let mergeAngle: Float = 30 * .pi / 180
    /// Patches this close (pixels) count as neighbours: a face split by a seam of unlabelled
    /// pixels one or two wide (a crease in the data, a row of dropouts) is still one face.
    static let neighbourReach = 2

    /// Merges neighbouring patches that lie on one plane and renumbers the labels.
    ///
    /// A face whose cells disagreed (a noisy dark surface, a strip too thin for whole cells)
    /// grows as several regions that no cell-level test joins. Their pixels, taken together,
    /// still fit one plane as well as the noise allows (at most ``mergeRMSFactor`` σ at the
    /// union's depth, or for a face rougher than the noise model no more than ``roughnessGrowth``
    /// times its rougher part) while two faces meeting at a fold do not, however small the fold
    /// angle, once each side has a few hundred pixels. Pairs are tried most parallel first; merging
    /// repeats until no pair passes.
    mutating func mergeCoplanar(labels: UnsafeMutableBufferPointer<UInt16>, width: Int, height: Int,
                                noise model: DepthNoiseModel) {
        guard moments.count > 1 else { return }
        var pairs = Set<UInt32>()
        let reach = Self.neighbourReach
        for v in 0..<height {
            for u in 0..<width {
                let a = labels[v * width + u]
                guard a != 0 else { continue }
                func pair(_ du: Int, _ dv: Int) {
                    let nu = u + du, nv = v + dv
                    guard nu >= 0, nu < width, nv < height else { return }
                    let b = labels[nv * width + nu]
                    guard b != 0, b != a else { return }
                    pairs.insert(UInt32(min(a, b)) << 16 | UInt32(max(a, b)))
                }
                for d in 1...reach {
                    pair(d, 0)
                    pair(0, d)
                    pair(d, d)
                    pair(-d, d)
                }
            }
        }
        guard !pairs.isEmpty else { return }
        var parent = Array(moments.indices)
        func find(_ x: Int) -> Int {
            var x = x
            while parent[x] != x {
                parent[x] = parent[parent[x]]
                x = parent[x]
            }
            return x
        }
        func fit(_ k: Int) -> FastPlaneFit? { FastPlaneFit(moments[k], noise: noise[k]) }
        let cosMerge = cos(Self.mergeAngle)
        var merged = true
        while merged {
            merged = false
            var candidates: [(cosine: Double, a: Int, b: Int)] = []
            var seen = Set<UInt64>()
            for key in pairs {
                let a = find(Int(key >> 16) - 1), b = find(Int(key & 0xFFFF) - 1)
                guard a != b, seen.insert(UInt64(min(a, b)) << 32 | UInt64(max(a, b))).inserted,
                      let fa = fit(a), let fb = fit(b) else { continue }
                let cosine = abs((fa.normal * fb.normal).sum())
                if cosine >= Double(cosMerge) { candidates.append((cosine, a, b)) }
            }
            candidates.sort { $0.cosine > $1.cosine }
            for candidate in candidates {
                let a = find(candidate.a), b = find(candidate.b)
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
                moments[a] = union
                noise[a] = unionNoise
                minimum[a] = pointwiseMin(minimum[a], minimum[b])
                maximum[a] = pointwiseMax(maximum[a], maximum[b])
                parent[b] = a
                merged = true
            }
        }
        // Renumber: the surviving patches keep their order.
        var number = [UInt16](repeating: 0, count: moments.count + 1)
        var kept = 0
        for k in moments.indices where find(k) == k {
            kept += 1
            number[k + 1] = UInt16(kept)
        }
        guard kept < moments.count else { return }
        for k in moments.indices { number[k + 1] = number[find(k) + 1] }
        for i in 0..<labels.count where labels[i] != 0 { labels[i] = number[Int(labels[i])] }
        let roots = moments.indices.filter { find($0) == $0 }
        moments = roots.map { moments[$0] }
        noise = roots.map { noise[$0] }
        minimum = roots.map { minimum[$0] }
        maximum = roots.map { maximum[$0] }
    }
}
