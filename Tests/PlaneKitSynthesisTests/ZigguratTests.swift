import Foundation
import Testing
@testable import PlaneKitSynthesis
@testable import PlaneKitSeededRandom

@Suite struct ZigguratTests {
    @Test func deterministicExpMatchesTheLibrary() {
        for x in stride(from: -700.0, through: 700.0, by: 0.37) {
            let ours = DeterministicMath.exp(x), theirs = Foundation.exp(x)
            #expect(abs(ours - theirs) <= 1e-15 * theirs, "exp(\(x)): \(ours) vs \(theirs)")
        }
        #expect(DeterministicMath.exp(0) == 1)
        #expect(DeterministicMath.exp(-800) == 0 && DeterministicMath.exp(800) == .infinity)
    }

    @Test func tablesCoverTheCurve() {
        let t = ZigguratTables.shared
        #expect(t.x[1] == ZigguratTables.r && t.x[128] == 0)
        // Edges fall from the base to the top, and every layer has the common area v.
        #expect(zip(t.x.dropFirst(), t.x.dropFirst(2)).allSatisfy { $0 > $1 })
        for i in 1..<127 {
            let area = t.x[i] * (Foundation.exp(-0.5 * t.x[i + 1] * t.x[i + 1]) - Foundation.exp(-0.5 * t.x[i] * t.x[i]))
            #expect(abs(area - ZigguratTables.v) < 1e-9 * 1e3, "layer \(i): area \(area)")
        }
    }

    @Test func deviatesAreStandardNormalAndReproducible() {
        var random = SeededRandom(seed: 99)
        let tables = ZigguratTables.shared
        let n = 400_000
        var sum = 0.0, squares = 0.0, fourth = 0.0, beyond2 = 0, beyond3 = 0
        var firstTen: [Double] = []
        for k in 0..<n {
            let g = random.zigguratGaussian(tables)
            if k < 10 { firstTen.append(g) }
            sum += g
            squares += g * g
            fourth += g * g * g * g
            if abs(g) > 2 { beyond2 += 1 }
            if abs(g) > 3 { beyond3 += 1 }
        }
        let mean = sum / Double(n), variance = squares / Double(n) - mean * mean
        #expect(abs(mean) < 0.006)
        #expect(abs(variance - 1) < 0.01)
        #expect(abs(fourth / Double(n) - 3) < 0.06)                // kurtosis of a normal
        #expect(abs(Double(beyond2) / Double(n) - 0.0455) < 0.002) // P(|g| > 2)
        #expect(abs(Double(beyond3) / Double(n) - 0.0027) < 0.0004) // P(|g| > 3): the tail works
        var again = SeededRandom(seed: 99)
        #expect((0..<10).map { _ in again.zigguratGaussian(tables) }.map(\.bitPattern) == firstTen.map(\.bitPattern))
    }
}
