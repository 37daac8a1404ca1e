import PlaneKitGeometry
import PlaneKitSynthesis

/// Measurements of profile frames against their ground truth.
enum ProfileChecks {
    /// For every pixel with a reading and a plane label (`only` that label, when given): the
    /// depth error of the reading against the depth where the pixel's ray meets its labelled true
    /// plane (m), that true depth, and the pixel's index.
    static func depthErrors(_ frame: SyntheticFrame, grid: SensorGrid, only: UInt16? = nil)
        -> [(error: Float, depth: Float, pixel: Int)] {
        var errors: [(error: Float, depth: Float, pixel: Int)] = []
        for v in 0..<frame.height {
            for u in 0..<frame.width {
                let i = v * frame.width + u, label = frame.labels[i]
                let p = frame.cloud.points[i]
                guard label > 0, only == nil || label == only, p.isFinite,
                      let plane = frame.plane(id: label)?.cameraPlane else { continue }
                let ray = grid.ray(u: u, v: v)
                let trueDepth = -(plane.offset + dot(plane.normal, ray.origin)) / dot(plane.normal, ray.direction)
                errors.append((p.z - trueDepth, trueDepth, i))
            }
        }
        return errors
    }

    /// The RMS of a reading's depth error when its Gaussian noise has σ `sigma` and it is then
    /// rounded to multiples of `step`: √(σ² + step²/12), the rounding adding a uniform error.
    static func quantisedSigma(_ sigma: Float, step: Float) -> Float {
        (sigma * sigma + step * step / 12).squareRoot()
    }

    /// The depth errors of ``depthErrors(_:grid:only:)`` divided by the profile's σ at that
    /// depth with its quantisation (``quantisedSigma(_:step:)``), or undivided when the profile
    /// has neither.
    static func normalisedResiduals(_ frame: SyntheticFrame, profile: SimulatedSensor) -> [Double] {
        depthErrors(frame, grid: profile.grid).map { e in
            let sigma = quantisedSigma(profile.depthSigma(atDepth: e.depth), step: profile.depthStep)
            return Double(e.error) / Double(sigma > 0 ? sigma : 1)
        }
    }

    /// The normalised residuals of `profile`'s frames of `seeds` (see
    /// ``normalisedResiduals(_:profile:)``): how many, their mean and deviation, the fraction
    /// within 4 (σ) and the largest magnitude.
    static func noiseFigures(_ profile: SimulatedSensor, seeds: ClosedRange<UInt64>)
        -> (count: Int, mean: Double, deviation: Double, within4: Double, largest: Double) {
        var residuals: [Double] = []
        for seed in seeds {
            residuals += normalisedResiduals(SyntheticFrame(seed: seed, sensor: profile), profile: profile)
        }
        let (mean, deviation) = Scenes.meanAndDeviation(residuals)
        let within4 = Double(residuals.filter { abs($0) <= 4 }.count) / Double(residuals.count)
        return (residuals.count, mean, deviation, within4, residuals.map(abs).max() ?? 0)
    }

    /// The faces of `frame` with at least `minimum` labelled pixels, and their pixel counts.
    static func faceSizes(_ frame: SyntheticFrame, minimum: Int = 1) -> [Int] {
        frame.visiblePlanes(minimumPixels: minimum).map(\.pixelCount)
    }

    /// `true` when two frames have the same points (bit for bit, NaN holes alike) and labels.
    static func identical(_ a: SyntheticFrame, _ b: SyntheticFrame) -> Bool {
        a.labels == b.labels && a.cloud.points.count == b.cloud.points.count
            && zip(a.cloud.points, b.cloud.points).allSatisfy { p, q in
                p.x.bitPattern == q.x.bitPattern && p.y.bitPattern == q.y.bitPattern && p.z.bitPattern == q.z.bitPattern
            }
    }
}
