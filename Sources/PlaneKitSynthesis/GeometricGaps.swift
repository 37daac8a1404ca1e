import PlaneKitSeededRandom
/// Where independent per-pixel events of probability `p` (salt-and-pepper dropouts) fall,
/// drawn as the gaps between them rather than as one coin per pixel.
///
/// If every pixel is dropped independently with probability `p`, the number of kept pixels
/// before the next dropped one is geometric: `P(G = k) = (1 − p)^k · p`. Inversion gives it from
/// one uniform `U` in (0, 1]: `G = ⌊ln U / ln(1 − p)⌋`, since `P(G ≥ k) = P(U ≤ (1 − p)^k) =
/// (1 − p)^k`. So a frame with a 1% rate costs one draw and one logarithm per dropout (about
/// 3 000) instead of one draw per pixel (307 200), with exactly the same distribution.
/// ``DeterministicMath/log(_:)`` keeps the positions the same on every machine.
struct GeometricGaps {
    /// `1 / ln(1 − p)` (negative), or 0 when every pixel is an event (`p ≥ 1`).
    private let inverseLogKeep: Double
    /// `false` when no pixel is ever an event (`p ≤ 0` or NaN).
    let occurs: Bool

    init(probability p: Double) {
        occurs = p > 0
        inverseLogKeep = p > 0 && p < 1 ? 1 / DeterministicMath.log(1 - p) : 0
    }

    /// The number of pixels without an event before the next one (`Int.max` when there is
    /// never one).
    @inline(__always)
    func next(_ random: inout SeededRandom) -> Int {
        guard occurs else { return .max }
        guard inverseLogKeep != 0 else { return 0 }
        // 1 − U with U in [0, 1) is in (0, 1], so the logarithm is finite and not positive.
        let gap = DeterministicMath.log(1 - random.nextUnit()) * inverseLogKeep
        return gap < 0x1p62 ? Int(gap) : .max
    }
}
