import Foundation
import PlaneKitGeometry
import PlaneKitSynthesis
import Testing
import PlaneKitSeededRandom

@Suite struct SeededRandomTests {
    @Test func sameSeedGivesTheSameStream() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 43)
        let sa = (0..<100).map { _ in a.next() }, sb = (0..<100).map { _ in b.next() }
        let sc = (0..<100).map { _ in c.next() }
        #expect(sa == sb)
        #expect(sa != sc)
        // No two outputs of a seed's first 100 coincide.
        #expect(Set(sa).count == 100)
    }

    @Test func knownOutputsPinTheAlgorithm() {
        // xoshiro256** seeded with SplitMix64(0), as computed by an independent implementation:
        // the stream must be the same on every machine and every release.
        var r = SeededRandom(seed: 0)
        #expect([r.next(), r.next(), r.next()] == [0x99EC_5F36_CB75_F2B4, 0xBF6E_1F78_4956_452A, 0x1A5F_849D_4933_E6E0])
        // Polar-method normals from seed 1 (reference computed with the platform's log; ours
        // agrees to within a few ULPs).
        var g = SeededRandom(seed: 1)
        let expected = [1.884396104787977, 0.18978089448693036, 1.302090250702661, -1.9094343319583578]
        for value in expected {
            let drawn = g.gaussian()
            #expect(abs(drawn - value) < 1e-13, "got \(drawn), expected \(value)")
        }
    }

    @Test func uniformValuesStayInRangeAndCoverIt() {
        var r = SeededRandom(seed: 7)
        var lowest: Float = 10, highest: Float = -10, sum = 0.0
        for _ in 0..<100_000 {
            let x = r.uniform(-2...3)
            lowest = min(lowest, x)
            highest = max(highest, x)
            sum += Double(x)
        }
        #expect(lowest >= -2 && lowest < -1.99)
        #expect(highest <= 3 && highest > 2.99)
        #expect(abs(sum / 100_000 - 0.5) < 0.02)
        var counts = [Int](repeating: 0, count: 4)
        for _ in 0..<40_000 { counts[r.integer(in: 0...3)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 10_000) < 400 })
    }

    @Test func gaussianHasUnitVarianceAndNormalTails() {
        var r = SeededRandom(seed: 2024)
        let n = 200_000
        var sum = 0.0, sumSquares = 0.0, withinOne = 0, beyondTwo = 0
        for _ in 0..<n {
            let g = r.gaussian()
            sum += g
            sumSquares += g * g
            if abs(g) <= 1 { withinOne += 1 }
            if abs(g) > 2 { beyondTwo += 1 }
        }
        let mean = sum / Double(n), variance = sumSquares / Double(n) - mean * mean
        #expect(abs(mean) < 0.01)
        #expect(abs(variance - 1) < 0.015)
        #expect(abs(Double(withinOne) / Double(n) - 0.6827) < 0.004)
        #expect(abs(Double(beyondTwo) / Double(n) - 0.0455) < 0.002)
    }

    @Test func derivedSeedsAreIndependentStreams() {
        let seeds = (0..<50).map { SeededRandom.derivedSeed(1, stream: UInt64($0)) }
        #expect(Set(seeds).count == 50)
        #expect(SeededRandom.derivedSeed(1, stream: 3) == SeededRandom.derivedSeed(1, stream: 3))
        #expect(SeededRandom.derivedSeed(1, stream: 3) != SeededRandom.derivedSeed(2, stream: 3))
    }

    @Test func horizontalDirectionsAreUnitAndSpreadEvenly() {
        var r = SeededRandom(seed: 5)
        var quadrants = [Int](repeating: 0, count: 4)
        for _ in 0..<8000 {
            let d = r.horizontalDirection()
            #expect(abs(d.length - 1) < 1e-5)
            #expect(d.y == 0)
            quadrants[(d.x >= 0 ? 0 : 1) + (d.z >= 0 ? 0 : 2)] += 1
        }
        #expect(quadrants.allSatisfy { abs($0 - 2000) < 200 })
    }
}
