import PlaneKitGeometry

/// A depth image: one distance along the camera's +Z per pixel, in metres, 0 where the sensor
/// measured nothing.
public struct DepthImage: Sendable, Equatable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Depths in metres, `width × height` of them, row-major; 0 means no depth.
    public var depths: ContiguousArray<Float>

    /// A depth image from its parts, or an error when the sizes disagree or a depth is negative
    /// or not finite.
    public init(width: Int, height: Int, depths: ContiguousArray<Float>) throws(InputError) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height) == (depths.count, false) else {
            throw InputError(source: "depth image", problem: "\(width)×\(height) does not match \(depths.count) depths")
        }
        guard depths.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw InputError(source: "depth image", problem: "depths must be finite and not negative")
        }
        self.width = width
        self.height = height
        self.depths = depths
    }

    /// The depth image of raw samples scaled to metres: `depth = sample × scale`, or 0 (no depth)
    /// where ``DepthReadingRules`` say the sample is no reading — 0 and 65 535, a depth that is
    /// not positive and finite, or one farther than `maxDepth` metres along +Z when given.
    public init(_ raw: GrayImage, scale: Float, maxDepth: Float? = nil) {
        width = raw.width
        height = raw.height
        depths = ContiguousArray(unsafeUninitializedCapacity: raw.samples.count) { buffer, initialized in
            raw.samples.withUnsafeBufferPointer { samples in
                for i in samples.indices {
                    buffer[i] = DepthReadingRules.metres(sample: samples[i], scale: scale, maxDepth: maxDepth) ?? 0
                }
            }
            initialized = raw.samples.count
        }
    }

    /// The depth at column `u`, row `v`, in metres (0: none).
    public subscript(u: Int, v: Int) -> Float { depths[v * width + u] }

    /// The organized cloud this image sees through `intrinsics`: the point at pixel `(u, v)` is
    /// `intrinsics.unproject(u, v, depth)`, NaN where there is no depth. The cloud's
    /// ``PointCloud/intrinsics`` is set.
    public func pointCloud(intrinsics: PinholeIntrinsics) -> PointCloud {
        let (fx, fy, cx, cy) = (intrinsics.fx, intrinsics.fy, intrinsics.cx, intrinsics.cy)
        let w = width
        // x / z of each column's ray, once per column rather than a division per pixel (the
        // same rounding: (u − cx) / fx, then × z).
        let columnSlopes = ContiguousArray<Float>(unsafeUninitializedCapacity: w) { slopes, initialized in
            for u in 0..<w { slopes[u] = (Float(u) - cx) / fx }
            initialized = w
        }
        let hole = SIMD3<Float>(repeating: .nan)
        let points = ContiguousArray<SIMD3<Float>>(unsafeUninitializedCapacity: depths.count) { buffer, initialized in
            depths.withUnsafeBufferPointer { d in
                columnSlopes.withUnsafeBufferPointer { slopes in
                    guard let depthBase = d.baseAddress, let slopeBase = slopes.baseAddress,
                          let pointBase = buffer.baseAddress else { return }
                    for v in 0..<height {
                        let y = (Float(v) - cy) / fy
                        let depthRow = depthBase + v &* w, pointRow = pointBase + v &* w
                        // Four pixels at a time in vector lanes, with one test for the four
                        // (well predicted: holes come in runs) and lane by lane only where
                        // one of them is a hole. NaN fails both comparisons: a hole too.
                        var u = 0
                        while u &+ 4 <= w {
                            let z = UnsafeRawPointer(depthRow + u).loadUnaligned(as: SIMD4<Float>.self)
                            let slope = UnsafeRawPointer(slopeBase + u).loadUnaligned(as: SIMD4<Float>.self)
                            let x = slope * z, yDepth = y * z
                            let valid = (z .> 0) .& (z .< .infinity)
                            if all(valid) {
                                pointRow[u] = SIMD3(x[0], yDepth[0], z[0])
                                pointRow[u &+ 1] = SIMD3(x[1], yDepth[1], z[1])
                                pointRow[u &+ 2] = SIMD3(x[2], yDepth[2], z[2])
                                pointRow[u &+ 3] = SIMD3(x[3], yDepth[3], z[3])
                            } else {
                                for lane in 0..<4 {
                                    pointRow[u &+ lane] = valid[lane] ? SIMD3(x[lane], yDepth[lane], z[lane]) : hole
                                }
                            }
                            u &+= 4
                        }
                        while u < w {
                            let z = depthRow[u]
                            pointRow[u] = z > 0 && z < .infinity ? SIMD3(slopeBase[u] * z, y * z, z) : hole
                            u &+= 1
                        }
                    }
                }
            }
            initialized = depths.count
        }
        return PointCloud(checkedWidth: width, height: height, points: points, intrinsics: intrinsics)
    }
}
