/// Two fixed tables of standard normal deviates from which the sensor pass reads its depth
/// noise a row at a time, in place of one ziggurat draw per pixel.
///
/// Pixel `u` of a row gets `g = (first[(a + u) mod N] + second[(b + u) mod N]) / √2`, where the
/// row's offsets `a` and `b` are uniform random (``offsets(row:frameShift:bits:)``). Why that
/// is normal and independent enough:
/// - The entries are independent N(0, 1) draws (the ziggurat from a fixed seed), so `g`, the
///   scaled sum of two of them, is N(0, 1): the normal is closed under sums, and ÷√2 restores
///   the unit variance. Averaging two tables also makes the number of distinct values N², not N.
/// - Within a row every pixel reads other entries of both tables, so a row's deviates are
///   independent. Rows read overlapping windows only where their offsets are within a row's
///   width; the offsets are tied so that `a − b` differs on every row of a frame, so two pixels
///   never share both terms (their correlation is at most ½, and only between pixels of
///   different rows at a random displacement, never between neighbours bar a 1-in-N chance).
/// - A finite table reproduces its own sample mean and variance (off by about 1/√N), and would
///   carry that bias into every frame, so each table is shifted and scaled once so that its
///   sample mean is 0 and its sample variance 1 (a change of order 0.3%).
///
/// The tables are built once per process, the same bits on every machine (``SeededRandom``,
/// ``ZigguratTables`` and correctly rounded arithmetic only).
package struct GaussianTables: Sendable {
    /// Entries per table, a power of two so that offsets wrap with a mask.
    package static let count = 1 << 16
    /// Entries repeated past the end, so that 8 consecutive entries from any start below
    /// ``count`` are contiguous in memory.
    static let padding = 8
    /// The seed the tables are drawn from.
    static let seed: UInt64 = 0x5EED_6A55_0000_0001

    /// The first and second table, each ``count`` + ``padding`` entries (the last ``padding``
    /// repeat the first ones).
    package let first: ContiguousArray<Float>
    package let second: ContiguousArray<Float>

    package static let shared = GaussianTables()

    private init() {
        var random = SeededRandom(seed: GaussianTables.seed)
        first = GaussianTables.standardisedTable(&random)
        second = GaussianTables.standardisedTable(&random)
    }

    /// ``count`` ziggurat deviates with their sample mean and variance made exactly 0 and 1
    /// (in `Double`), rounded to `Float`, then padded.
    private static func standardisedTable(_ random: inout SeededRandom) -> ContiguousArray<Float> {
        let tables = ZigguratTables.shared
        var values = [Double](repeating: 0, count: count)
        for i in 0..<count { values[i] = random.zigguratGaussian(tables) }
        let mean = values.reduce(0, +) / Double(count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(count)
        let scale = 1 / variance.squareRoot()
        var table = ContiguousArray<Float>(values.map { Float(($0 - mean) * scale) })
        table.append(contentsOf: table[0..<padding])
        return table
    }

    /// The offsets `(a, b)` of `row` into the first and second table, from 64 random `bits`:
    /// `a` uniform, and `b = a − frameShift − row` (mod ``count``), so that `a − b` is
    /// different on every row of a frame (up to ``count`` rows) while `b` is uniform too.
    @inline(__always)
    package static func offsets(row: Int, frameShift: Int, bits: UInt64) -> (first: Int, second: Int) {
        let mask = count &- 1
        let a = Int(truncatingIfNeeded: bits) & mask
        return (a, (a &- frameShift &- row) & mask)
    }
}
