#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry

/// Faces no region grew from, found among the pixels no plane took. At object scale a region
/// starts from a 6-pixel cell that fits a plane within the noise; a face seen obliquely, a few
/// pixels across in the range image, holds no such cell, and neither does one warped by a
/// millimetre across its cells. Their points still lie on one plane within the noise, so they
/// are looked for by that alone (on SegComp's ABW development scans this finds three faces that
/// were missed, of 265 to 800 pixels):
///
/// 1. The 4-connected components of unlabelled valid pixels are taken one at a time; one
///    smaller than the smallest plane is left.
/// 2. In each, a seeded RANSAC proposes planes through three of its points and keeps the one
///    most of them lie on, measured along the viewing ray (within `distanceFactor` times the
///    spread expected there: across a face seen at 85°, a point's depth step moves it a tenth
///    as far from the plane, so a distance across the plane would admit points ten times as far
///    off in depth); a least-squares fit to those points refines it. The spread along the ray
///    is the depth noise σ and, on a face seen at an angle θ from face-on, the point's stray
///    across its ray (`lateralNoise` times its depth) times tan θ:
///    √(σ² + (lateral · tan θ)²). At 85° on SegComp's ABW scans that is about 3 mm against
///    σ = 0.5 mm. A plane seen within 2° of edge-on is not proposed (``minimumViewCosine``),
///    and a component where no plane holds a fifth of the points is left as clutter.
/// 3. The largest 4-connected set of the component's pixels on that plane is fitted again, alone,
///    and the largest connected set on the refitted plane becomes a face if it is as large as
///    the smallest plane and its points gather near the plane rather than fill the tolerance
///    band evenly (``maximumBandFill``). It then takes the neighbouring pixels of other planes
///    that lie on it and nearer to it than to their own plane (where such a face meets a larger
///    one, the pixel growth may have given the larger one its first pixels).
/// 4. What is left of the component is searched again, up to ``facesPerComponent`` times.
///
/// The new faces get labels after the largest in use; ``ConnectedPatches`` then treats them as
/// any other, and joins one that lies on a neighbouring face's plane to it.
enum LeftoverFaces {
    /// Planes a RANSAC search proposes at most (fewer once the best has enough of the points that
    /// a sample of three from its face would have come up with 99% certainty).
    static let hypotheses = 64
    /// At most this many points (a regular subsample of a larger component) count each proposal.
    static let countedPoints = 256
    /// Faces taken from one component at most.
    static let facesPerComponent = 6
    /// The cosine of the widest angle between a face's normal and the viewing ray (88°). A few
    /// columns of pixels of any depths (clutter, mixed pixels along a silhouette) lie in a thin
    /// wedge of rays, so on one plane through the sensor, seen edge-on: such a plane is no
    /// evidence of a surface.
    static let minimumViewCosine: Float = 0.035
    /// The largest RMS of a face's offsets from its plane, in units of the tolerance. Points of a
    /// face as noisy as the model expects gather near the plane (0.33 for Gaussian noise within
    /// 3σ); points of a surface noisier than that (a dark face, whose readings scatter by
    /// millimetres) fill the band evenly (0.58), and the largest connected set on any plane
    /// through them is a fragment of it.
    static let maximumBandFill: Float = 0.45

    /// Labels the faces found among `labels`' unlabelled valid pixels with new labels after the
    /// largest in use, and returns whether it found any. `planes[k]` is the plane `(n, offset)`
    /// of label `k` (zero where there is none). A point is on a plane when the plane's depth on
    /// its ray is within `distanceFactor` times the spread expected along that ray (σ from
    /// `noise` at its depth, and `lateralNoise` times its depth across the ray). The search is
    /// seeded, so the same input gives the same labels.
    @discardableResult
    static func recover(labels: UnsafeMutableBufferPointer<UInt16>, points: UnsafeBufferPointer<SIMD3<Float>>,
                        width: Int, height: Int, planes: [SIMD4<Float>], noise: DepthNoiseModel, lateralNoise: Float = 0,
                        distanceFactor: Float, minimumPoints: Int) -> Bool {
        let count = width * height
        guard count > 0, labels.count >= count, points.count >= count else { return false }
        var search = Search(labels: labels, points: points, width: width, height: height, planes: planes, noise: noise,
                            lateralNoise: lateralNoise, distanceFactor: distanceFactor,
                            minimumPoints: max(3, minimumPoints))
        guard search.nextLabel < Int(UInt16.max) else { return false }
        var component: [Int] = []
        // Most pixels are labelled: eight at a time (``LabelWords``) are passed over when none is 0.
        let words = UnsafeRawPointer(labels.baseAddress!)
        var start = 0
        while start < count {
            if start &+ 8 <= count, !LabelWords.hasZeroLane(LabelWords.load(words, at: start)),
               !LabelWords.hasZeroLane(LabelWords.load(words, at: start &+ 4)) {
                start &+= 8
                continue
            }
            if labels[start] == 0 && search.reached[start] == 0 && CellGrid.isValid(points[start]) {
                search.collectComponent(from: start, into: &component)
                if component.count >= search.minimumPoints { search.extractFaces(from: component) }
                if search.nextLabel >= Int(UInt16.max) { break }
            }
            start &+= 1
        }
        return search.found
    }

    /// The state of one image's search.
    private struct Search {
        let labels: UnsafeMutableBufferPointer<UInt16>
        let points: UnsafeBufferPointer<SIMD3<Float>>
        /// The image's width and pixel count.
        let width: Int, count: Int
        let planes: [SIMD4<Float>]
        let noise: DepthNoiseModel
        let lateralNoise: Float
        let distanceFactor: Float
        let minimumPoints: Int
        /// The next label to give.
        var nextLabel: Int
        var found = false
        /// Per pixel, the pass that last marked it on a plane, and the flood that last reached it
        /// (0: none yet, so a pixel in no component so far).
        var onPlane: [Int32], reached: [Int32]
        var pass: Int32 = 0, floodCount: Int32 = 0
        var random = SplitMix64(seed: 0x1EF7_0F4C_E5)
        var stack: [Int] = []

        init(labels: UnsafeMutableBufferPointer<UInt16>, points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
             planes: [SIMD4<Float>], noise: DepthNoiseModel, lateralNoise: Float, distanceFactor: Float,
             minimumPoints: Int) {
            self.labels = labels
            self.points = points
            self.width = width
            count = width * height
            self.planes = planes
            self.noise = noise
            self.lateralNoise = lateralNoise
            self.distanceFactor = distanceFactor
            self.minimumPoints = minimumPoints
            nextLabel = Int(UnsafeBufferPointer(rebasing: labels[0..<(width * height)]).max() ?? 0) + 1
            onPlane = [Int32](repeating: 0, count: width * height)
            reached = [Int32](repeating: 0, count: width * height)
        }

        /// The 4-neighbours of pixel `i` of a `width`-wide image of `count` pixels, passed to `body`.
        @inline(__always) private static func forEachNeighbour(of i: Int, width: Int, count: Int, _ body: (Int) -> Void) {
            let u = i % width
            if u > 0 { body(i - 1) }
            if u + 1 < width { body(i + 1) }
            if i >= width { body(i - width) }
            if i + width < count { body(i + width) }
        }

        /// How far `plane`'s depth on `p`'s ray is from `p`'s, δ = |n·p + d| · z / |n·p|, and the
        /// tolerance there, t = distanceFactor · √(σ² + (lateral · z · tan θ)²), both squared and
        /// times (n·p)² so that comparing them divides nothing: tan²θ · (n·p)² = |p|² − (n·p)².
        @inline(__always) private func depthOffset(_ plane: SIMD4<Float>, _ p: SIMD3<Float>) -> (offset: Float, tolerance: Float) {
            let facing = plane.x * p.x + plane.y * p.y + plane.z * p.z
            let offset = (facing + plane.w) * p.z
            let sigma = noise.sigma(atDepth: p.z), lateral = lateralNoise * p.z
            let across = max(0, (p * p).sum() - facing * facing)
            return (offset * offset,
                    distanceFactor * distanceFactor * (sigma * sigma * facing * facing + lateral * lateral * across))
        }

        /// `true` when `p` is on `plane`: its depth within the tolerance of the plane's on its ray.
        @inline(__always) private func isOn(_ plane: SIMD4<Float>, _ p: SIMD3<Float>) -> Bool {
            let (offset, tolerance) = depthOffset(plane, p)
            return offset <= tolerance
        }

        /// Which pixels a flood takes: unlabelled valid ones (a component), or unlabelled ones
        /// marked on a plane pass.
        private enum Membership {
            case leftover
            case onPlane(Int32)
        }

        /// The pixels 4-connected to `start` that `membership` admits (`start` is taken as
        /// admitted), each marked reached by this flood.
        private mutating func flood(from start: Int, admitting membership: Membership, into set: inout [Int]) {
            floodCount += 1
            let flood = floodCount
            set.removeAll(keepingCapacity: true)
            reached[start] = flood
            stack.append(start)
            while let i = stack.popLast() {
                set.append(i)
                Self.forEachNeighbour(of: i, width: width, count: count) { j in
                    guard reached[j] != flood, labels[j] == 0 else { return }
                    switch membership {
                    case .leftover: guard CellGrid.isValid(points[j]) else { return }
                    case .onPlane(let mark): guard onPlane[j] == mark else { return }
                    }
                    reached[j] = flood
                    stack.append(j)
                }
            }
        }

        /// The unlabelled valid pixels 4-connected to `start`.
        mutating func collectComponent(from start: Int, into component: inout [Int]) {
            flood(from: start, admitting: .leftover, into: &component)
        }

        /// Takes faces out of one component (see ``LeftoverFaces``).
        mutating func extractFaces(from component: [Int]) {
            var remaining = component
            for _ in 0..<LeftoverFaces.facesPerComponent where remaining.count >= minimumPoints {
                guard let proposed = bestPlane(among: remaining) else { return }
                let first = largestConnectedSet(on: proposed, among: remaining)
                // The plane again, fitted to the face alone: the search's plane was fitted to
                // every point on it, and a steep plane's wide band also takes in a few columns of
                // whatever lies beyond the face, which tilt it further towards edge-on.
                guard first.count >= minimumPoints, let plane = fitted(to: first) else { return }
                let face = largestConnectedSet(on: plane, among: remaining)
                guard face.count >= minimumPoints, isConcentrated(face, around: plane) else { return }
                let label = UInt16(nextLabel)
                for i in face { labels[i] = label }
                takeNeighbours(of: face, onto: plane, label: label)
                nextLabel += 1
                found = true
                guard nextLabel < Int(UInt16.max) else { return }
                remaining.removeAll { labels[$0] != 0 }
            }
        }

        /// The plane most of `pixels`' points lie on: the best of ``hypotheses`` planes through
        /// three of them, counted on a subsample, then fitted by least squares to the points on it.
        private mutating func bestPlane(among pixels: [Int]) -> SIMD4<Float>? {
            let step = max(1, pixels.count / LeftoverFaces.countedPoints)
            let counted = (pixels.count + step - 1) / step
            var best: SIMD4<Float>?
            var bestCount = 0
            var needed = LeftoverFaces.hypotheses
            var tried = 0
            while tried < needed {
                tried += 1
                let a = points[pixels[pick(pixels.count)]], b = points[pixels[pick(pixels.count)]]
                let c = points[pixels[pick(pixels.count)]]
                let normal = cross(b - a, c - a)
                let length = (normal * normal).sum().squareRoot()
                guard length > 0, length.isFinite else { continue }
                let n = normal / length
                guard Self.isSeen(n, at: a) else { continue }
                let plane = SIMD4(n, -dot(n, a))
                var inliers = 0
                for k in stride(from: 0, to: pixels.count, by: step) {
                    let p = points[pixels[k]]
                    if isOn(plane, p) { inliers += 1 }
                }
                if inliers > bestCount {
                    bestCount = inliers
                    best = plane
                    // Enough proposals that one drew three points on this plane's face with 99%
                    // certainty, had the face the share of the points this one has.
                    let share = Double(inliers) / Double(counted)
                    let miss = 1 - share * share * share
                    if miss <= 0 {
                        needed = tried
                    } else if miss < 1 {
                        needed = min(needed, Int((log(0.01) / log(miss)).rounded(.up)))
                    }
                }
            }
            // A face with under a fifth of the points would come up in 64 proposals less than
            // half the time: what is found below that is chance, and the component mostly clutter.
            guard let best, 5 * bestCount >= counted else { return nil }
            return fitted(to: pixels, where: best)
        }

        /// The least-squares plane of the points of `pixels` (those on `plane`, if one is given),
        /// unless it is seen within 2° of edge-on.
        private func fitted(to pixels: [Int], where plane: SIMD4<Float>? = nil) -> SIMD4<Float>? {
            var moments = PointMoments()
            for i in pixels where plane.map({ isOn($0, points[i]) }) ?? true { moments.add(points[i]) }
            guard let fit = moments.fit, Self.isSeen(fit.plane.normal, at: fit.centroid) else { return nil }
            return SIMD4(fit.plane.normal, fit.plane.offset)
        }

        /// `true` when `face`'s points gather near `plane` rather than fill its tolerance band
        /// evenly: the RMS of their offsets, in units of the tolerance, is at most
        /// ``maximumBandFill``.
        private func isConcentrated(_ face: [Int], around plane: SIMD4<Float>) -> Bool {
            var fill: Float = 0
            for i in face {
                let (offset, tolerance) = depthOffset(plane, points[i])
                fill += offset / max(tolerance, .leastNormalMagnitude)
            }
            return fill <= LeftoverFaces.maximumBandFill * LeftoverFaces.maximumBandFill * Float(face.count)
        }

        /// `true` when a plane with unit normal `n` through `p` is seen at most 88° from edge-on
        /// from the sensor at the origin (see ``minimumViewCosine``).
        @inline(__always) private static func isSeen(_ n: SIMD3<Float>, at p: SIMD3<Float>) -> Bool {
            abs(dot(n, p)) >= LeftoverFaces.minimumViewCosine * (p * p).sum().squareRoot()
        }

        /// A random index below `n`.
        @inline(__always) private mutating func pick(_ n: Int) -> Int {
            Int(random.next() % UInt64(n))
        }

        /// The largest 4-connected set of `pixels` whose points are on `plane`.
        private mutating func largestConnectedSet(on plane: SIMD4<Float>, among pixels: [Int]) -> [Int] {
            pass += 1
            let mark = pass
            for i in pixels where isOn(plane, points[i]) { onPlane[i] = mark }
            var largest: [Int] = [], current: [Int] = []
            // Floods of this search are numbered after `firstFlood`; a pixel one of them reached
            // is in a set already.
            let firstFlood = floodCount
            for start in pixels where onPlane[start] == mark && reached[start] <= firstFlood {
                flood(from: start, admitting: .onPlane(mark), into: &current)
                if current.count > largest.count { swap(&largest, &current) }
            }
            return largest
        }

        /// Gives `label` the pixels of other planes, reached from `face` through pixels taken,
        /// that lie on `plane` and nearer to it than to their own plane.
        private mutating func takeNeighbours(of face: [Int], onto plane: SIMD4<Float>, label: UInt16) {
            stack.append(contentsOf: face)
            while let i = stack.popLast() {
                Self.forEachNeighbour(of: i, width: width, count: count) { j in
                    let own = Int(labels[j])
                    guard own != 0, own != Int(label), own < planes.count, planes[own] != .zero else { return }
                    let p = points[j]
                    guard CellGrid.isValid(p) else { return }
                    // Off each plane in units of its tolerance (squared, and both scaled by
                    // their plane's (n·p)²).
                    let (offset, tolerance) = depthOffset(plane, p)
                    let (ownOffset, ownTolerance) = depthOffset(planes[own], p)
                    guard offset <= tolerance, offset * ownTolerance < ownOffset * tolerance else { return }
                    labels[j] = label
                    stack.append(j)
                }
            }
        }
    }
}
