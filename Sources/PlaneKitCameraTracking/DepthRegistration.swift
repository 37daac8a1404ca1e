import PlaneKitGeometry

/// Point-to-plane ICP of a frame against a ``DepthKeyframe``, with projective data association
/// and Gauss-Newton steps on SE(3).
///
/// The frame's valid points are sampled on two grids (every 8th and every 4th pixel); a few
/// iterations on the coarse grid bring the pose close, a few on the fine grid settle it. Each
/// point is moved by the current estimate, projected into the keyframe and paired with the
/// keyframe's point at that pixel; the residual is the distance along the keyframe's normal.
/// Residuals are weighted by the inverse variance of depth noise (σ grows with z², as for
/// triangulating sensors) and a Huber kernel, so near, precise surfaces count most and outliers
/// (moving objects, edges) lose their pull.
struct DepthRegistration: Sendable {
    /// Settings of the registration.
    struct Configuration: Sendable {
        /// Pixel strides of the coarse and fine sample grids.
        var coarseStride = 8, fineStride = 4
        /// Iteration limits on the two grids.
        var coarseIterations = 5, fineIterations = 4
        /// A pair whose points are farther apart than this (m) is no pair: at the coarse grid,
        /// then at the fine one.
        var coarseDistance: Float = 0.15, fineDistance: Float = 0.05
        /// Depth noise model used for weights: σ(z) = a + b·z² (m).
        var noiseA: Float = 0.001, noiseB: Float = 0.002
        /// Directions whose eigenvalue is below this share of the largest of their block
        /// (rotation or translation) are held at the starting pose.
        var freeBelow: Double = 0.0005
        /// An update smaller than this (radians and metres) ends the iterations on a grid.
        var convergence: Float = 2e-4
        /// The defaults.
        init() {}
    }

    /// What one registration found.
    struct Result: Sendable {
        /// Keyframe-from-frame transform.
        var transform: Transform
        /// Valid sample points of the frame (fine grid).
        var samples: Int
        /// Pairs whose residual is within 3σ of the noise at their depth.
        var inliers: Int
        /// Root mean square of the inliers' residuals (m).
        var rms: Float
        /// How evenly the pairs pin rotation and translation down (see
        /// ``PoseNormalEquations/conditioning``).
        var conditioning: (rotation: Double, translation: Double)
        /// How firmly the pairs hold the translation along each direction (keyframe camera
        /// coordinates): the translation block of the normal equations.
        var translationStrength: SymmetricEigenDecomposition
        /// `false` when the equations could not be solved.
        var solved: Bool

        /// Inliers over samples.
        var inlierFraction: Float { samples > 0 ? Float(inliers) / Float(samples) : 0 }
        /// The weaker of the rotation's and the translation's conditioning: how firmly the pairs
        /// hold the direction they hold least.
        var weakestConditioning: Double { min(conditioning.rotation, conditioning.translation) }
    }

    let configuration: Configuration
    /// The valid points of one sample grid, one coordinate to an array: the first `count` of
    /// `x`, `y` and `z`, which are kept at the grid's full size (in whole four-point vectors)
    /// and reused from frame to frame.
    private struct SampleGrid {
        var x = ContiguousArray<Float>(repeating: 0, count: 4)
        var y = ContiguousArray<Float>(repeating: 0, count: 4)
        var z = ContiguousArray<Float>(repeating: 0, count: 4)
        var count = 0

        /// Makes room for `size` points.
        mutating func reserve(_ size: Int) {
            let padded = (size + 3) / 4 * 4
            guard x.count < padded else { return }
            x = ContiguousArray(repeating: 0, count: padded)
            y = ContiguousArray(repeating: 0, count: padded)
            z = ContiguousArray(repeating: 0, count: padded)
        }

        /// Calls `body` with the grid's valid points.
        func withPoints<R>(_ body: (PointColumns) -> R) -> R {
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    z.withUnsafeBufferPointer { z in
                        body(PointColumns(x: x.baseAddress!, y: y.baseAddress!, z: z.baseAddress!, count: count))
                    }
                }
            }
        }

        /// Calls `body` with the grid's coordinate arrays to write.
        mutating func withStorage<R>(_ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>) -> R) -> R {
            x.withUnsafeMutableBufferPointer { x in
                y.withUnsafeMutableBufferPointer { y in
                    z.withUnsafeMutableBufferPointer { z in body(x.baseAddress!, y.baseAddress!, z.baseAddress!) }
                }
            }
        }
    }

    /// The frame's valid points on the coarse and fine grids.
    private var coarse = SampleGrid()
    private var fine = SampleGrid()

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The number of valid points on the fine grid of the frame last sampled.
    var sampleCount: Int { fine.count }

    /// Takes the valid points of an organized frame (camera coordinates, NaN or z ≤ 0 holes).
    mutating func sample(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int) {
        let c = configuration.coarseStride, f = configuration.fineStride
        // Written through pointers into storage of the grids' full size: appending point by
        // point was a third of the loop's instructions.
        func size(_ length: Int, _ step: Int, from start: Int) -> Int { length > start ? (length - start + step - 1) / step : 0 }
        let fineSize = size(width, f, from: f / 2) * size(height, f, from: f / 2)
        let coarseSize = size(width, c, from: f / 2) * size(height, c, from: f / 2)
        fine.reserve(fineSize)
        coarse.reserve(coarseSize)
        var fineFound = 0, coarseFound = 0
        fine.withStorage { fineX, fineY, fineZ in
            coarse.withStorage { coarseX, coarseY, coarseZ in
                for v in stride(from: f / 2, to: height, by: f) {
                    let row = v * width
                    let coarseRow = (v - f / 2) % c == 0
                    // The next column of the coarse grid (f/2 + k·c), kept ahead instead of a division a point.
                    var coarseColumn = f / 2
                    for u in stride(from: f / 2, to: width, by: f) {
                        while coarseColumn < u { coarseColumn += c }
                        let p = points[row + u]
                        guard p.z > 0, p.x.isFinite, p.y.isFinite, p.z.isFinite else { continue }
                        (fineX[fineFound], fineY[fineFound], fineZ[fineFound]) = (p.x, p.y, p.z)
                        fineFound += 1
                        if coarseRow, u == coarseColumn {
                            (coarseX[coarseFound], coarseY[coarseFound], coarseZ[coarseFound]) = (p.x, p.y, p.z)
                            coarseFound += 1
                        }
                    }
                }
            }
        }
        fine.count = fineFound
        coarse.count = coarseFound
    }

    /// Registers the sampled frame against `keyframe`, starting from `initial` (keyframe-from-frame).
    func register(to keyframe: DepthKeyframe, initial: Transform, heldTranslations: [SIMD3<Double>] = []) -> Result {
        var transform = initial
        var equations = PoseNormalEquations()
        var solved = true
        // The fine grid's last pass before a step too small to matter: its quality figures are
        // the estimate's, so no extra pass is needed for them.
        var settled: (inliers: Int, rms: Float)?
        let levels = [(grid: coarse, iterations: configuration.coarseIterations, distance: configuration.coarseDistance, isFine: false),
                      (grid: fine, iterations: configuration.fineIterations, distance: configuration.fineDistance, isFine: true)]
        for (grid, iterations, distance, isFine) in levels {
            for _ in 0..<iterations {
                let quality = grid.withPoints { points in
                    accumulate(points, keyframe: keyframe, transform: transform, distance: distance, into: &equations)
                }
                guard equations.count >= 6, let step = equations.solve(freeBelow: configuration.freeBelow, heldTranslations: heldTranslations) else {
                    solved = false
                    break
                }
                transform = (Transform.twist(rotation: step.rotation, translation: step.translation) * transform).orthonormalized
                if hasConverged(step) {
                    if isFine { settled = quality }
                    break
                }
            }
        }
        // Otherwise the quality on the fine grid at the estimate.
        let (inliers, rms) = settled ?? fine.withPoints { points in
            accumulate(points, keyframe: keyframe, transform: transform, distance: configuration.fineDistance, into: &equations)
        }
        return Result(transform: transform, samples: fine.count, inliers: inliers, rms: rms,
                      conditioning: equations.conditioning, translationStrength: equations.translationStrength, solved: solved)
    }

    /// Registers the sampled frame against several keyframes at once, from `initial`
    /// (world-from-frame), on the fine grid: every keyframe's pairs pull on one pose, so the
    /// result rests on all of them rather than on one link of a chain. `nil` when the equations
    /// cannot be solved.
    func register(toAll keyframes: [DepthKeyframe], initial: Transform, iterations: Int) -> Transform? {
        var pose = initial
        var single = PoseNormalEquations(), joint = PoseNormalEquations()
        for _ in 0..<iterations {
            joint.reset()
            for keyframe in keyframes {
                let relative = keyframe.pose.inverse * pose
                fine.withPoints { points in
                    _ = accumulate(points, keyframe: keyframe, transform: relative, distance: configuration.fineDistance, into: &single)
                }
                joint.add(single, through: relative)
            }
            guard joint.count >= 6, let step = joint.solve(freeBelow: configuration.freeBelow) else { return nil }
            pose = (pose * Transform.twist(rotation: step.rotation, translation: step.translation)).orthonormalized
            if hasConverged(step) { break }
        }
        return pose
    }

    /// `true` when a Gauss-Newton step is too small to matter: its larger part, the turn
    /// (radians) or the shift (m), is below ``Configuration/convergence``.
    private func hasConverged(_ step: (rotation: SIMD3<Float>, translation: SIMD3<Float>)) -> Bool {
        max((step.rotation * step.rotation).sum(), (step.translation * step.translation).sum()).squareRoot() < configuration.convergence
    }

    /// The normal equations of the coarse grid's points against `keyframe` at `transform`, without
    /// solving them: which directions the keyframe's surfaces hold.
    func equations(to keyframe: DepthKeyframe, transform: Transform) -> PoseNormalEquations {
        var equations = PoseNormalEquations()
        _ = coarse.withPoints { points in
            accumulate(points, keyframe: keyframe, transform: transform, distance: configuration.coarseDistance, into: &equations)
        }
        return equations
    }

    /// The median absolute point-to-plane residual (m) of the fine grid's points against
    /// `keyframe` under `transform`, over the pairs within `distance`, and the pair count; `nil`
    /// when none pairs. For judging poses, not for tracking (it sorts the residuals).
    func medianResidual(to keyframe: DepthKeyframe, transform: Transform, distance: Float) -> (median: Float, pairs: Int)? {
        var residuals: [Float] = []
        residuals.reserveCapacity(fine.count)
        fine.withPoints { points in
            keyframe.forEachPair(of: points, transform: transform, distance: distance) { _, _, r, _ in
                residuals.append(abs(r))
            }
        }
        guard !residuals.isEmpty else { return nil }
        residuals.sort()
        return (residuals[residuals.count / 2], residuals.count)
    }

    /// One pass over `points`: fills `equations` with the weighted point-to-plane terms at
    /// `transform` and returns the inlier count and their RMS residual.
    @discardableResult
    private func accumulate(_ points: PointColumns, keyframe: DepthKeyframe, transform: Transform,
                            distance: Float, into equations: inout PoseNormalEquations) -> (Int, Float) {
        let a = configuration.noiseA, b = configuration.noiseB
        var block = PoseTermSums()
        equations.reset()
        var inliers = 0
        var squares: Float = 0
        keyframe.forEachPair(of: points, transform: transform, distance: distance) { q, n, r, depth in
            let sigma = a + b * depth * depth
            let absolute = abs(r)
            if absolute < 3 * sigma {
                inliers += 1
                squares += r * r
            }
            // Huber at 2σ, divided by σ² (inverse variance).
            let huber: Float = absolute <= 2 * sigma ? 1 : 2 * sigma / absolute
            if block.isFull { block.flush(into: &equations) }
            block.add(point: q, normal: n, residual: r, weight: huber / (sigma * sigma))
        }
        block.flush(into: &equations)
        return (inliers, inliers > 0 ? (squares / Float(inliers)).squareRoot() : 0)
    }
}
