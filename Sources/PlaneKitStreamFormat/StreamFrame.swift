import PlaneKitGeometry
import PlaneKitInput

/// `{"type":"frame",…}` and its payload: one depth image or organized cloud and its camera.
public struct StreamFrame: Sendable {
    /// Seconds since the start of the stream (`t`).
    public var timestamp: Double
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// How ``payload`` stores the pixels.
    public var encoding: FrameEncoding
    /// Metres per `depth16` unit (default 0.001); unused by the other encodings.
    public var depthScale: Float
    /// The maximum range in metres (`maxDepth`), or `nil` when the record gives none: readings
    /// farther than this along the camera's +Z are holes (for `xyz32f`, points whose z is
    /// larger). Positive and finite when read from a stream.
    public var maxDepth: Float?
    /// The camera's intrinsics; always present for depth encodings, optional for `xyz32f`.
    public var intrinsics: PinholeIntrinsics?
    /// World-from-camera transform (identity when the record has none).
    public var pose: Transform
    /// `true` when the record gives ``pose``; a frame without one is tracked from its depth.
    public var isPoseGiven: Bool
    /// The accelerometer's down direction in camera coordinates (`gravity`), when the record
    /// gives it: finite and not zero, any length.
    public var gravity: SIMD3<Float>?
    /// The accelerometer's mean reading over the interval since the previous frame
    /// (`acceleration`, m/s², this frame's camera coordinates): the specific force, so a device
    /// at rest reads 9.81 m/s² upwards. It carries a tracked camera through views whose depth
    /// leaves a direction free.
    public var acceleration: SIMD3<Float>?
    /// The pixels, exactly ``byteCount`` bytes in the layout of ``encoding``.
    ///
    /// The reader reuses this storage for the next frame when nothing else holds on to it, so
    /// keep the frame only as long as it is needed.
    public var payload: [UInt8]

    /// The depth scale used when a `depth16` frame gives none.
    public static let defaultDepthScale: Float = 0.001

    /// The largest `acceleration` a record may give (m/s², about 20 g: MEMS accelerometers in
    /// depth cameras saturate at 16 g).
    public static let maximumAcceleration: Float = 200

    /// A frame from its parts. `payload` must hold `width × height × bytesPerPixel` bytes
    /// (checked by ``StreamRecordWriter`` and the reader, not here). Without `pose` the frame is
    /// tracked from its depth.
    public init(timestamp: Double, width: Int, height: Int, encoding: FrameEncoding,
                depthScale: Float = StreamFrame.defaultDepthScale, maxDepth: Float? = nil, intrinsics: PinholeIntrinsics?,
                pose: Transform? = nil, gravity: SIMD3<Float>? = nil, acceleration: SIMD3<Float>? = nil, payload: [UInt8]) {
        self.timestamp = timestamp
        self.width = width
        self.height = height
        self.encoding = encoding
        self.depthScale = depthScale
        self.maxDepth = maxDepth
        self.intrinsics = intrinsics
        self.pose = pose ?? .identity
        isPoseGiven = pose != nil
        self.gravity = gravity
        self.acceleration = acceleration
        self.payload = payload
    }

    /// The payload length the header must announce: `width × height × bytesPerPixel`.
    public var byteCount: Int { width * height * encoding.bytesPerPixel }

    /// The organized cloud in the camera frame (NaN holes, `PointCloud.intrinsics` and
    /// `PointCloud.sensorPose` set), in freshly allocated storage. Use a ``FrameDecoder`` to
    /// reuse storage from frame to frame.
    public func pointCloud() -> PointCloud {
        var decoder = FrameDecoder()
        return decoder.pointCloud(from: self)
    }
}

extension StreamFrame {
    /// A `depth16` frame of raw samples (`depth = sample × depthScale` metres; 0 and 65 535 =
    /// none), with an optional maximum range.
    public static func depth16(samples: UnsafeBufferPointer<UInt16>, intrinsics: PinholeIntrinsics, depthScale: Float,
                               maxDepth: Float? = nil, timestamp: Double, pose: Transform? = nil) -> StreamFrame {
        let payload = [UInt8](unsafeUninitializedCapacity: samples.count * 2) { bytes, initialized in
            for i in samples.indices {
                let s = samples[i]
                bytes[2 * i] = UInt8(truncatingIfNeeded: s)
                bytes[2 * i + 1] = UInt8(truncatingIfNeeded: s >> 8)
            }
            initialized = samples.count * 2
        }
        return StreamFrame(timestamp: timestamp, width: intrinsics.width, height: intrinsics.height, encoding: .depth16,
                           depthScale: depthScale, maxDepth: maxDepth, intrinsics: intrinsics, pose: pose, payload: payload)
    }

    /// A `depth32f` frame of depths in metres (0 or NaN = none).
    public static func depth32f(depths: UnsafeBufferPointer<Float>, intrinsics: PinholeIntrinsics,
                                timestamp: Double, pose: Transform? = nil) -> StreamFrame {
        let payload = [UInt8](unsafeUninitializedCapacity: depths.count * 4) { bytes, initialized in
            let raw = UnsafeMutableRawBufferPointer(bytes)
            for i in depths.indices {
                raw.storeBytes(of: depths[i].bitPattern.littleEndian, toByteOffset: 4 * i, as: UInt32.self)
            }
            initialized = depths.count * 4
        }
        return StreamFrame(timestamp: timestamp, width: intrinsics.width, height: intrinsics.height, encoding: .depth32f,
                           intrinsics: intrinsics, pose: pose, payload: payload)
    }

    /// An `xyz32f` frame of an organized cloud's points (camera frame, NaN = none), with the
    /// cloud's intrinsics when it has them and an optional maximum range. `nil` when the cloud is
    /// not organized. The pose is `pose`, else the cloud's sensor pose when it is not the identity
    /// (a PCD's `VIEWPOINT`), else none (tracked).
    public static func xyz32f(cloud: PointCloud, timestamp: Double, pose: Transform? = nil, maxDepth: Float? = nil) -> StreamFrame? {
        guard cloud.isOrganized else { return nil }
        let count = cloud.count
        let payload = [UInt8](unsafeUninitializedCapacity: count * 12) { bytes, initialized in
            let raw = UnsafeMutableRawBufferPointer(bytes)
            cloud.points.withUnsafeBufferPointer { points in
                for i in points.indices {
                    let p = points[i]
                    raw.storeBytes(of: p.x.bitPattern.littleEndian, toByteOffset: 12 * i, as: UInt32.self)
                    raw.storeBytes(of: p.y.bitPattern.littleEndian, toByteOffset: 12 * i + 4, as: UInt32.self)
                    raw.storeBytes(of: p.z.bitPattern.littleEndian, toByteOffset: 12 * i + 8, as: UInt32.self)
                }
            }
            initialized = count * 12
        }
        return StreamFrame(timestamp: timestamp, width: cloud.width, height: cloud.height, encoding: .xyz32f,
                           maxDepth: maxDepth, intrinsics: cloud.intrinsics, pose: pose ?? (cloud.sensorPose == .identity ? nil : cloud.sensorPose), payload: payload)
    }
}
