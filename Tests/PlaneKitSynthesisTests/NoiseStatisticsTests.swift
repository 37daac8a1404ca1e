import Foundation
import PlaneKitGeometry
import PlaneKitSynthesis
import Testing

/// The Kinect model's noise and dropouts measured on flat walls at several depths, against the
/// model's numbers: proof that the per-pixel random draws have the statistics they claim.
@Suite struct NoiseStatisticsTests {
    /// Depths (m) of the walls measured.
    static let depths: [Float] = [1, 2.5, 4]

    /// Readings (z, m) and the fraction of pixels without one, for a wall at `depth` facing the
    /// identity camera (every pixel sees it, no edges, incidence below 40°).
    private func measure(_ sensor: SensorModel, wallAt depth: Float, seed: UInt64) -> (readings: [Double], holes: Double) {
        let frame = SyntheticRenderer(sensor: sensor).render(Scenes.wall(at: depth), pose: .identity, noiseSeed: seed)
        let readings = frame.cloud.points.filter(\.isFinite).map { Double($0.z) }
        return (readings, 1 - Double(readings.count) / Double(frame.cloud.count))
    }

    @Test func unquantisedNoiseHasTheModelledDeviationAndDropoutRate() {
        var sensor = SensorModel.kinect
        sensor.disparityStep = 0
        for (index, depth) in NoiseStatisticsTests.depths.enumerated() {
            let (readings, holes) = measure(sensor, wallAt: depth, seed: 40 + UInt64(index))
            let (mean, deviation) = Scenes.meanAndDeviation(readings)
            let sigma = Double(sensor.depthSigma(atDepth: depth))
            // ≈ 304 000 readings: σ is known to ±0.13% (1 s.e.), the mean to ±σ/551.
            #expect(abs(mean - Double(depth)) < 0.01 * sigma, "wall at \(depth) m: mean \(mean)")
            #expect(abs(deviation / sigma - 1) < 0.01, "wall at \(depth) m: σ \(deviation), modelled \(sigma)")
            // Dropouts 1%: s.e. of the fraction 1.8·10⁻⁴.
            #expect(abs(holes - Double(sensor.dropoutRate)) < 0.001, "wall at \(depth) m: \(holes) holes")
            // The tails are normal too: P(|e| > 2σ) = 4.55%, s.e. 3.8·10⁻⁴.
            let beyond = Double(readings.filter { abs($0 - Double(depth)) > 2 * sigma }.count) / Double(readings.count)
            #expect(abs(beyond - 0.0455) < 0.002, "wall at \(depth) m: \(beyond) beyond 2σ")
        }
    }

    @Test func quantisedNoiseMatchesTheQuantisedNormal() {
        // The full Kinect model: z + σ·g, then the disparity b·f/z rounded to 1/8 px. The levels
        // and their probabilities follow from the normal CDF, so mean and σ of the readings are
        // predicted exactly, including where the wall sits between two levels.
        let sensor = SensorModel.kinect
        let bf = Double(sensor.baseline) * 525, step = Double(sensor.disparityStep)
        for (index, depth) in NoiseStatisticsTests.depths.enumerated() {
            let (readings, holes) = measure(sensor, wallAt: depth, seed: 60 + UInt64(index))
            let z = Double(depth), sigma = Double(sensor.depthSigma(atDepth: depth))
            func cdf(_ x: Double) -> Double { 0.5 * erfc(-(x - z) / (sigma * 2.0.squareRoot())) }
            var total = 0.0, first = 0.0, second = 0.0
            let centre = Int((bf / z / step).rounded())
            for n in (centre - 40)...(centre + 40) where n > 0 {
                // Level n is read for depths in (b·f/((n + ½)s), b·f/((n − ½)s)].
                let p = cdf(bf / ((Double(n) - 0.5) * step)) - cdf(bf / ((Double(n) + 0.5) * step))
                let level = bf / (Double(n) * step)
                total += p
                first += p * level
                second += p * level * level
            }
            let mean = first / total, deviation = (second / total - mean * mean).squareRoot()
            let (measuredMean, measuredDeviation) = Scenes.meanAndDeviation(readings)
            #expect(abs(total - 1) < 1e-9)
            #expect(abs(measuredMean - mean) < 0.01 * deviation, "wall at \(depth) m: mean \(measuredMean), predicted \(mean)")
            #expect(abs(measuredDeviation / deviation - 1) < 0.01,
                    "wall at \(depth) m: σ \(measuredDeviation), predicted \(deviation) (σ_z \(sigma))")
            #expect(abs(holes - Double(sensor.dropoutRate)) < 0.001, "wall at \(depth) m: \(holes) holes")
        }
    }

    @Test func pixelsDrawIndependently() {
        // Neighbouring pixels' noise is uncorrelated: the lag-1 correlation along rows of a
        // noise-only wall is within noise of 0.
        var sensor = SensorModel.ideal
        sensor.noiseConstant = 0.0012
        sensor.noiseQuadratic = 0.0019
        let frame = SyntheticRenderer(sensor: sensor).render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 77)
        let e = frame.cloud.points.map { Double($0.z) - 2 }
        var product = 0.0, squares = 0.0
        for v in 0..<480 {
            for u in 0..<639 {
                product += e[v * 640 + u] * e[v * 640 + u + 1]
                squares += e[v * 640 + u] * e[v * 640 + u]
            }
        }
        // 306 720 pairs: s.e. of the correlation ≈ 0.0018.
        #expect(abs(product / squares) < 0.01, "lag-1 correlation \(product / squares)")
        // Nor between rows (each row reads the noise tables at its own offsets): neighbours
        // one and two rows apart, and the same column 100 rows apart.
        for lag in [1, 2, 100] {
            var product = 0.0, squares = 0.0
            for v in 0..<(480 - lag) {
                for u in 0..<640 {
                    product += e[v * 640 + u] * e[(v + lag) * 640 + u]
                    squares += e[v * 640 + u] * e[v * 640 + u]
                }
            }
            #expect(abs(product / squares) < 0.01, "correlation between rows \(lag) apart: \(product / squares)")
        }
        // Another seed gives other noise, the same seed the same.
        let again = SyntheticRenderer(sensor: sensor).render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 77)
        let other = SyntheticRenderer(sensor: sensor).render(Scenes.wall(at: 2), pose: .identity, noiseSeed: 78)
        #expect(again.cloud.points.map(\.z.bitPattern) == frame.cloud.points.map(\.z.bitPattern))
        #expect(zip(other.cloud.points, frame.cloud.points).filter { $0.0.z == $0.1.z }.count < 1000)
    }
}
