import Testing
@testable import PlaneKitDetection

/// Merging the patches of one face at object scale, on a depth staircase: 8-bit range steps of
/// 1.3 mm over points 0.5 mm apart, as in SegComp's ABW scans.
@Suite struct ConnectedPatchesTests {
    static let spacing: Float = 0.0005
    static let step: Float = 0.0013
    static let rows = 40
    /// The staircase's noise: σ = step/√12 beside 0.36 mm of sensor noise.
    static let noise = DepthNoiseModel(constant: (0.00036 * 0.00036 + step * step / 12).squareRoot(), quadratic: 0,
                                       referenceDepth: 1)

    /// A grid `columns` wide whose column `u` has depth `depth(x)` rounded to the step, and whose
    /// pixel (u, v) has label `label(u, v)`; the patches after merging, and the labels.
    static func merged(columns: Int, depth: (Float) -> Float, label: (Int, Int) -> UInt16) -> (patches: Int, labels: [UInt16]) {
        var points: [SIMD3<Float>] = []
        var labels: [UInt16] = []
        for v in 0..<rows {
            for u in 0..<columns {
                let x = Float(u) * spacing
                points.append(SIMD3(x, Float(v) * spacing, (depth(x) / step).rounded() * step))
                labels.append(label(u, v))
            }
        }
        var count = 0
        var regionOfLabel: [Int] = []
        points.withUnsafeBufferPointer { p in
            labels.withUnsafeMutableBufferPointer { l in
                var patches = ConnectedPatches(labels: l, points: p, width: columns, height: rows, noise: noise, minimumPoints: 20)
                patches.mergeCoplanar(noise: noise)
                count = patches.moments.count
                regionOfLabel = patches.regionOfLabel
            }
        }
        // Each pixel labelled by its merged patch, as the detector's final renumbering does.
        return (count, labels.map { $0 == 0 ? 0 : UInt16(regionOfLabel[Int($0)] + 1) })
    }

    /// Strips one tread of the staircase wide fit planes 45° off their face (all their depths are
    /// equal), yet lie on it: they join the face.
    @Test func treadsOfTheStaircaseJoinTheirFace() {
        // A face at 45° to the view: depth rises 0.5 mm a column, a step every 2.6 columns. The
        // first 60 columns are one patch; then strips 2 or 3 columns wide, each its own label.
        let columns = 100
        let result = Self.merged(columns: columns, depth: { 1 + $0 }) { u, _ in
            u < 60 ? 1 : UInt16(2 + (u - 60) / 3)
        }
        #expect(result.patches == 1, "\(result.patches) patches")
        #expect(Set(result.labels) == [1])
    }

    /// A patch of one face beside a much larger face of another plane (a 56° fold) leaves the
    /// union's residual within what merging allows (0.9 mm against 1.0 mm: the large face
    /// outweighs it), but lies millimetres off the union's plane: it stays apart.
    @Test func aThinPatchBesideALargeFaceOfAnotherPlaneStaysApart() {
        let width = 12, fold = Float(width) * Self.spacing
        let result = Self.merged(columns: width + 300, depth: { x in x < fold ? 1 + (fold - x) : 1 + 0.2 * (x - fold) }) { u, _ in
            u < width ? 1 : 2
        }
        #expect(result.patches == 2, "\(result.patches) patches")
        #expect(result.labels[0] != result.labels[width + 5])
    }

    /// Two patches of one face whose nearest pixels are a knight's move apart (two rows down, one
    /// column across: a strip pinched to nothing where a neighbouring face took its last pixels)
    /// are within the two-pixel reach and join.
    @Test func patchesAKnightsMoveApartJoin() {
        // Patch 1: rows 0–18 from column 10 on, and pixel (10, 19). Patch 2: pixel (9, 21) and rows
        // 22 on up to column 9. Row 20 is empty; no two pixels are nearer than (±1, 2).
        let result = Self.merged(columns: 40, depth: { 1 + $0 }) { u, v in
            switch v {
            case ..<19: u >= 10 ? 1 : 0
            case 19: u == 10 ? 1 : 0
            case 21: u == 9 ? 2 : 0
            case 22...: u <= 9 ? 2 : 0
            default: 0
            }
        }
        #expect(result.patches == 1, "\(result.patches) patches")
        #expect(Set(result.labels) == [0, 1])
    }

    /// The neighbouring patches found from the runs are exactly the pairs of pixels of two
    /// patches at most two apart along a row, or two rows down and at most two columns across.
    @Test(arguments: [1, 2, 3, 4, 5])
    func neighboursAreThePatchesWithinReach(seed: UInt64) {
        let width = 37, height = 23
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33)
        }
        // Blobs of five labels and holes: each pixel copies its left or upper neighbour, or not.
        var labels = [UInt16](repeating: 0, count: width * height)
        for v in 0..<height {
            for u in 0..<width {
                switch next() % 10 {
                case 0...3 where u > 0: labels[v * width + u] = labels[v * width + u - 1]
                case 4...6 where v > 0: labels[v * width + u] = labels[(v - 1) * width + u]
                default: labels[v * width + u] = UInt16(next() % 6)
                }
            }
        }
        let points = [SIMD3<Float>](repeating: SIMD3(0, 0, 1), count: width * height)
        var neighbours: [UInt64] = []
        points.withUnsafeBufferPointer { p in
            labels.withUnsafeMutableBufferPointer { l in
                let patches = ConnectedPatches(labels: l, points: p, width: width, height: height, noise: Self.noise,
                                               minimumPoints: 3)
                neighbours = patches.neighbours
            }
        }
        var expected = Set<UInt64>()
        for v in 0..<height {
            for u in 0..<width {
                let a = labels[v * width + u]
                guard a != 0 else { continue }
                for dv in 0...2 where v + dv < height {
                    for du in -2...2 where u + du >= 0 && u + du < width && (dv > 0 || du > 0) {
                        let b = labels[(v + dv) * width + u + du]
                        guard b != 0, b != a else { continue }
                        expected.insert(UInt64(min(a, b) - 1) << 32 | UInt64(max(a, b) - 1))
                    }
                }
            }
        }
        #expect(expected.count > 10, "only \(expected.count) pairs: the image is too plain to test")
        #expect(neighbours == expected.sorted())
    }
}
