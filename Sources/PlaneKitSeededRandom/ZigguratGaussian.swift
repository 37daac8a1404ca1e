/// Standard normal deviates by the ziggurat method (Marsaglia & Tsang 2000, in Doornik's 2005
/// form with 128 layers): about 99% of draws cost one 64-bit random number, one table lookup,
/// one comparison and one multiplication, against a logarithm and a square root per pair for
/// the polar method. The tables are built once with PlaneKit's own `exp` and `log`, and the
/// rare wedge and tail draws use them too, so the deviates are the same on every machine.
package struct ZigguratTables: Sendable {
    /// Layer count (a power of two: the layer index is the low bits of a random number).
    static let layers = 128
    /// Right edge of the base layer, and the layers' common area (Doornik's constants for 128 layers).
    static let r = 3.442619855899
    static let v = 9.91256303526217e-3

    /// `x[i]`: right edge of layer `i` (`x[0]` is the base's virtual width `v / f(r)`, `x[128] = 0`).
    let x: [Double]
    /// `x[i + 1] / x[i]`: the fraction of layer `i` that lies wholly under the curve.
    let ratio: [Double]

    package static let shared = ZigguratTables()

    private init() {
        let n = ZigguratTables.layers, r = ZigguratTables.r, v = ZigguratTables.v
        var x = [Double](repeating: 0, count: n + 1)
        var f = DeterministicMath.exp(-0.5 * r * r)
        x[0] = v / f
        x[1] = r
        for i in 2..<n {
            x[i] = (-2 * DeterministicMath.log(v / x[i - 1] + f)).squareRoot()
            f = DeterministicMath.exp(-0.5 * x[i] * x[i])
        }
        x[n] = 0
        self.x = x
        ratio = (0..<n).map { x[$0 + 1] / x[$0] }
    }
}

extension SeededRandom {
    /// A standard normal deviate (mean 0, variance 1) by the ziggurat method, bitwise
    /// reproducible: the fast path uses only a multiplication and a comparison.
    package mutating func zigguratGaussian(_ tables: ZigguratTables) -> Double {
        while true {
            let bits = next()
            // Low 7 bits pick the layer; the top 53 bits give u uniform in [−1, 1).
            let i = Int(bits & 0x7F)
            let u = 2 * (Double(bits >> 11) * 0x1.0p-53) - 1
            let ratio = tables.ratio.withUnsafeBufferPointer { $0[i] }
            if abs(u) < ratio { return u * tables.x.withUnsafeBufferPointer { $0[i] } }
            if i == 0 { return tail(negative: u < 0) }
            let xi = tables.x[i], xNext = tables.x[i + 1]
            let x = u * xi
            let f0 = DeterministicMath.exp(-0.5 * (xi * xi - x * x))
            let f1 = DeterministicMath.exp(-0.5 * (xNext * xNext - x * x))
            if f1 + nextUnit() * (f0 - f1) < 1 { return x }
        }
    }

    /// A draw from the normal tail beyond `r` (Marsaglia 1964).
    private mutating func tail(negative: Bool) -> Double {
        let r = ZigguratTables.r
        while true {
            // 1 − U is in (0, 1], so the logarithms are finite.
            let x = DeterministicMath.log(1 - nextUnit()) / r
            let y = DeterministicMath.log(1 - nextUnit())
            if -2 * y >= x * x { return negative ? x - r : r - x }
        }
    }
}
