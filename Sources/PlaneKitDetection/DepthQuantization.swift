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
    /// Passes over plain floats that the compiler vectorises, so that a 512×512 scan costs a few
    /// dozen instructions a pixel:
    /// 1. each valid point's depth is copied out of the cloud, as it is and relative to one depth
    ///    of the frame (so `Float` sums lose nothing that matters), with weight 1; a hole gets
    ///    0, 0 and weight 0;
    /// 2. spikes are cleared (``DepthSpikes/remove(depths:weights:width:height:limit:)``);
    /// 3. per output row, the window's five rows are summed per column, and five neighbouring
    ///    column sums give each pixel's window mean and from it the pixel's factor: mean / depth
    ///    where the mean is close enough, NaN for a spike, 1 otherwise;
    /// 4. each point is scaled along its ray by its factor.
    ///
    /// Sums are formed anew for each row and pixel rather than slid, so no rounding error
    /// accumulates.
    public static func dequantized(points: UnsafeBufferPointer<SIMD3<Float>>, width: Int, height: Int,
                                   step: Float) -> ContiguousArray<SIMD3<Float>> {
        let count = width * height
        guard count > 0 else { return [] }
        let r = radius
        let limit = maximumShiftInSteps * step
        var reference: Float = 0
        for p in points where CellGrid.isValid(p) {
            reference = p.z
            break
        }
        // 1. Depth as measured (0 for a hole), relative to the reference (0 for a hole), and
        // weight (1 valid, 0 hole). Every element is written.
        var measured = ContiguousArray<Float>(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var depths = ContiguousArray<Float>(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        var weights = ContiguousArray<Float>(unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        measured.withUnsafeMutableBufferPointer { measured in
            depths.withUnsafeMutableBufferPointer { depths in
                weights.withUnsafeMutableBufferPointer { weights in
                    let stride = MemoryLayout<SIMD3<Float>>.stride
                    let source = UnsafeRawPointer(points.baseAddress!)
                    let z = UnsafeMutableRawPointer(measured.baseAddress!)
                    let d = UnsafeMutableRawPointer(depths.baseAddress!), w = UnsafeMutableRawPointer(weights.baseAddress!)
                    var i = 0
                    while i &+ 4 <= count {
                        let quad = PointQuad(source + i &* stride)
                        // ``CellGrid/isValid(_:)`` lane by lane.
                        let finite = (quad.x * 0 + quad.y * 0 + quad.z * 0) .== SIMD4<Float>.zero
                        let bits = unsafeBitCast((quad.z .> .zero) .& finite, to: SIMD4<Int32>.self)
                        z.storeBytes(of: PointQuad.masked(quad.z, bits), toByteOffset: i &* 4, as: SIMD4<Float>.self)
                        d.storeBytes(of: PointQuad.masked(quad.z - reference, bits), toByteOffset: i &* 4,
                                     as: SIMD4<Float>.self)
                        w.storeBytes(of: PointQuad.masked(SIMD4(repeating: 1), bits), toByteOffset: i &* 4,
                                     as: SIMD4<Float>.self)
                        i &+= 4
                    }
                    while i < count {
                        let valid = CellGrid.isValid(points[i])
                        measured[i] = valid ? points[i].z : 0
                        depths[i] = valid ? points[i].z - reference : 0
                        weights[i] = valid ? 1 : 0
                        i &+= 1
                    }
                    DepthSpikes.remove(depths: depths, weights: weights, width: width, height: height,
                                       limit: DepthSpikes.limitInSteps * step)
                }
            }
        }
        // One row's column sums, padded by r zero columns on each side, and its factors.
        var columnDepths = ContiguousArray<Float>(repeating: 0, count: width + 2 * r)
        var columnWeights = ContiguousArray<Float>(repeating: 0, count: width + 2 * r)
        var rowFactors = ContiguousArray<Float>(repeating: 0, count: width)
        return ContiguousArray(unsafeUninitializedCapacity: count) { out, initialized in
            measured.withUnsafeBufferPointer { measured in
                depths.withUnsafeBufferPointer { depths in
                    weights.withUnsafeBufferPointer { weights in
                        columnDepths.withUnsafeMutableBufferPointer { paddedDepths in
                            columnWeights.withUnsafeMutableBufferPointer { paddedWeights in
                                rowFactors.withUnsafeMutableBufferPointer { factors in
                                    let sumZ = paddedDepths.baseAddress! + r, sumW = paddedWeights.baseAddress! + r
                                    for v in 0..<height {
                                        // 3. The window's column sums, then each pixel's five.
                                        let first = max(0, v - r), last = min(height - 1, v + r)
                                        if last - first == 2 * r {
                                            // All five rows: one pass, summed in the same order.
                                            let z0 = depths.baseAddress! + first * width, w0 = weights.baseAddress! + first * width
                                            let z1 = z0 + width, z2 = z1 + width, z3 = z2 + width, z4 = z3 + width
                                            let w1 = w0 + width, w2 = w1 + width, w3 = w2 + width, w4 = w3 + width
                                            for u in 0..<width {
                                                sumZ[u] = z0[u] + z1[u] + z2[u] + z3[u] + z4[u]
                                                sumW[u] = w0[u] + w1[u] + w2[u] + w3[u] + w4[u]
                                            }
                                        } else {
                                            let z0 = depths.baseAddress! + first * width, w0 = weights.baseAddress! + first * width
                                            for u in 0..<width {
                                                sumZ[u] = z0[u]
                                                sumW[u] = w0[u]
                                            }
                                            for row in (first + 1)..<(last + 1) {
                                                let z = depths.baseAddress! + row * width, w = weights.baseAddress! + row * width
                                                for u in 0..<width {
                                                    sumZ[u] += z[u]
                                                    sumW[u] += w[u]
                                                }
                                            }
                                        }
                                        let row = v * width
                                        let depth = measured.baseAddress! + row, weight = weights.baseAddress! + row
                                        for u in 0..<width {
                                            var windowZ: Float = 0, windowW: Float = 0
                                            for k in -r...r {
                                                windowZ += sumZ[u + k]
                                                windowW += sumW[u + k]
                                            }
                                            let mean = reference + windowZ / windowW
                                            let z = depth[u]
                                            let close = weight[u] > 0 && abs(mean - z) <= limit
                                            let spike = weight[u] == 0 && z > 0
                                            factors[u] = close ? mean / z : (spike ? .nan : 1)
                                        }
                                        // 4. Each point scaled along its ray.
                                        // The points as their four stored lanes (the fourth
                                        // is padding), four points a factor vector.
                                        let source = UnsafeRawPointer(points.baseAddress! + row)
                                        let target = UnsafeMutableRawPointer(out.baseAddress! + row)
                                        let factor = UnsafeRawPointer(factors.baseAddress!)
                                        let stride = MemoryLayout<SIMD3<Float>>.stride
                                        var u = 0
                                        while u &+ 4 <= width {
                                            let f = factor.loadUnaligned(fromByteOffset: u &* 4, as: SIMD4<Float>.self)
                                            for lane in 0..<4 {
                                                let offset = (u &+ lane) &* stride
                                                let p = source.load(fromByteOffset: offset, as: SIMD4<Float>.self)
                                                target.storeBytes(of: p * f[lane], toByteOffset: offset, as: SIMD4<Float>.self)
                                            }
                                            u &+= 4
                                        }
                                        while u < width {
                                            (out.baseAddress! + row + u).initialize(to: points[row + u] * factors[u])
                                            u &+= 1
                                        }
                                    }
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
