import Testing
@testable import PlaneKitDetection

/// The smoothed staircase, against the definition worked out one pixel at a time.
struct DepthQuantizationTests {
    static let step: Float = 0.0013

    /// A quantised slanted plane seen from about 1 m, with holes of every kind (NaN, ±∞, zero
    /// and negative depth, a NaN x with a valid depth), a 2 cm depth jump and a few spikes.
    static func scene(width: Int, height: Int) -> [SIMD3<Float>] {
        var points: [SIMD3<Float>] = []
        for v in 0..<height {
            for u in 0..<width {
                var z: Float = 1 + Float(2 * u + v) * step * 0.7 + (u > width / 2 ? 0.02 : 0)
                z = (z / step).rounded() * step
                let x = (Float(u) - Float(width) / 2) * z / 500, y = (Float(v) - Float(height) / 2) * z / 500
                var p = SIMD3(x, y, z)
                switch (u * 7 + v * 3) % 23 {
                case 0: p = SIMD3(repeating: .nan)
                case 5: p.z = .infinity
                case 9: p.z = 0
                case 13: p.z = -z
                case 17: p.x = .nan
                default: break
                }
                if (u * 5 + v * 11) % 37 == 4 { p *= 1.03 }   // a spike, 3 cm off
                points.append(p)
            }
        }
        return points
    }

    /// The definition, one pixel at a time: spikes removed, then each valid point moved along
    /// its ray to the mean depth of the valid points in its 5×5 window, unless that is more than
    /// two steps away. Sums are taken in the same order as the detector's (rows first, then
    /// columns, relative to the first valid depth), so the two agree exactly.
    static func reference(_ points: [SIMD3<Float>], width: Int, height: Int) -> [SIMD3<Float>] {
        let first = points.first(where: CellGrid.isValid)?.z ?? 0
        var depths = points.map { CellGrid.isValid($0) ? $0.z - first : 0 }
        var weights = points.map { CellGrid.isValid($0) ? Float(1) : 0 }
        depths.withUnsafeMutableBufferPointer { d in
            weights.withUnsafeMutableBufferPointer { w in
                DepthSpikes.remove(depths: d, weights: w, width: width, height: height,
                                   limit: DepthSpikes.limitInSteps * step)
            }
        }
        var out = points
        for v in 0..<height {
            for u in 0..<width {
                let i = v * width + u, p = points[i]
                guard weights[i] > 0 else {
                    if CellGrid.isValid(p) { out[i] = SIMD3(repeating: .nan) }
                    continue
                }
                var windowZ: Float = 0, windowW: Float = 0
                for du in -2...2 {
                    var columnZ: Float = 0, columnW: Float = 0
                    guard u + du >= 0, u + du < width else { continue }
                    for dv in -2...2 where v + dv >= 0 && v + dv < height {
                        columnZ += depths[(v + dv) * width + u + du]
                        columnW += weights[(v + dv) * width + u + du]
                    }
                    windowZ += columnZ
                    windowW += columnW
                }
                let mean = first + windowZ / windowW
                if abs(mean - p.z) <= 2 * step { out[i] = p * (mean / p.z) }
            }
        }
        return out
    }

    /// Bit for bit where the point is a number; NaN where the definition gives NaN.
    static func same(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool {
        (0..<3).allSatisfy { a[$0].isNaN ? b[$0].isNaN : a[$0].bitPattern == b[$0].bitPattern }
    }

    @Test(arguments: [(512, 9), (13, 7), (7, 3), (6, 6), (1, 5), (3, 1), (61, 40)])
    func smoothingMatchesTheDefinition(size: (width: Int, height: Int)) {
        let points = Self.scene(width: size.width, height: size.height)
        let expected = Self.reference(points, width: size.width, height: size.height)
        let smoothed = points.withUnsafeBufferPointer {
            DepthQuantization.dequantized(points: $0, width: size.width, height: size.height, step: Self.step)
        }
        #expect(smoothed.count == points.count)
        let differing = (0..<points.count).filter { !Self.same(smoothed[$0], expected[$0]) }
        #expect(differing.count == 0, "\(differing.count) of \(points.count) points differ, first at \(differing.first ?? -1)")
        // The scene does exercise every case: moved points, kept ones, spikes made holes.
        let moved = (0..<points.count).filter { CellGrid.isValid(points[$0]) && CellGrid.isValid(expected[$0])
            && expected[$0] != points[$0] }.count
        #expect(size.width * size.height < 100 || moved > points.count / 4)
    }

    @Test func spikesBecomeHolesAndHolesStayHoles() {
        let width = 61, height = 40
        let points = Self.scene(width: width, height: height)
        let smoothed = points.withUnsafeBufferPointer {
            DepthQuantization.dequantized(points: $0, width: width, height: height, step: Self.step)
        }
        let holes = (0..<points.count).filter { !CellGrid.isValid(points[$0]) }
        #expect(holes.allSatisfy { !CellGrid.isValid(smoothed[$0]) })
        let spikes = (0..<points.count).filter { CellGrid.isValid(points[$0]) && !CellGrid.isValid(smoothed[$0]) }
        #expect(spikes.count >= 10, "spikes made holes: \(spikes.count)")
    }
}
