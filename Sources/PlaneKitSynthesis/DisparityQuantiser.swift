/// ``SensorModel/quantise(depth:focalLength:)`` with its last division replaced by a table
/// lookup (and the sensor's output sample too, see ``SensorReadingSink``), bit for bit the same result: the reported depth `b·f / (n·step)` depends only on the
/// whole number of steps `n`, and a frame's depths use a few hundred values of `n`.
///
/// When the step is a power of two (the Kinect's 1/8), dividing by it is multiplying by its
/// reciprocal exactly, so that division goes too; what is left is the one division `b·f / z`.
struct DisparityQuantiser {
    /// `b·f`.
    let baselineFocal: Float
    /// The disparity step in pixels (> 0).
    let step: Float
    /// `1 / step` when that is exact (a power of two), else 0.
    let exactInverseStep: Float
    /// `depths[n] = b·f / (n·step)` for `1 ≤ n < tableSize`; `depths[0]` is unused.
    let depths: ContiguousArray<Float>

    /// Step counts with a table entry: disparities up to 2048/8 = 256 pixels, i.e. depths down to
    /// about 15 cm for a Kinect; larger counts are computed.
    static let tableSize = 2048

    /// The quantiser of `sensor` at focal length `f`, nil when the sensor does not quantise.
    init?(sensor: SensorModel, focalLength f: Float) {
        guard sensor.disparityStep > 0 else { return nil }
        let bf = sensor.baseline * f, step = sensor.disparityStep
        baselineFocal = bf
        self.step = step
        let inverse = 1 / step
        let isPowerOfTwo = step.isNormal && inverse.isNormal && step.significandBitPattern == 0
        exactInverseStep = isPowerOfTwo ? inverse : 0
        depths = ContiguousArray((0..<DisparityQuantiser.tableSize).map { $0 == 0 ? .nan : bf / (Float($0) * step) })
    }

    /// The whole number of disparity steps `z` reads as, 0 or less when `z` gives no reading
    /// (not positive, or beyond any step). For `0 < n < tableSize` the depth is `depths[n]`,
    /// otherwise ``depth(ofSteps:)``; either way the very bits `SensorModel.quantise` returns.
    @inline(__always)
    func steps(_ z: Float) -> Float {
        guard z > 0 else { return 0 }
        let disparity = exactInverseStep != 0 ? baselineFocal / z * exactInverseStep : baselineFocal / z / step
        // SensorModel.roundedHalfAwayFromZero for the non-negative disparities seen here, with
        // the half-up choice as a select rather than a branch: the fraction is as likely above
        // one half as below, so a branch was mispredicted on every other pixel.
        guard disparity >= 0, disparity < 0x1p23 else { return SensorModel.roundedHalfAwayFromZero(disparity) }
        let whole = Float(Int32(disparity))
        return whole + (disparity - whole >= 0.5 ? 1 : 0)
    }

    /// The depth of `n > 0` steps, computed (for counts beyond the table).
    func depth(ofSteps n: Float) -> Float { baselineFocal / (n * step) }
}
