import PlaneKitGeometry
import Testing

struct SplitMix64Tests {
    /// The reference implementation's first outputs for seed 0 (Vigna's splitmix64.c).
    @Test func matchesTheReferenceStream() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    /// `below` stays in range and, over many draws, hits every value about equally often.
    @Test func belowIsUniformInRange() {
        var random = SplitMix64(seed: 42)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<70_000 { counts[random.below(7)] += 1 }
        #expect(counts.allSatisfy { abs($0 - 10_000) < 400 })
    }
}
