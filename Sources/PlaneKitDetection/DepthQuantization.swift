/// Depth that comes in steps: an 8-bit range image (SegComp's scanners: about 1.3 mm a step), a
/// Kinect's disparity steps, a 16-bit depth image's millimetres.
///
/// A quantised surface is a staircase, not a plane with noise: every patch narrower than one
/// step's run is a flat terrace, and a plane fitted to it is tilted towards the depth axis by
/// up to atan(step / patch width) — over 20° for a 6-pixel patch of SegComp's ABW images. Small
/// grid cells then disagree about the plane they lie on, and a face breaks into fragments. The
/// detector measures the step (``measureStep(points:width:height:)``) and, on object-scale grids,
/// smooths the staircase along the viewing rays before fitting (``dequantized(points:width:height:step:)``).
public enum DepthQuantization {
    /// The half-width of the smoothing window, in pixels: a 5×5 window spans about one step's
    /// run on faces tilted 20° or more from the view direction, where the terraces mislead most.
    static let radius = 2
    /// A smoothed depth further than this many steps from the measured one is not used: the
    /// window straddles a depth jump, and the point keeps its measured depth.
    static let maximumShiftInSteps: Float = 2
    /// The share of neighbouring depth differences that must be exactly zero for depth to count as
    /// quantised (continuous depth almost never repeats a float exactly).
    static let minimumRepeatedShare: Float = 0.2

    /// The depth step of an organized cloud, or `nil` when its depth does not come in steps.
    ///
    /// Reads horizontal neighbours on every eighth row. Pairs whose depths differ by more than 1%
    /// (a depth jump) are left out. Depth is quantised when at least a fifth of the remaining
    /// pairs repeat a depth exactly; the step is then the lower quartile of the non-zero
    /// differences (most are one step, a steep face gives some of two or more).
    public static func measureStep(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int) -> Float? {
        guard width >= 2, height >= 1 else { return nil }
        var differences: [Float] = []
        var repeated = 0, pairs = 0
        for v in stride(from: 0, to: height, by: 8) {
            let row = v * width
            var previous = points[row]
            for u in 1..<width {
                let p = points[row + u]
                defer { previous = p }
                guard CellGrid.isValid(p), CellGrid.isValid(previous) else { continue }
                let difference = abs(p.z - previous.z)
                guard difference <= 0.01 * p.z else { continue }
                pairs += 1
                if difference == 0 { repeated += 1 } else { differences.append(difference) }
            }
        }
        guard pairs >= 100, differences.count >= 50,
              Float(repeated) >= minimumRepeatedShare * Float(pairs) else { return nil }
        // The lower quartile without a full sort.
        let quartile = differences.count / 4
        return differences.withUnsafeMutableBufferPointer { values in
            var low = 0, high = values.count - 1
            while low < high {
                let pivot = values[(low + high) / 2]
                var i = low, j = high
                while i <= j {
                    while values[i] < pivot { i += 1 }
                    while values[j] > pivot { j -= 1 }
                    if i <= j {
                        values.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if quartile <= j { high = j } else if quartile >= i { low = i } else { break }
            }
            return values[quartile]
        }
    }

    /// The cloud with its depth staircase smoothed: each valid point moves along its viewing ray
    /// (the line through the origin) to the mean depth of the valid points in the 5×5 window
    /// around it, unless that is more than `maximumShiftInSteps` steps away (a window across a
    /// depth jump). Holes stay holes, and isolated spikes (``DepthSpikes``) become holes.
    ///
    /// The depths are first copied into a plain array (relative to one depth of the frame, so
    /// `Float` sums lose nothing that matters; holes are 0 with weight 0). Then, row by row, the
    /// window's rows are summed per column and five neighbouring column sums per pixel, in loops
    /// over plain floats that the compiler vectorises. Sums are formed anew for each row and
    /// pixel rather than slid, so no rounding error accumulates.
    public static func dequantized(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                                   step: Float) -> ContiguousArray<SIMD3<Float>> {
        let count = width * height
        let r = radius
        let limit = maximumShiftInSteps * step
        var reference: Float = 0
        for p in points where CellGrid.isValid(p) {
            reference = p.z
            break
        }
        // Depth relative to the reference (0 for a hole) and weight (1 valid, 0 hole).
        var depths = ContiguousArray<Float>(repeating: 0, count: count)
        var weights = ContiguousArray<Float>(repeating: 0, count: count)
        depths.withUnsafeMutableBufferPointer { depths in
            weights.withUnsafeMutableBufferPointer { weights in
                for i in 0..<count where CellGrid.isValid(points[i]) {
                    depths[i] = points[i].z - reference
                    weights[i] = 1
                }
                DepthSpikes.remove(depths: depths, weights: weights, width: width, height: height,
                                   limit: DepthSpikes.limitInSteps * step)
            }
        }
        // One row's column sums, padded by r zero columns on each side.
        var columnDepths = ContiguousArray<Float>(repeating: 0, count: width + 2 * r)
        var columnWeights = ContiguousArray<Float>(repeating: 0, count: width + 2 * r)
        return ContiguousArray(unsafeUninitializedCapacity: count) { out, initialized in
            depths.withUnsafeBufferPointer { depths in
                weights.withUnsafeBufferPointer { weights in
                    columnDepths.withUnsafeMutableBufferPointer { paddedDepths in
                        columnWeights.withUnsafeMutableBufferPointer { paddedWeights in
                            let sumZ = paddedDepths.baseAddress! + r, sumW = paddedWeights.baseAddress! + r
                            for v in 0..<height {
                                let first = max(0, v - r), last = min(height - 1, v + r)
                                let z0 = depths.baseAddress! + first * width, w0 = weights.baseAddress! + first * width
                                for u in 0..<width {
                                    sumZ[u] = z0[u]
                                    sumW[u] = w0[u]
                                }
                                if first < last {
                                    for row in (first + 1)...last {
                                        let z = depths.baseAddress! + row * width, w = weights.baseAddress! + row * width
                                        for u in 0..<width {
                                            sumZ[u] += z[u]
                                            sumW[u] += w[u]
                                        }
                                    }
                                }
                                let row = v * width
                                let target = out.baseAddress! + row
                                for u in 0..<width {
                                    let p = points[row + u]
                                    var smoothed = p
                                    if weights[row + u] > 0 {
                                        var windowZ: Float = 0, windowW: Float = 0
                                        for k in -r...r {
                                            windowZ += sumZ[u + k]
                                            windowW += sumW[u + k]
                                        }
                                        let mean = reference + windowZ / windowW
                                        if abs(mean - p.z) <= limit { smoothed = p * (mean / p.z) }
                                    } else if CellGrid.isValid(p) {
                                        smoothed = SIMD3(repeating: .nan)   // a spike (``DepthSpikes``) becomes a hole
                                    }
                                    (target + u).initialize(to: smoothed)
                                }
                            }
                        }
                    }
                }
            }
            initialized = count
        }
    }
}
