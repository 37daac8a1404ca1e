import Foundation
import Testing
@testable import PlaneKitSynthesis
@testable import PlaneKitSeededRandom

/// The cheap random sources of the sensor pass have the distributions they stand in for: the
/// noise tables give standard normal deviates, the dropout gaps are geometric.
@Suite struct NoiseSourceTests {
    @Test func tablesAreStandardisedNormalSamples() {
        let tables = GaussianTables.shared
        let n = GaussianTables.count
        for table in [tables.first, tables.second] {
            #expect(table.count == n + GaussianTables.padding)
            // The padding repeats the start, so eight entries from any start are the table's.
            #expect(Array(table[n...]) == Array(table[0..<GaussianTables.padding]))
            let values = table[0..<n].map(Double.init)
            let mean = values.reduce(0, +) / Double(n)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n)
            // Standardised exactly (up to Float rounding of the entries).
            #expect(abs(mean) < 1e-6 && abs(variance - 1) < 1e-5, "mean \(mean), variance \(variance)")
            // The shape is the normal's: kurtosis 3 (s.e. ≈ 0.019 for 65 536 draws), tails.
            let kurtosis = values.reduce(0) { $0 + pow($1 - mean, 4) } / Double(n) / (variance * variance)
            #expect(abs(kurtosis - 3) < 0.08, "kurtosis \(kurtosis)")
            let beyond2 = Double(values.filter { abs($0) > 2 }.count) / Double(n)
            let beyond3 = Double(values.filter { abs($0) > 3 }.count) / Double(n)
            #expect(abs(beyond2 - 0.0455) < 0.0035, "P(|g| > 2) = \(beyond2)")
            #expect(abs(beyond3 - 0.0027) < 0.0009, "P(|g| > 3) = \(beyond3)")
        }
        // Two independent samples, not one copied.
        let shared = zip(tables.first, tables.second).filter { $0.0 == $0.1 }.count
        #expect(shared < 10)
    }

    @Test func summedDeviatesAreStandardNormal() {
        // What a pixel reads: (first[i] + second[j]) / √2 for uniform i, j.
        let tables = GaussianTables.shared
        var random = SeededRandom(seed: 17)
        let draws = 1_000_000
        var sum = 0.0, squares = 0.0, fourth = 0.0, beyond2 = 0, beyond3 = 0
        for _ in 0..<draws {
            let bits = random.next()
            let i = Int(bits & 0xFFFF), j = Int((bits >> 16) & 0xFFFF)
            let g = (Double(tables.first[i]) + Double(tables.second[j])) * 0.5.squareRoot()
            sum += g
            squares += g * g
            fourth += g * g * g * g
            if abs(g) > 2 { beyond2 += 1 }
            if abs(g) > 3 { beyond3 += 1 }
        }
        let n = Double(draws), mean = sum / n, variance = squares / n - mean * mean
        // s.e.: mean 0.001, variance 0.0014, kurtosis 0.01, P(>2σ) 2·10⁻⁴, P(>3σ) 5·10⁻⁵.
        #expect(abs(mean) < 0.005)
        #expect(abs(variance - 1) < 0.006, "variance \(variance)")
        #expect(abs(fourth / n - 3) < 0.05, "fourth moment \(fourth / n)")
        #expect(abs(Double(beyond2) / n - 0.0455) < 0.001, "P(|g| > 2) = \(Double(beyond2) / n)")
        #expect(abs(Double(beyond3) / n - 0.0027) < 0.0003, "P(|g| > 3) = \(Double(beyond3) / n)")
    }

    @Test func rowOffsetsNeverRepeatTheirDifference() {
        // Two rows whose offsets differ by the same amount in both tables would read the same
        // pairs, shifted: the offsets rule that out for every row of a frame.
        var random = SeededRandom(seed: 5)
        for _ in 0..<20 {
            let shift = Int(truncatingIfNeeded: random.next())
            var differences = Set<Int>()
            var firsts = Set<Int>()
            for row in 0..<480 {
                let (a, b) = GaussianTables.offsets(row: row, frameShift: shift, bits: random.next())
                #expect(a >= 0 && a < GaussianTables.count && b >= 0 && b < GaussianTables.count)
                differences.insert((a - b) & (GaussianTables.count - 1))
                firsts.insert(a)
            }
            #expect(differences.count == 480)
            // The first offsets are uniform: 480 draws from 65 536 rarely collide.
            #expect(firsts.count >= 470)
        }
    }

    @Test func dropoutGapsAreGeometric() {
        for p in [0.01, 0.3] {
            let gaps = GeometricGaps(probability: p)
            var random = SeededRandom(seed: 8)
            let draws = 200_000
            var total = 0.0, zeros = 0, ones = 0
            for _ in 0..<draws {
                let gap = gaps.next(&random)
                total += Double(gap)
                if gap == 0 { zeros += 1 }
                if gap == 1 { ones += 1 }
            }
            let n = Double(draws)
            // Mean (1 − p)/p, P(G = 0) = p, P(G = 1) = (1 − p)p; each within about 4 s.e.
            let mean = (1 - p) / p, meanError = ((1 - p).squareRoot() / p) / n.squareRoot()
            #expect(abs(total / n - mean) < 4 * meanError, "p \(p): mean gap \(total / n), expected \(mean)")
            #expect(abs(Double(zeros) / n - p) < 4 * (p * (1 - p) / n).squareRoot(), "p \(p): P(0) \(Double(zeros) / n)")
            let p1 = (1 - p) * p
            #expect(abs(Double(ones) / n - p1) < 4 * (p1 * (1 - p1) / n).squareRoot(), "p \(p): P(1) \(Double(ones) / n)")
        }
        var random = SeededRandom(seed: 1)
        #expect(GeometricGaps(probability: 0).next(&random) == .max)
        #expect(GeometricGaps(probability: .nan).next(&random) == .max)
        #expect(GeometricGaps(probability: 1).next(&random) == 0)
    }
}
