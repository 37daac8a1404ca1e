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
        let points = ContiguousArray<SIMD3<Float>>(unsafeUninitializedCapacity: depths.count) { buffer, initialized in
            depths.withUnsafeBufferPointer { d in
                for v in 0..<height {
                    let y = (Float(v) - cy) / fy
                    for u in 0..<w {
                        let z = d[v * w + u]
                        buffer[v * w + u] = z > 0 && z.isFinite
                            ? SIMD3((Float(u) - cx) / fx * z, y * z, z)
                            : SIMD3(repeating: .nan)
                    }
                }
            }
            initialized = depths.count
        }
        return PointCloud(checkedWidth: width, height: height, points: points, intrinsics: intrinsics)
    }
}
