/// Elementary functions computed with basic IEEE arithmetic only.
///
/// The platform's `log`, `sin` and `cos` may differ in the last bit between C libraries and
/// versions; synthetic data must not, so the few transcendental values the generator needs are
/// computed here from series that use `+ − × ÷` alone (each correctly rounded by IEEE 754).
package enum DeterministicMath {
    /// π to double precision.
    package static let pi = 3.141592653589793

    /// The natural logarithm of a positive finite `x` (NaN otherwise).
    package static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
        var bits = x.bitPattern
        var e = Int((bits >> 52) & 0x7FF) - 1023
        if e == -1023 {
            // Subnormal: scale into the normal range first.
            bits = (x * 0x1p54).bitPattern
            e = Int((bits >> 52) & 0x7FF) - 1023 - 54
        }
        // x = m · 2^e with m in [√½, √2), then ln m = 2·atanh(s) with s = (m − 1)/(m + 1).
        var m = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        let s = (m - 1) / (m + 1), s2 = s * s
        // |s| ≤ 0.172, so the odd series to s²³ reaches below 1e-17 relative; Horner form with
        // the coefficients 1/(2k + 1) written out.
        var p = 0.043478260869565216
        p = p * s2 + 0.047619047619047616
        p = p * s2 + 0.05263157894736842
        p = p * s2 + 0.058823529411764705
        p = p * s2 + 0.06666666666666667
        p = p * s2 + 0.07692307692307693
        p = p * s2 + 0.09090909090909091
        p = p * s2 + 0.1111111111111111
        p = p * s2 + 0.14285714285714285
        p = p * s2 + 0.2
        p = p * s2 + 0.3333333333333333
        p = p * s2 + 1.0
        return Double(e) * 0.6931471805599453 + 2 * s * p
    }

    /// e to the power `x` (0 below −745, +∞ above 709.78), by `x = k·ln 2 + r` with |r| ≤ ln 2 / 2
    /// and the Taylor series of e^r to r¹⁸ (within a few ulp), scaled by 2^k exactly.
    static func exp(_ x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? .nan : (x > 0 ? .infinity : 0) }
        if x > 709.78 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x * 1.4426950408889634).rounded()
        // ln 2 split in two parts, the first with trailing zero bits so that k times it is
        // exact, so that r keeps its precision (Cody–Waite, fdlibm's constants).
        let r = (x - k * 6.93147180369123816490e-01) - k * 1.90821492927058770002e-10
        var term = 1.0, sum = 1.0
        for n in 1...18 {
            term *= r / Double(n)
            sum += term
        }
        // 2^k in two steps, so that results near the ends of the range neither overflow nor
        // lose bits in a subnormal scale factor.
        let k1 = Int(k) / 2, k2 = Int(k) - Int(k) / 2
        return sum * Double(sign: .plus, exponent: k1, significand: 1) * Double(sign: .plus, exponent: k2, significand: 1)
    }

    /// Sine of `x` radians (accurate to about 1e-15 for |x| up to a few thousand).
    package static func sin(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant {
        case 0: return sinSeries(r)
        case 1: return cosSeries(r)
        case 2: return -sinSeries(r)
        default: return -cosSeries(r)
        }
    }

    /// Cosine of `x` radians.
    package static func cos(_ x: Double) -> Double {
        let (r, quadrant) = reduce(x)
        switch quadrant {
        case 0: return cosSeries(r)
        case 1: return -sinSeries(r)
        case 2: return -cosSeries(r)
        default: return sinSeries(r)
        }
    }

    /// `x = r + quadrant·π/2` with |r| ≤ π/4 and quadrant in 0…3.
    private static func reduce(_ x: Double) -> (Double, Int) {
        let k = (x / (pi / 2)).rounded()
        // π/2 split in two parts so that r keeps its precision (Cody–Waite).
        let r = (x - k * 1.5707963267948966) - k * 6.123233995736766e-17
        var quadrant = Int(k) % 4
        if quadrant < 0 { quadrant += 4 }
        return (r, quadrant)
    }

    private static func sinSeries(_ r: Double) -> Double {
        let r2 = r * r
        var term = r, sum = 0.0
        var n = 1.0
        for _ in 0..<11 {
            sum += term
            term *= -r2 / ((n + 1) * (n + 2))
            n += 2
        }
        return sum
    }

    private static func cosSeries(_ r: Double) -> Double {
        let r2 = r * r
        var term = 1.0, sum = 0.0
        var n = 0.0
        for _ in 0..<11 {
            sum += term
            term *= -r2 / ((n + 1) * (n + 2))
            n += 2
        }
        return sum
    }

    /// Degrees to radians.
    package static func radians(_ degrees: Double) -> Double { degrees * (pi / 180) }
}
