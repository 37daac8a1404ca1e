/// How a depth in metres becomes a 16-bit depth sample: `sample = depth × samplesPerMetre`
/// rounded to nearest (ties to even), clamped to 65 535, with 0 for no reading (millimetres for
/// a Kinect). Readers take 65 535 as no reading too (`DepthReadingRules`), so a depth beyond
/// ``maximumDepth`` reads back as a hole, as it would from a sensor out of its range.
public struct Depth16Encoding: Sendable, Hashable {
    /// Samples per metre (1000 for millimetres).
    public let samplesPerMetre: Float
    /// The deepest depth a sample can hold, `65535 / samplesPerMetre`.
    public let maximumDepth: Float

    /// An encoding of `samplesPerMetre` units per metre (must be positive and finite).
    public init(samplesPerMetre: Float) {
        precondition(samplesPerMetre > 0 && samplesPerMetre.isFinite, "samples per metre must be positive and finite")
        self.samplesPerMetre = samplesPerMetre
        maximumDepth = 65535 / samplesPerMetre
    }

    /// Millimetres, as Kinect depth images store them.
    public static let millimetres = Depth16Encoding(samplesPerMetre: 1000)

    /// The sample for `depth` metres: 0 for no reading (NaN, zero or negative).
    @inline(__always)
    public func sample(_ depth: Float) -> UInt16 {
        // NaN fails the comparison, so holes become 0. Adding 1.5·2²³ rounds the scaled depth
        // (0…65 535) to a whole number in the low mantissa bits, as `samples` does per lane,
        // without `rounded()`'s libm call or a trap-checked conversion.
        guard depth > 0 else { return 0 }
        let scaled = min(depth, maximumDepth) * samplesPerMetre + 0x1.8p23
        return UInt16(truncatingIfNeeded: scaled.bitPattern &- 0x4B40_0000)
    }

    /// ``sample(_:)`` of eight depths at once, each sample in the low 16 bits of its lane.
    @inline(__always)
    func samples(_ depths: SIMD8<Float>) -> SIMD8<Int32> {
        // Whole-lane constants and `replacing`: comparisons with a scalar and `clamped` compile
        // to loops over the lanes. NaN fails `> 0`, so holes become 0.
        let zeros = SIMD8<Float>(repeating: 0), deepest = SIMD8<Float>(repeating: maximumDepth)
        var readings = depths.replacing(with: zeros, where: .!(depths .> zeros))
        readings.replace(with: deepest, where: readings .> deepest)
        return (readings * samplesPerMetre).roundedToInt
    }
}
