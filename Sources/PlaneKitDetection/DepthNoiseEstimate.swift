import PlaneKitGeometry

/// A sensor's depth noise and sampling density, measured from one of its frames.
///
/// Real sensors differ by two orders of magnitude: a tabletop scanner measures to a few tenths of
/// a millimetre, a Kinect at 3 m to more than a centimetre. Rather than assume one sensor, the
/// detector's ``SensorProfile/auto`` reads the noise off the frame itself: man-made scenes are
/// mostly planar at the scale of a few pixels, so small blocks of neighbouring points are fitted
/// with planes, and the median of their residuals (which blocks across an edge or on a curved
/// surface do not move while most blocks are flat) is the sensor's noise. Binned by depth,
/// they give the noise model σ(z) = constant + quadratic · z².
public struct DepthNoiseEstimate: Sendable, Hashable {
    /// The measured depth noise as a function of depth.
    public var noise: DepthNoiseModel
    /// The median depth (z) of the measured blocks.
    public var medianDepth: Float
    /// The distance between neighbouring points at ``medianDepth`` (in the cloud's units).
    public var pointSpacing: Float
    /// How many blocks were measured.
    public var blockCount: Int
    /// `true` when the frame is a camera's image (intrinsics, or points that follow a pinhole
    /// projection), `false` for other organized grids such as a scanner's range image.
    public var isCamera: Bool
    /// The step depth comes in (``DepthQuantization``), or 0 when it does not come in steps.
    public var depthStep: Float = 0

    /// Noise over spacing at the median depth: how rough the data is at the scale of a pixel,
    /// which decides how small a grid cell can be and still give a reliable normal.
    public var roughness: Float { noise.sigma(atDepth: medianDepth) / pointSpacing }

    /// The noise at the median depth as a share of that depth, without what quantisation adds
    /// (q²/12 of variance for steps of q): a fine scanner's 8-bit range steps do not make it a
    /// noisy sensor.
    public var relativeNoise: Float {
        let sigma = noise.sigma(atDepth: medianDepth)
        return max(0, sigma * sigma - depthStep * depthStep / 12).squareRoot() / medianDepth
    }

    /// Noise over spacing at the median depth once the depth staircase is smoothed
    /// (``DepthQuantization``), measured on the smoothed grid; `nil` when depth does not come in
    /// steps.
    public var smoothedRoughness: Float?

    /// A camera image resolves finer than this share of its depth (a focal length above 1100
    /// pixels) only when it is a precise scanner's: depth cameras have 500–1000 (PCL's stereo
    /// frame 980, SegComp's ABW scanner about 2200).
    static let objectScaleAngularSpacing: Float = 0.0009
    /// No depth camera measures depth to better than this share of it (a Kinect or a RealSense:
    /// 0.2–0.3% at its nearest; PCL's smoothed stereo frame 0.085%; SegComp's ABW scanner
    /// 0.03–0.055%).
    static let objectScaleRelativeNoise: Float = 0.0007

    /// What was measured, in words: "noise 0.42 mm at 1.01 m, points 0.57 mm apart, depth in
    /// steps of 1.30 mm" (in the cloud's units taken as metres).
    public var summary: String {
        let millimetres = Self.millimetres
        let metres = Int((medianDepth * 100).rounded())
        var text = "noise \(millimetres(noise.sigma(atDepth: medianDepth))) at \(metres / 100).\(metres % 100 < 10 ? "0" : "")\(metres % 100) m, "
            + "points \(millimetres(pointSpacing)) apart"
        if depthStep > 0 { text += ", depth in steps of \(millimetres(depthStep))" }
        return text
    }

    /// A length in the cloud's units (taken as metres) in millimetres to two places: "0.42 mm".
    static func millimetres(_ value: Float) -> String {
        let hundredths = Int((value * 100_000).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100).\(fraction.count < 2 ? "0" + fraction : fraction) mm"
    }

    /// `true` when the data is to be detected at object scale, with cells of a few pixels: a
    /// grid that is not a camera image, or a camera image both finer and less noisy than any
    /// depth camera (spacing under 0.09% and noise under 0.07% of the depth) — a precise scanner
    /// whose grid happens to be close to a pinhole projection, such as SegComp's range images.
    public var isObjectScale: Bool {
        !isCamera || (isFinelySampled && relativeNoise < Self.objectScaleRelativeNoise)
    }

    /// `true` when neighbouring points are closer than any depth camera puts them (under 0.09%
    /// of their depth).
    public var isFinelySampled: Bool { pointSpacing < Self.objectScaleAngularSpacing * medianDepth }

    /// A measured estimate from its parts.
    public init(noise: DepthNoiseModel, medianDepth: Float, pointSpacing: Float, blockCount: Int, isCamera: Bool,
                depthStep: Float = 0) {
        self.noise = noise
        self.medianDepth = medianDepth
        self.pointSpacing = pointSpacing
        self.blockCount = blockCount
        self.isCamera = isCamera
        self.depthStep = depthStep
    }
}

extension DepthNoiseEstimate {
    /// The fewest blocks an estimate is made from.
    static let minimumBlocks = 24
    /// The smallest noise constant (m) measured for a camera image.
    static let cameraNoiseFloor: Float = 0.0005
    /// The quantile of block residuals taken as the noise.
    static let residualQuantile: Float = 0.4
    /// A block whose normal is seen more obliquely than this (|cos| below it) is not used: the
    /// correction from the perpendicular residual back to noise along the ray grows without bound.
    static let minimumCosine: Float = 0.25

    /// What the ``residualQuantile`` of block residuals is, as a share of σ, for blocks of `n`
    /// points whose residual is pure Gaussian noise: √(χ²ₙ₋₃(0.5) / n), by the Wilson–Hilferty
    /// approximation of the χ² quantile.
    static func quantileOfSigma(points n: Int) -> Float {
        let k = Float(n - 3), z: Float = -0.2533  // the standard normal's 40% quantile
        let a = 2 / (9 * k)
        let b = 1 - a + z * a.squareRoot()
        let chi = k * b * b * b
        return (chi / Float(n)).squareRoot()
    }

    /// Measures the noise of an organized cloud from `blockSide`×`blockSide` blocks of valid
    /// points, every `pixelStep`-th pixel of a block read both ways (at least nine in ten of
    /// those measured), one block in `blockStride`² on a regular lattice, or returns `nil` when
    /// fewer than ``minimumBlocks`` such blocks fit a plane.
    ///
    /// The blocks should be the detector's cells: the noise a cell's planarity test must allow
    /// is what the sensor shows at that scale, which for a smoothed stereo map or a quantised
    /// structured-light one is more than it shows across a few pixels.
    ///
    /// Depth noise moves a point along its viewing ray, so a block's perpendicular residual is the
    /// noise times the cosine between its normal and the ray; the estimate divides that back out.
    /// With `rays` false (a grid that is not a camera image) the residual is taken as it is and
    /// the model is constant in depth.
    static func measure(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                        rays: Bool, blockSide side: Int, blockStride: Int, pixelStep: Int) -> DepthNoiseEstimate? {
        let step = side * blockStride
        // Points read per block side: every pixelStep-th pixel of the block, both ways.
        let samples = (side + pixelStep - 1) / pixelStep
        guard width >= side, height >= side else { return nil }
        struct Block { var depth: Float; var sigma: Float; var spacing: Float }
        var blocks: [Block] = []
        blocks.reserveCapacity((width / step + 1) * (height / step + 1))
        var y0 = (height % step) / 2
        while y0 + side <= height {
            var x0 = (width % step) / 2
            while x0 + side <= width {
                defer { x0 += step }
                // Holes are skipped; a block needs nine in ten of its points measured.
                let reference = points[(y0 + side / 2) * width + x0 + side / 2]
                guard CellGrid.isValid(reference) else { continue }
                let sums = blockSums(points: points, width: width, x0: x0, y0: y0, side: side, pixelStep: pixelStep,
                                     reference: reference)
                guard 10 * Int(sums.count) >= 9 * samples * samples else { continue }
                guard let fit = FastPlaneFit(sums.moments) else { continue }
                let centroid = SIMD3<Float>(fit.centroid)
                var cosine: Float = 1
                if rays {
                    cosine = abs(dot(SIMD3<Float>(fit.normal), normalize(centroid)))
                    guard cosine >= minimumCosine else { continue }
                }
                // The in-plane spread of m×m samples spaced d apart is d²(m² − 1)/12 along each
                // axis, with d = pixelStep times the pixel spacing; the narrower axis (the middle
                // eigenvalue) is the one oblique viewing stretches least.
                let spacing = (Float(fit.middleEigenvalue) * 12 / Float(samples * samples - 1)).squareRoot()
                    / Float(pixelStep)
                let rms = Float(fit.meanSquaredError).squareRoot()
                guard spacing > 0, spacing.isFinite, rms.isFinite else { continue }
                blocks.append(Block(depth: centroid.z, sigma: rms / cosine, spacing: spacing))
            }
            y0 += step
        }
        guard blocks.count >= minimumBlocks else { return nil }

        // Up to eight depth bins of equal count; in each, the noise from the median residual.
        blocks.sort { $0.depth < $1.depth }
        let binCount = max(1, min(8, blocks.count / 16))
        var binDepths: [Float] = [], binSigmas: [Float] = [], binWeights: [Float] = []
        for b in 0..<binCount {
            let slice = blocks[(b * blocks.count / binCount)..<((b + 1) * blocks.count / binCount)]
            let sigmas = slice.map(\.sigma).sorted()
            let sigma = sigmas[Int(residualQuantile * Float(sigmas.count - 1))] / quantileOfSigma(points: samples * samples)
            binDepths.append(slice[slice.startIndex + slice.count / 2].depth)
            binSigmas.append(sigma)
            binWeights.append(Float(slice.count))
        }
        let medianDepth = blocks[blocks.count / 2].depth
        let spacings = blocks.map(\.spacing).sorted()
        // Spacing grows in proportion to depth for a camera; take the median block's ratio.
        let ratios = blocks.map { $0.spacing / max($0.depth, .leastNormalMagnitude) }.sorted()
        let spacing = rays ? ratios[ratios.count / 2] * medianDepth : spacings[spacings.count / 2]

        let model = fitModel(depths: binDepths, sigmas: binSigmas, weights: binWeights, rays: rays,
                             medianDepth: medianDepth)
        return DepthNoiseEstimate(noise: model, medianDepth: medianDepth, pointSpacing: spacing,
                                  blockCount: blocks.count, isCamera: rays)
    }

    /// The sums of the valid points of a block (every `pixelStep`-th pixel of `side` rows and
    /// columns from `x0`, `y0`) relative to `reference`, point by point in scan order. Each of
    /// the nine sums is a scalar of its own, so the loop keeps them in registers: kept as
    /// ``ShiftedSums``' `SIMD3` fields, every addition shuffles them in and out of vectors
    /// (the noise measurement then costs half as many instructions again, for the same sums).
    static func blockSums(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, x0: Int, y0: Int, side: Int,
                          pixelStep: Int, reference r: SIMD3<Float>) -> ShiftedSums {
        var count: Int32 = 0
        var sx: Float = 0, sy: Float = 0, sz: Float = 0
        var sxx: Float = 0, syy: Float = 0, szz: Float = 0
        var sxy: Float = 0, sxz: Float = 0, syz: Float = 0
        var v = y0
        while v < y0 &+ side {
            var point = points.baseAddress! + (v &* width &+ x0)
            var u = 0
            while u < side {
                let p = point.pointee
                point += pixelStep
                u &+= pixelStep
                guard CellGrid.isValid(p) else { continue }
                let dx = p.x - r.x, dy = p.y - r.y, dz = p.z - r.z
                count &+= 1
                sx += dx; sy += dy; sz += dz
                sxx += dx * dx; syy += dy * dy; szz += dz * dz
                sxy += dx * dy; sxz += dx * dz; syz += dy * dz
            }
            v &+= pixelStep
        }
        var sums = ShiftedSums(reference: r)
        sums.count = count
        sums.sum = SIMD3(sx, sy, sz)
        sums.squares = SIMD3(sxx, syy, szz)
        sums.cross = SIMD3(sxy, sxz, syz)
        return sums
    }

    /// σ(z) = c + q·z² through the bins by weighted least squares when depth explains the noise,
    /// else a constant (the weighted median of the bins). The constant is kept above
    /// ``cameraNoiseFloor`` for a camera, above a millionth of the median depth otherwise, so a
    /// noiseless frame still gives usable thresholds.
    static func fitModel(depths: [Float], sigmas: [Float], weights: [Float], rays: Bool,
                         medianDepth: Float) -> DepthNoiseModel {
        // A camera's depth is in metres and no depth camera is better than half a millimetre
        // (millimetre depth units alone are 0.3 mm of noise); a frame that looks smoother has
        // been smoothed, and its systematic error is larger than its noise.
        let floor = rays ? cameraNoiseFloor : max(1e-6 * abs(medianDepth), 1e-7)
        var half = weights.reduce(0, +) / 2
        var constant = sigmas[0]
        for i in sigmas.indices.sorted(by: { sigmas[$0] < sigmas[$1] }) {
            constant = sigmas[i]
            half -= weights[i]
            if half <= 0 { break }
        }
        let flat = DepthNoiseModel(constant: max(constant, floor), quadratic: 0, referenceDepth: 0)
        guard rays, depths.count >= 3, let near = depths.first, let far = depths.last, far > 1.3 * near else { return flat }
        // Weighted least squares in (1, z²).
        var s00: Double = 0, s01: Double = 0, s11: Double = 0, t0: Double = 0, t1: Double = 0
        for i in depths.indices {
            let w = Double(weights[i]), z2 = Double(depths[i] * depths[i]), s = Double(sigmas[i])
            s00 += w; s01 += w * z2; s11 += w * z2 * z2; t0 += w * s; t1 += w * z2 * s
        }
        let det = s00 * s11 - s01 * s01
        guard det > 0 else { return flat }
        var q = (s00 * t1 - s01 * t0) / det
        var c = (t0 - q * s01) / s00
        if q <= 0 || !q.isFinite { return flat }
        if c < Double(floor) {
            // Through the floor instead: the best q with c fixed.
            c = Double(floor)
            q = max(0, (t1 - c * s01) / s11)
        }
        // Keep the quadratic only when it explains the bins clearly better than a constant.
        var flatError: Double = 0, curveError: Double = 0
        for i in depths.indices {
            let w = Double(weights[i]), z2 = Double(depths[i] * depths[i]), s = Double(sigmas[i])
            flatError += w * (s - Double(flat.constant)) * (s - Double(flat.constant))
            curveError += w * (s - c - q * z2) * (s - c - q * z2)
        }
        guard curveError < 0.5 * flatError else { return flat }
        return DepthNoiseModel(constant: Float(c), quadratic: Float(q), referenceDepth: 0)
    }
}
