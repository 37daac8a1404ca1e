/// What counts as a depth reading: the one place that says which 16-bit samples mean "no
/// reading" and how a maximum range turns far readings into holes.
///
/// Every path from a raw sample to metres goes through here — depth images read from PGM, PNG
/// or TIFF (``DepthImage/init(_:scale:maxDepth:)``) and `depth16` stream frames (the stream
/// decoder's sample table) — so a file and the stream made from it give the same holes.
///
/// Sensors disagree on how they mark a pixel they could not measure: Kinect and most PrimeSense
/// drivers write 0, while 7-Scenes, TUM RGB-D and some RealSense modes write 65 535. Read as a
/// distance, 65 535 mm is a wall 65.5 m away, which is never what the sensor meant; both are
/// therefore no reading, whatever the depth scale.
public enum DepthReadingRules {
    /// The 16-bit samples that mean "no reading": 0 and 65 535.
    public static let noReadingSamples: Set<UInt16> = [0, .max]

    /// `true` when `sample` is one of ``noReadingSamples``.
    @inlinable
    public static func isNoReading(_ sample: UInt16) -> Bool {
        // Two compares rather than a set lookup: this runs once per pixel of a depth image.
        sample == 0 || sample == .max
    }

    /// The depth of a 16-bit `sample` in metres (`sample × scale`), or `nil` when it is no
    /// reading: one of ``noReadingSamples``, a depth that is not positive and finite, or one
    /// farther than `maxDepth` metres (``isReading(depth:maxDepth:)``).
    @inlinable
    public static func metres(sample: UInt16, scale: Float, maxDepth: Float? = nil) -> Float? {
        guard !isNoReading(sample) else { return nil }
        let depth = Float(sample) * scale
        return isReading(depth: depth, maxDepth: maxDepth) ? depth : nil
    }

    /// `true` when a depth along the camera's +Z, in metres, is a reading: positive, finite and
    /// at most `maxDepth` (no limit when `nil`). NaN is not a reading.
    @inlinable
    public static func isReading(depth: Float, maxDepth: Float?) -> Bool {
        depth > 0 && depth <= limit(maxDepth)
    }

    /// The largest depth kept under `maxDepth`: `maxDepth` itself, or the largest finite float
    /// when there is no limit. A hot loop compares against this once per pixel, `depth > 0 &&
    /// depth <= limit`, which also refuses NaN and infinity.
    @inlinable
    public static func limit(_ maxDepth: Float?) -> Float {
        maxDepth ?? .greatestFiniteMagnitude
    }

    /// Metres for every 16-bit sample, indexed by the sample (65 536 entries): NaN where
    /// ``metres(sample:scale:maxDepth:)`` gives no reading. With it, a decoder turns a sample into
    /// a depth with one load and no branch.
    public static func table(scale: Float, maxDepth: Float?) -> ContiguousArray<Float> {
        ContiguousArray((0...Int(UInt16.max)).map { sample in
            metres(sample: UInt16(sample), scale: scale, maxDepth: maxDepth) ?? .nan
        })
    }

    /// `true` when `maxDepth` can be a maximum range: positive and finite.
    @inlinable
    public static func isValid(maxDepth: Float) -> Bool {
        maxDepth > 0 && maxDepth.isFinite
    }
}
