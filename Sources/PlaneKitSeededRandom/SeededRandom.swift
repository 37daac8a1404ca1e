import PlaneKitGeometry

/// A small, fast, seedable pseudo-random generator (xoshiro256**, seeded through SplitMix64)
/// whose output is the same on every machine and every Swift version.
///
/// Synthetic data must be reproducible bit for bit, so PlaneKit never uses
/// `SystemRandomNumberGenerator` or the standard library's `random(in:using:)` helpers (whose
/// algorithms are not promised to stay the same). Every draw here is built from integer operations
/// and correctly rounded IEEE arithmetic only.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64
    /// The second normal deviate of the last polar-method pair, kept for the next call.
    private var spareGaussian: Double?

    /// A generator whose whole stream is determined by `seed`.
    public init(seed: UInt64) {
        // SplitMix64 spreads any seed (even 0) over the 256-bit state, which must not be all zero.
        var mixer = SplitMix64(seed: seed)
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
        spareGaussian = nil
    }

    /// A seed for an independent sub-stream `stream` of `seed` (the room, the camera pose, the
    /// sensor noise of frame 17, …), so that changing how many numbers one part draws does not
    /// shift the numbers another part sees.
    public static func derivedSeed(_ seed: UInt64, stream: UInt64) -> UInt64 {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        _ = mixer.next()
        return mixer.next()
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform `Double` in `[0, 1)` with 53 random bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform `Float` in `range` (the upper end is reached only by rounding).
    public mutating func uniform(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + Float(nextUnit()) * (range.upperBound - range.lowerBound)
    }

    /// A uniform integer in `range`, without modulo bias worth mentioning (53-bit scaling).
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        let count = Double(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + min(Int(nextUnit() * count), range.upperBound - range.lowerBound)
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        nextUnit() < p
    }

    /// A standard normal deviate (mean 0, variance 1) by Marsaglia's polar method, using only
    /// arithmetic, `squareRoot()` and PlaneKit's own logarithm, so it is bitwise reproducible.
    public mutating func gaussian() -> Double {
        if let spare = spareGaussian {
            spareGaussian = nil
            return spare
        }
        while true {
            let u = 2 * nextUnit() - 1, v = 2 * nextUnit() - 1
            let s = u * u + v * v
            guard s > 0, s < 1 else { continue }
            let factor = (-2 * DeterministicMath.log(s) / s).squareRoot()
            spareGaussian = v * factor
            return u * factor
        }
    }

    /// A uniformly distributed horizontal unit direction `(x, 0, z)` (rejection sampling in the
    /// unit disc, so no trigonometry is needed).
    public mutating func horizontalDirection() -> SIMD3<Float> {
        while true {
            let x = 2 * nextUnit() - 1, z = 2 * nextUnit() - 1
            let r2 = x * x + z * z
            guard r2 > 1e-4, r2 <= 1 else { continue }
            let r = r2.squareRoot()
            return SIMD3(Float(x / r), 0, Float(z / r))
        }
    }
}
