/// ``SensorModel/quantise(depth:focalLength:)`` with its last division replaced by a table
/// lookup, bit for bit the same result: the reported depth `b·f / (n·step)` depends only on the
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

    /// The quantised depth for `z`, the same bits as `SensorModel.quantise(depth: z, focalLength: f)`;
    /// `table` is ``depths``' storage.
    @inline(__always)
    func quantise(_ z: Float, table: UnsafeBufferPointer<Float>) -> Float {
        guard z > 0 else { return z }
        let disparity = exactInverseStep != 0 ? baselineFocal / z * exactInverseStep : baselineFocal / z / step
        let steps = SensorModel.roundedHalfAwayFromZero(disparity)
        if steps > 0 && steps < Float(DisparityQuantiser.tableSize) { return table[Int(steps)] }
        return steps > 0 ? baselineFocal / (steps * step) : .nan
    }
}
