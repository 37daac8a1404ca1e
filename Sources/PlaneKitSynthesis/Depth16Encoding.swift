/// How a depth in metres becomes a 16-bit depth sample: `sample = depth × samplesPerMetre`
/// rounded to nearest, clamped to 65 535, with 0 for no reading (millimetres for a Kinect).
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

    /// The sample for `depth` metres: 0 for no reading (NaN, zero or negative). Adding 0.5 and
    /// truncating rounds to nearest without `rounded()`'s libm call (a value within a float
    /// step below a tie may round up, which no one can see).
    @inline(__always)
    public func sample(_ depth: Float) -> UInt16 {
        // NaN fails the comparison, so holes become 0.
        depth > 0 ? UInt16(min(depth, maximumDepth) * samplesPerMetre + 0.5) : 0
    }
}
