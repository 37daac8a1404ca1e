import PlaneKitGeometry
import PlaneKitSeededRandom

extension SyntheticSequence {
    /// Noise of the simulated accelerometer: a calibrated MEMS IMU as in depth cameras with one
    /// (RealSense D435i, Azure Kinect), its samples averaged over each frame interval.
    public struct AccelerometerNoise: Sendable, Hashable {
        /// Standard deviation of each axis of one frame's mean reading (m/s²): white noise of
        /// about 150 µg/√Hz averaged over 1/30 s.
        public var sigma: Float
        /// Length of the constant offset left after calibration (m/s²), in a direction fixed by
        /// the sequence's seed, in camera coordinates.
        public var bias: Float

        /// The noise of a D435i-class IMU after its calibration tool has run.
        public static let calibrated = AccelerometerNoise(sigma: 0.01, bias: 0.03)
        /// No noise.
        public static let ideal = AccelerometerNoise(sigma: 0, bias: 0)

        /// Noise of `sigma` per reading and a constant offset of length `bias`.
        public init(sigma: Float, bias: Float) {
            self.sigma = sigma
            self.bias = bias
        }
    }

    /// What the accelerometer reads over the interval ending at frame `index` (from the frame
    /// before; frame 0 from 1/frameRate earlier): the mean specific force — acceleration minus
    /// gravity's, so a camera at rest reads 9.81 m/s² upwards — in frame `index`'s camera
    /// coordinates (+X right, +Y down, +Z forward), with `noise`.
    public func accelerometerReading(ofFrame index: Int, noise: AccelerometerNoise = .calibrated) -> SIMD3<Float> {
        let interval = 1 / frameRate
        let end = timestamp(ofFrame: index)
        let meanAcceleration = (velocity(atTime: end) - velocity(atTime: end - interval)) / Float(interval)
        let gravity = SIMD3<Float>(0, -9.80665, 0)
        var reading = pose(ofFrame: index).rotation.transposed * (meanAcceleration - gravity)
        var offsetRandom = SeededRandom(seed: SeededRandom.derivedSeed(seed, stream: 5))
        let offset = SIMD3(Float(offsetRandom.gaussian()), Float(offsetRandom.gaussian()), Float(offsetRandom.gaussian()))
        reading += (offset.normalized ?? .zero) * noise.bias
        var random = SeededRandom(seed: SeededRandom.derivedSeed(seed, stream: 6000 &+ UInt64(truncatingIfNeeded: index)))
        reading += SIMD3(Float(random.gaussian()), Float(random.gaussian()), Float(random.gaussian())) * noise.sigma
        return reading
    }

    /// The camera's world velocity at `time` (m/s), by a central difference over 10 ms.
    func velocity(atTime time: Double) -> SIMD3<Float> {
        let h = 0.005
        return (path.pose(atTime: time + h).translation - path.pose(atTime: time - h).translation) / Float(2 * h)
    }
}
