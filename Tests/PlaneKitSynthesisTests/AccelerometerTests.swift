import PlaneKitGeometry
@testable import PlaneKitSynthesis
import Testing
@testable import PlaneKitSyntheticWalks

/// The simulated accelerometer of ``SyntheticSequence``: readings that integrate back to the
/// walk, with the noise and offset its model says.
@Suite struct AccelerometerTests {
    /// Dead reckoning from the true position and velocity with ideal readings follows the walk
    /// to a fraction of a millimetre over a second, wherever it starts.
    @Test func idealReadingsIntegrateToTheWalk() {
        let sequence = SyntheticSequence(seed: 1, frameCount: 600)
        let dt = Float(1 / sequence.frameRate)
        let gravity = SIMD3<Float>(0, -9.80665, 0)
        for start in [0, 100, 200, 460] {
            var position = sequence.pose(ofFrame: start).translation
            var velocity = sequence.velocity(atTime: sequence.timestamp(ofFrame: start))
            var worst: Float = 0
            for i in (start + 1)...(start + 30) {
                let reading = sequence.accelerometerReading(ofFrame: i, noise: .ideal)
                let acceleration = sequence.pose(ofFrame: i).rotation * reading + gravity
                position += velocity * dt + 0.5 * acceleration * dt * dt
                velocity += acceleration * dt
                worst = max(worst, length(position - sequence.pose(ofFrame: i).translation))
            }
            #expect(worst < 0.0005, "from frame \(start): \(worst * 1000) mm")
        }
    }

    /// At walking pace the reading is gravity's reaction, upwards, give or take the walk's turns.
    @Test func aWalkReadsAboutOneGUpwards() {
        let sequence = SyntheticSequence(seed: 2, frameCount: 300)
        for i in stride(from: 0, to: 300, by: 10) {
            let up = sequence.pose(ofFrame: i).rotation * sequence.accelerometerReading(ofFrame: i, noise: .ideal)
            #expect(abs(length(up) - 9.80665) < 0.5)
            #expect(up.y > 9.7)
        }
    }

    /// The calibrated model's readings differ from the ideal ones by a constant offset of
    /// 0.03 m/s² and white noise of 0.01 m/s² per axis, the same for the same seed.
    @Test func calibratedNoiseHasItsOffsetAndSpread() {
        let sequence = SyntheticSequence(seed: 3, frameCount: 2000)
        let noise = SyntheticSequence.AccelerometerNoise.calibrated
        var sum = SIMD3<Double>.zero, squares = SIMD3<Double>.zero
        let n = 2000
        for i in 0..<n {
            let difference = SIMD3<Double>(sequence.accelerometerReading(ofFrame: i, noise: noise)
                - sequence.accelerometerReading(ofFrame: i, noise: .ideal))
            sum += difference
            squares += difference * difference
        }
        let mean = sum / Double(n)
        let spread = (squares / Double(n) - mean * mean).squareRoot()
        #expect(abs((mean * mean).sum().squareRoot() - Double(noise.bias)) < 0.002)
        for axis in 0..<3 { #expect(abs(spread[axis] - Double(noise.sigma)) < 0.001) }
        #expect(sequence.accelerometerReading(ofFrame: 7) == sequence.accelerometerReading(ofFrame: 7))
    }
}
