/// `random.nextUnit() < p` decided on the raw 64 random bits, with no conversion to `Double`:
/// `nextUnit()` is `(bits >> 11) · 2⁻⁵³` exactly, so it is below `p` exactly when the integer
/// `bits >> 11` is below `⌈p · 2⁵³⌉` (`p · 2⁵³` is exact in `Double`).
struct UnitThreshold {
    /// `⌈p · 2⁵³⌉`, clamped to 0…2⁵³ (0 when `p` is NaN or not positive: never below).
    let limit: UInt64

    init(_ p: Double) {
        let scaled = (p * 0x1p53).rounded(.up)
        limit = scaled > 0 ? UInt64(min(scaled, 0x1p53)) : 0
    }

    /// `true` exactly when `Double(bits >> 11) * 0x1p-53 < p`.
    @inline(__always)
    func isBelow(_ bits: UInt64) -> Bool { bits >> 11 < limit }
}
