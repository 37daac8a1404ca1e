import Testing
@testable import PlaneKitDetection

/// Spikes are removed; ramps, edges, corners and thin strips are not.
struct DepthSpikesTests {
    static let width = 40, height = 30, step: Float = 0.0013

    /// A steep quantised ramp (3 steps a pixel along the row, as a face seen at a grazing angle,
    /// one along the column) with a depth jump of 3 cm down the middle.
    static func scene() -> [Float] {
        var depths = [Float](repeating: 0, count: width * height)
        for v in 0..<height {
            for u in 0..<width {
                let z: Float = 1 + Float(3 * u + v) * step + (u >= 20 ? 0.03 : 0)
                depths[v * width + u] = (z / step).rounded() * step
            }
        }
        return depths
    }

    /// Removes the spikes and says how many readings became holes.
    static func remove(_ depths: inout [Float], _ weights: inout [Float]) -> Int {
        let before = weights.filter { $0 > 0 }.count
        depths.withUnsafeMutableBufferPointer { d in
            weights.withUnsafeMutableBufferPointer { w in
                DepthSpikes.remove(depths: d, weights: w, width: width, height: height,
                                   limit: DepthSpikes.limitInSteps * step)
            }
        }
        return before - weights.filter { $0 > 0 }.count
    }

    @Test func aRampWithAnEdgeLosesNothing() {
        var depths = Self.scene()
        var weights = [Float](repeating: 1, count: depths.count)
        #expect(Self.remove(&depths, &weights) == 0)
        #expect(weights.allSatisfy { $0 == 1 })
    }

    @Test func spikesOneAndTwoPixelsWideBecomeHoles() {
        var depths = Self.scene()
        let single = 10 * Self.width + 8, pair = [20 * Self.width + 12, 20 * Self.width + 13]
        let low = 5 * Self.width + 30   // in front of the far side of the edge, not as far as the near side
        // On this ramp the four pixels two away span 12 steps (16 mm); spikes must clear that too.
        depths[single] += 0.02
        for i in pair { depths[i] -= 0.015 }
        depths[low] -= 0.015
        var weights = [Float](repeating: 1, count: depths.count)
        #expect(Self.remove(&depths, &weights) == 4)
        for i in [single, low] + pair {
            #expect(weights[i] == 0 && depths[i] == 0, "pixel \(i)")
        }
        #expect(weights.reduce(0, +) == Float(depths.count - 4))
    }

    @Test func aThinStripAndACornerStay() {
        var depths = Self.scene()
        // A one-pixel-thin strip 2 cm in front down column 10, and a near block's corner.
        for v in 2..<20 { depths[v * Self.width + 10] -= 0.02 }
        for v in 24..<Self.height { for u in 30..<Self.width { depths[v * Self.width + u] -= 0.02 } }
        var weights = [Float](repeating: 1, count: depths.count)
        #expect(Self.remove(&depths, &weights) == 0)
    }

    @Test func readingsBesideHolesAreKept() {
        var depths = Self.scene()
        var weights = [Float](repeating: 1, count: depths.count)
        let spike = 10 * Self.width + 8
        depths[spike] += 0.015
        weights[spike + 2] = 0   // unknown on one side: not judged
        #expect(Self.remove(&depths, &weights) == 0)
        #expect(weights[spike] == 1)
    }

    /// In an image too narrow for four judged pixels a row, nothing is judged: the border
    /// columns are never compared with the row before.
    @Test func narrowImagesAreLeftAlone() {
        let width = 7, height = 7
        var depths = [Float](repeating: 1, count: width * height)
        depths[3 * width + 1] += 0.02   // in a border column, which is never judged
        var weights = [Float](repeating: 1, count: depths.count)
        depths.withUnsafeMutableBufferPointer { d in
            weights.withUnsafeMutableBufferPointer { w in
                DepthSpikes.remove(depths: d, weights: w, width: width, height: height, limit: 0.005)
            }
        }
        #expect(weights.allSatisfy { $0 == 1 })
    }
}
