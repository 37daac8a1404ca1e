import PlaneKitGeometry
import PlaneKitInput

/// Turns ``StreamFrame`` payloads into organized point clouds, reusing its storage from frame to
/// frame.
///
/// The cloud it returns shares the decoder's point storage; when the caller has let go of the
/// previous cloud by the time it decodes the next frame, the storage is overwritten in place, so
/// an endless stream of same-sized frames allocates nothing after the first.
public struct FrameDecoder: Sendable {
    /// The point storage handed out with the last cloud.
    private var storage = ContiguousArray<SIMD3<Float>>()
    /// `(u − cx) / fx` per column and `(v − cy) / fy` per row for ``cachedIntrinsics``.
    private var columnRays = ContiguousArray<Float>(), rowRays = ContiguousArray<Float>()
    private var cachedIntrinsics: PinholeIntrinsics?
    /// Metres for every `depth16` sample at ``cachedTableKey``'s scale and maximum depth, NaN for
    /// the samples ``DepthReadingRules`` call no reading (0, 65 535, depths that are not finite or
    /// lie beyond the maximum): the hot loop then needs neither a conversion nor a branch, and the
    /// maximum range costs nothing per pixel.
    private var depthTable = ContiguousArray<Float>()
    private var cachedTableKey: DepthTableKey?

    /// What a `depth16` table depends on.
    private struct DepthTableKey: Equatable {
        var scale: Float
        var maxDepth: Float?
    }

    /// A decoder with no storage yet.
    public init() {}

    /// The capacity of the point storage, in points (for checking that memory stays flat).
    public var storageCapacity: Int { storage.capacity }

    /// The frame's organized cloud in the camera frame: NaN where there is no depth or point,
    /// `PointCloud.intrinsics` from the frame, `PointCloud.sensorPose` the frame's pose.
    ///
    /// Depth pixel `(u, v)` with depth `z` becomes `((u − cx)/fx · z, (v − cy)/fy · z, z)`, the
    /// same numbers `DepthImage.pointCloud(intrinsics:)` gives. Depths that are 0, negative
    /// or not finite are holes, and so are `depth16` samples of 65 535 (`DepthReadingRules`)
    /// and `xyz32f` points with a coordinate that is not finite.
    ///
    /// The frame's ``StreamFrame/maxDepth``, else `defaultMaxDepth`, is the maximum range: depths
    /// beyond it, and `xyz32f` points whose z is beyond it, are holes too. A payload of the wrong
    /// length (only possible for a frame built by hand) gives an unorganized empty cloud.
    public mutating func pointCloud(from frame: StreamFrame, defaultMaxDepth: Float? = nil) -> PointCloud {
        let count = frame.width * frame.height
        guard frame.width > 0, frame.height > 0, frame.payload.count == count * frame.encoding.bytesPerPixel,
              frame.encoding == .xyz32f || frame.intrinsics != nil else {
            return PointCloud(unorganized: [])
        }
        // Take the storage out so that it is uniquely referenced when the caller dropped the
        // last cloud: then filling it below writes in place instead of copying.
        var points = storage
        storage = ContiguousArray()
        if points.count > count {
            points.removeLast(points.count - count)
        } else if points.count < count {
            points.append(contentsOf: repeatElement(SIMD3<Float>(repeating: .nan), count: count - points.count))
        }
        if let intrinsics = frame.intrinsics, frame.encoding.isDepth {
            prepareRays(for: intrinsics, width: frame.width, height: frame.height)
        }
        let maxDepth = frame.maxDepth ?? defaultMaxDepth
        if frame.encoding == .depth16 { prepareDepthTable(DepthTableKey(scale: frame.depthScale, maxDepth: maxDepth)) }
        // One compare per pixel against this keeps the float encodings within range. Positive
        // floats order like their bit patterns, so for depth32f `bits − 1 < limitBits` (unsigned,
        // wrapping) is `0 < depth ≤ limit`: +0 wraps to the top, negative numbers have the sign
        // bit set, and NaN and infinity lie above every finite limit. An integer compare becomes
        // a select; the float `&&` became a branch, which mispredicts on a ragged far edge.
        let limit = DepthReadingRules.limit(maxDepth), limitBits = limit.bitPattern
        let width = frame.width, height = frame.height
        let hole = SIMD3<Float>(repeating: .nan)
        points.withUnsafeMutableBufferPointer { out in
            frame.payload.withUnsafeBytes { raw in
                switch frame.encoding {
                case .depth16:
                    // A hole's depth is NaN, and NaN times anything is NaN: every point is
                    // computed the same way, without a branch. Rows go through plain pointers
                    // with wrapping arithmetic (the sizes were checked above), which keeps the
                    // overflow checks out of the per-pixel loop.
                    columnRays.withUnsafeBufferPointer { xs in
                    rowRays.withUnsafeBufferPointer { ys in
                    depthTable.withUnsafeBufferPointer { metres in
                        let columns = xs.baseAddress!, table = metres.baseAddress!
                        for v in 0..<height {
                            let y = ys[v]
                            let source = raw.baseAddress! + 2 &* (v &* width)
                            let target = out.baseAddress! + v &* width
                            var u = 0
                            while u < width {
                                let sample = UInt16(littleEndian: source.loadUnaligned(fromByteOffset: 2 &* u, as: UInt16.self))
                                let z = table[Int(sample)]
                                target[u] = SIMD3(columns[u] * z, y * z, z)
                                u &+= 1
                            }
                        }
                    }}}
                case .depth32f:
                    columnRays.withUnsafeBufferPointer { xs in
                        rowRays.withUnsafeBufferPointer { ys in
                            for v in 0..<height {
                                let y = ys[v], row = v * width
                                for u in 0..<width {
                                    let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * (row + u), as: UInt32.self))
                                    // 0 < depth ≤ limit, as one unsigned compare of the bits (see limitBits).
                                    let z = bits &- 1 < limitBits ? Float(bitPattern: bits) : Float.nan
                                    out[row + u] = SIMD3(xs[u] * z, y * z, z)
                                }
                            }
                        }
                    }
                case .xyz32f:
                    for i in 0..<count {
                        let x = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12 * i, as: UInt32.self)))
                        let y = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12 * i + 4, as: UInt32.self)))
                        let z = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 12 * i + 8, as: UInt32.self)))
                        // A z beyond the range becomes NaN (a select, not a branch), and the one
                        // finiteness test below then makes the point a hole.
                        let p = SIMD3(x, y, z <= limit ? z : .nan)
                        out[i] = p.isFinite ? p : hole
                    }
                }
            }
        }
        storage = points
        // The sizes match by construction, so this cannot throw.
        return (try? PointCloud(width: width, height: height, points: points, intrinsics: frame.intrinsics,
                                sensorPose: frame.pose)) ?? PointCloud(unorganized: [])
    }

    /// Fills the sample-to-metres table for `key` unless it is cached.
    private mutating func prepareDepthTable(_ key: DepthTableKey) {
        guard cachedTableKey != key else { return }
        depthTable = DepthReadingRules.table(scale: key.scale, maxDepth: key.maxDepth)
        cachedTableKey = key
    }

    /// Fills the per-column and per-row ray components for `intrinsics` unless they are cached.
    private mutating func prepareRays(for intrinsics: PinholeIntrinsics, width: Int, height: Int) {
        var k = intrinsics
        // The frame's size is what the payload has; the cache is keyed on all six numbers.
        k.width = width
        k.height = height
        guard cachedIntrinsics != k else { return }
        // Division rather than multiplication by a reciprocal, to give the bits DepthImage gives.
        columnRays = ContiguousArray((0..<width).map { (Float($0) - k.cx) / k.fx })
        rowRays = ContiguousArray((0..<height).map { (Float($0) - k.cy) / k.fy })
        cachedIntrinsics = k
    }
}
