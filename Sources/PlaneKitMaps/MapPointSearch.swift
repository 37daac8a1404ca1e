#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// A global search for where a frame's points fit a map's, when both worlds have +Y up: starts
/// for ``MapPointRegistration`` wherever the camera is, not only where the map's keyframes were
/// (a view that revisits a mapped place from a metre away, or half off the map, lies out of
/// reach of point-to-plane ICP from every keyframe).
///
/// 1. **Turns** about +Y from the headings of the surfaces' normals: the frame's and the map's
///    histograms of heading (1° bins, weighted by how horizontal the normal is, smoothed over 3°)
///    are correlated around the circle, and the ``turnLimit`` best local maxima within half the
///    best are candidates (a room of square corners proposes four).
/// 2. **Shifts** voted, for each turn: every frame sample pairs with every map point (one per
///    bin and direction) whose normal agrees within 25°, and votes for the shift that would put
///    it there (10 cm bins). Where the frame lies on the map, the samples' votes pile up on one
///    shift; surfaces of another place spread theirs. Around each of the best-voted bins, the
///    votes of the 3×3×3 bins are summed and their centroid is the shift; the
///    ``startsPerTurn`` best, 30 cm apart, are the starts.
///
/// Pairing every sample with every agreeing map point costs samples × map points / the
/// directions the room's surfaces face: the frame is subsampled to ``sampleLimit`` samples.
struct MapPointSearch: Sendable {
    /// A start: map-from-session, and the votes it gathered.
    struct Start: Sendable {
        var mapFromSession: Transform
        var votes: Int
    }

    /// Most frame samples that vote.
    static let sampleLimit = 150
    /// Shift bins (m).
    static let binSize: Float = 0.1
    /// Turns kept: the best-correlated headings.
    static let turnLimit = 4
    /// Starts kept per turn.
    static let startsPerTurn = 2

    /// The map's points (map world, in bins: divided by ``binSize``) and unit normals, per
    /// bucket of the direction they face (``bucket(of:)``).
    private let binnedPoints: [ContiguousArray<SIMD3<Float>>], normals: [ContiguousArray<SIMD3<Float>>]
    /// Heading histogram of the map's normals.
    private let headings: [Float]
    /// The map points' bounding box.
    private let lower: SIMD3<Float>, upper: SIMD3<Float>

    /// Buckets: 12 headings of 30° for normals within 45° of horizontal, then up, then down.
    private static let headingBuckets = 12

    init(points: [SIMD3<Float>], normals: [SIMD3<Float>]) {
        var binned = [ContiguousArray<SIMD3<Float>>](repeating: [], count: Self.headingBuckets + 2), bucketed = binned
        var lower = SIMD3<Float>(repeating: .infinity), upper = SIMD3<Float>(repeating: -.infinity)
        // One voter per bin and direction: points closer than a bin add the same votes.
        var seen = Set<SIMD4<Int32>>()
        for (p, n) in zip(points, normals) {
            let b = Self.bucket(of: n)
            let cell = SparsePointMap.voxel(of: p, size: Self.binSize)
            guard seen.insert(SIMD4(cell, Int32(b))).inserted else { continue }
            binned[b].append(p / Self.binSize)
            bucketed[b].append(n)
            lower = pointwiseMin(lower, p)
            upper = pointwiseMax(upper, p)
        }
        headings = Self.headingHistogram(normals)
        binnedPoints = binned
        self.normals = bucketed
        self.lower = lower
        self.upper = upper
    }

    /// The bucket of a unit normal.
    static func bucket(of n: SIMD3<Float>) -> Int {
        if n.y > 0.7071 { return headingBuckets }
        if n.y < -0.7071 { return headingBuckets + 1 }
        return headingBucket(of: n)
    }

    /// The heading bucket of a normal's horizontal part.
    static func headingBucket(of n: SIMD3<Float>) -> Int {
        let heading = atan2(n.x, n.z)   // −π…π
        let k = Int(((heading + .pi) / (2 * .pi) * Float(headingBuckets)).rounded(.down))
        return min(headingBuckets - 1, max(0, k))
    }

    /// Heading histogram, 360 bins of 1°, each normal weighted by its horizontal length, smoothed.
    static func headingHistogram(_ normals: [SIMD3<Float>]) -> [Float] {
        var histogram = [Float](repeating: 0, count: 360)
        for n in normals {
            let horizontal = (n.x * n.x + n.z * n.z).squareRoot()
            guard horizontal > 0.7071 else { continue }
            let degrees = atan2(n.x, n.z) * 180 / .pi
            let k = (Int(degrees.rounded()) % 360 + 360) % 360
            histogram[k] += horizontal
        }
        // Smoothed over ±3° so that turns a degree or two apart still correlate.
        var smoothed = [Float](repeating: 0, count: 360)
        for k in 0..<360 {
            for d in -3...3 { smoothed[k] += histogram[(k + d + 360) % 360] * Float(4 - abs(d)) }
        }
        return smoothed
    }

    /// Candidate turns about +Y (rad) taking the session's headings onto the map's, best first.
    func turns(of sessionNormals: [SIMD3<Float>]) -> [Float] {
        let session = Self.headingHistogram(sessionNormals)
        var correlation = [Float](repeating: 0, count: 360)
        for shift in 0..<360 {
            var sum: Float = 0
            for k in 0..<360 where session[k] > 0 { sum += session[k] * headings[(k + shift) % 360] }
            correlation[shift] = sum
        }
        guard let best = correlation.max(), best > 0 else { return [] }
        var peaks: [(Int, Float)] = []
        for k in 0..<360 {
            let c = correlation[k]
            guard c >= 0.5 * best, c >= correlation[(k + 359) % 360], c > correlation[(k + 1) % 360] else { continue }
            peaks.append((k, c))
        }
        return peaks.sorted { $0.1 > $1.1 }.prefix(Self.turnLimit).map { Float($0.0) * .pi / 180 }
    }

    /// Starts for the frame's `samples` (session world), best-voted first.
    func starts(samples all: [(SIMD3<Float>, SIMD3<Float>)]) -> [Start] {
        guard lower.x <= upper.x, !all.isEmpty else { return [] }
        let step = max(1, all.count / Self.sampleLimit)
        let samples = Swift.stride(from: 0, to: all.count, by: step).map { all[$0] }
        var starts: [Start] = []
        let cosLimit: Float = 0.906   // cos 25°
        let size = Self.binSize
        var votes: [UInt16] = []
        for yaw in turns(of: samples.map(\.1)) {
            let rotation = Relocalizer.yawRotation(yaw)
            let turned = samples.map { (rotation * $0.0, rotation * $0.1) }
            var low = SIMD3<Float>(repeating: .infinity), high = SIMD3<Float>(repeating: -.infinity)
            for (p, _) in turned {
                low = pointwiseMin(low, p)
                high = pointwiseMax(high, p)
            }
            // Shifts that put some sample on some map point.
            let origin = lower - high - SIMD3(repeating: size)
            let extent = upper - low - origin + SIMD3(repeating: size)
            // A map or a frame kilometres wide (a damaged file) would need more bins than are
            // worth voting in: no start from it.
            let bins = (extent / size).rounded(.up)
            guard bins.x.isFinite, bins.y.isFinite, bins.z.isFinite, bins.x * bins.y * bins.z <= 16_000_000 else { continue }
            let dims = SIMD3<Int>(bins) &+ 1
            let count = dims.x * dims.y * dims.z
            if votes.count < count { votes = [UInt16](repeating: 0, count: count) } else { votes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
            votes.withUnsafeMutableBufferPointer { votes in
                for (p, n) in turned {
                    // The sample's bin offset: a map point at `q` bins votes for bin `q − offset`,
                    // never negative by the choice of `origin`, so truncation is the floor.
                    let offset = (p + origin) / size
                    // The sample's bucket, and for a heading the two beside it: a normal near a
                    // bucket's edge agrees with map normals across it.
                    let home = Self.bucket(of: n)
                    let beside = home < Self.headingBuckets ? 1 : 0
                    for step in -beside...beside {
                        let b = beside == 0 ? home : (home + step + Self.headingBuckets) % Self.headingBuckets
                        binnedPoints[b].withUnsafeBufferPointer { binned in
                            normals[b].withUnsafeBufferPointer { normals in
                                for k in 0..<binned.count where dot(normals[k], n) >= cosLimit {
                                    let d = binned[k] - offset
                                    let at = (Int(d.z) * dims.y + Int(d.y)) * dims.x + Int(d.x)
                                    if votes[at] < .max { votes[at] += 1 }
                                }
                            }
                        }
                    }
                }
            }
            // The best single bins, then the votes around each (a shift on a bin's edge splits
            // its votes between neighbours): their sum, and their centroid as the shift.
            let peakLimit = 16 * Self.startsPerTurn
            var peaks: [(at: Int, votes: UInt16)] = []
            votes.withUnsafeBufferPointer { votes in
                var floor: UInt16 = 0
                for at in 0..<count where votes[at] > floor {
                    let position = peaks.firstIndex { $0.votes < votes[at] } ?? peaks.count
                    peaks.insert((at, votes[at]), at: position)
                    if peaks.count > peakLimit { peaks.removeLast() }
                    if peaks.count == peakLimit { floor = peaks[peakLimit - 1].votes }
                }
            }
            var gathered: [(shift: SIMD3<Float>, votes: Int)] = peaks.map { peak in
                let cell = SIMD3(peak.at % dims.x, (peak.at / dims.x) % dims.y, peak.at / (dims.x * dims.y))
                var sum = 0, weighted = SIMD3<Float>.zero
                for dz in -1...1 {
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let c = cell &+ SIMD3(dx, dy, dz)
                            guard c.x >= 0, c.y >= 0, c.z >= 0, c.x < dims.x, c.y < dims.y, c.z < dims.z else { continue }
                            let v = Int(votes[(c.z * dims.y + c.y) * dims.x + c.x])
                            sum += v
                            weighted += Float(v) * SIMD3<Float>(c)
                        }
                    }
                }
                return (origin + (weighted / Float(sum) + 0.5) * size, sum)
            }
            gathered.sort { $0.votes > $1.votes }
            // Starts apart by 30 cm.
            var kept: [(shift: SIMD3<Float>, votes: Int)] = []
            for g in gathered where !kept.contains(where: { distance($0.shift, g.shift) < 3 * size }) {
                kept.append(g)
                if kept.count == Self.startsPerTurn { break }
            }
            for g in kept {
                starts.append(Start(mapFromSession: Transform(rotation: rotation, translation: g.shift), votes: g.votes))
            }
        }
        return starts.sorted { $0.votes > $1.votes }
    }
}
