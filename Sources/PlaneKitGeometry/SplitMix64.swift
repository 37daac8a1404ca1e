/// A small, fast, seedable random number generator (Steele, Lea & Flood's SplitMix64), so that
/// randomized algorithms give the same answer for the same seed on every platform. It also
/// seeds larger generators: any seed, even 0, comes out well mixed.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var state: UInt64

    /// A generator whose stream is determined by `seed`.
    @inlinable public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform integer in `0..<bound` (`bound > 0`), by Lemire's multiply-shift with rejection.
    public mutating func below(_ bound: Int) -> Int {
        let b = UInt64(bound)
        while true {
            let product = next().multipliedFullWidth(by: b)
            if product.low >= (0 &- b) % b { return Int(product.high) }
        }
    }
}
