/// The sensor model's grazing-angle test, `|n·r| / |r| < cos θmax` drops the pixel, decided
/// without the square root and division in all but a sliver of pixels, and with them (the very
/// same `Float` expression) in that sliver, so every decision is the one the plain formula makes.
///
/// The plain formula's result differs from the true ratio by a few units in the last place
/// (≈ 3·10⁻⁷); squared, the cheap test compares with a margin of 10⁻⁴, so whatever it decides
/// the plain formula decides too.
struct IncidenceTest {
    /// `cos θmax`.
    let cosMaximum: Float
    /// `cos² θmax · (1 + 10⁻⁴)`: at or above it the surface certainly faces the ray enough.
    let surelyFacing: Float
    /// `cos² θmax · (1 − 10⁻⁴)`: below it the ray certainly grazes the surface.
    let surelyGrazing: Float

    init(cosMaximum: Float) {
        self.cosMaximum = cosMaximum
        let squared = cosMaximum * cosMaximum
        surelyFacing = squared * (1 + 1e-4)
        surelyGrazing = squared * (1 - 1e-4)
    }

    /// `true` when the pixel keeps its reading: `!(dotMagnitude / √rayLengthSquared < cosMaximum)`,
    /// where `dotMagnitude = |n·r|` and `rayLengthSquared = r·r`.
    @inline(__always)
    func passes(dotMagnitude d: Float, rayLengthSquared l2: Float) -> Bool {
        let d2 = d * d
        if d2 > surelyFacing * l2 { return true }
        if d2 < surelyGrazing * l2 { return false }
        return !(d / l2.squareRoot() < cosMaximum)
    }
}
