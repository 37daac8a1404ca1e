/// The intrinsics of a pinhole camera: focal lengths and principal point in pixels, and the
/// image size.
///
/// Camera coordinates follow OpenCV and PCL: +X right, +Y down, +Z forward (out of the lens).
/// Pixel `(u, v)` has its centre at `(u, v)`, so the principal point of a 640×480 image is
/// about `(319.5, 239.5)`.
public struct PinholeIntrinsics: Hashable, Sendable, Codable {
    /// Focal length along X, in pixels.
    public var fx: Float
    /// Focal length along Y, in pixels.
    public var fy: Float
    /// Principal point X, in pixels.
    public var cx: Float
    /// Principal point Y, in pixels.
    public var cy: Float
    /// Image width in pixels.
    public var width: Int
    /// Image height in pixels.
    public var height: Int

    /// Intrinsics from their parts, or `nil` when a focal length is not positive and finite, the
    /// principal point is not finite, or a size is not positive.
    public init?(fx: Float, fy: Float, cx: Float, cy: Float, width: Int, height: Int) {
        guard fx > 0, fy > 0, fx.isFinite, fy.isFinite, cx.isFinite, cy.isFinite, width > 0, height > 0 else { return nil }
        (self.fx, self.fy, self.cx, self.cy, self.width, self.height) = (fx, fy, cx, cy, width, height)
    }

    /// The Kinect-style default of PCL's test data: fx = fy = 525, principal point at the image
    /// centre `((width − 1) / 2, (height − 1) / 2)`.
    public static func kinect(width: Int = 640, height: Int = 480) -> PinholeIntrinsics {
        PinholeIntrinsics(unchecked: 525, 525, Float(width - 1) / 2, Float(height - 1) / 2, width, height)
    }

    @usableFromInline init(unchecked fx: Float, _ fy: Float, _ cx: Float, _ cy: Float, _ width: Int, _ height: Int) {
        (self.fx, self.fy, self.cx, self.cy, self.width, self.height) = (fx, fy, cx, cy, width, height)
    }

    /// The point in camera coordinates seen at pixel `(u, v)` with depth `z` (along +Z).
    @inlinable public func unproject(u: Float, v: Float, depth z: Float) -> SIMD3<Float> {
        SIMD3((u - cx) * z / fx, (v - cy) * z / fy, z)
    }

    /// The ray in camera coordinates from the optical centre through pixel `(u, v)`.
    @inlinable public func ray(throughPixel pixel: SIMD2<Float>) -> Ray {
        let d = SIMD3((pixel.x - cx) / fx, (pixel.y - cy) / fy, 1)
        return Ray(origin: .zero, unitDirection: d / d.length)
    }

    /// The pixel where the camera-space point `p` is seen, or `nil` when it is not in front of
    /// the camera (z ≤ 0) or not finite. The pixel may lie outside the image; see ``contains(_:)``.
    @inlinable public func project(_ p: SIMD3<Float>) -> SIMD2<Float>? {
        guard p.z > 0, p.isFinite else { return nil }
        return SIMD2(fx * p.x / p.z + cx, fy * p.y / p.z + cy)
    }

    /// The intrinsics of the grid of every `reduction`-th pixel, whose pixel `(u, v)` is pixel
    /// `(reduction·u, reduction·v)` here: focal lengths and principal point divided by
    /// `reduction`, and `width / reduction` × `height / reduction` pixels (at least one each).
    /// Registration and rendering work on such grids.
    package func reduced(by reduction: Int) -> PinholeIntrinsics {
        let r = Float(reduction)
        return PinholeIntrinsics(unchecked: fx / r, fy / r, cx / r, cy / r, max(1, width / reduction), max(1, height / reduction))
    }

    /// `true` when `pixel` lies on the image (pixel centres span `0…width−1`, `0…height−1`,
    /// each pixel covering ±0.5 around its centre).
    @inlinable public func contains(_ pixel: SIMD2<Float>) -> Bool {
        pixel.x >= -0.5 && pixel.y >= -0.5 && pixel.x < Float(width) - 0.5 && pixel.y < Float(height) - 0.5
    }
}

extension PinholeIntrinsics {
    private enum CodingKeys: String, CodingKey { case fx, fy, cx, cy, width, height }

    /// Decodes `{"fx", "fy", "cx", "cy", "width", "height"}` under the same rules as
    /// ``init(fx:fy:cx:cy:width:height:)``: positive finite focal lengths, a finite principal
    /// point and a positive size, else a decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fx = try container.decode(Float.self, forKey: .fx), fy = try container.decode(Float.self, forKey: .fy)
        let cx = try container.decode(Float.self, forKey: .cx), cy = try container.decode(Float.self, forKey: .cy)
        let width = try container.decode(Int.self, forKey: .width), height = try container.decode(Int.self, forKey: .height)
        guard let intrinsics = PinholeIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy, width: width, height: height) else {
            throw DecodingError.dataCorruptedError(forKey: .fx, in: container, debugDescription:
                "intrinsics need positive finite focal lengths, a finite principal point and a positive size; got fx \(fx) fy \(fy) cx \(cx) cy \(cy) size \(width)×\(height)")
        }
        self = intrinsics
    }
}

/// A pinhole camera placed in the world: intrinsics plus a world-from-camera pose.
public struct PinholeCamera: Hashable, Sendable, Codable {
    /// The camera's intrinsics.
    public var intrinsics: PinholeIntrinsics
    /// World-from-camera transform (the camera's pose).
    public var pose: Transform

    /// A camera from its intrinsics and pose (identity: the camera frame is the world frame).
    public init(intrinsics: PinholeIntrinsics, pose: Transform = .identity) {
        self.intrinsics = intrinsics
        self.pose = pose
    }

    /// The camera's position in the world.
    @inlinable public var position: SIMD3<Float> { pose.translation }

    /// The direction the camera looks, in world coordinates.
    @inlinable public var forward: SIMD3<Float> { pose.zAxis }

    /// The world-space ray through pixel `(u, v)`.
    @inlinable public func ray(throughPixel pixel: SIMD2<Float>) -> Ray {
        intrinsics.ray(throughPixel: pixel).transformed(by: pose)
    }

    /// The pixel where the world point `p` is seen, or `nil` when it is behind the camera.
    @inlinable public func project(_ p: SIMD3<Float>) -> SIMD2<Float>? {
        intrinsics.project(pose.inverse.apply(toPoint: p))
    }

    /// A pose at `eye` looking at `target`, with the image's up direction (camera −Y) as close
    /// to `up` as possible, or `nil` when `eye == target` or the view direction is parallel to `up`.
    public static func pose(eye: SIMD3<Float>, target: SIMD3<Float>, up: SIMD3<Float> = SIMD3(0, 1, 0)) -> Transform? {
        guard let forward = (target - eye).normalized else { return nil }
        guard let right = cross(forward, up).normalized else { return nil }
        let down = cross(forward, right)
        return Transform(rotation: Matrix3(right, down, forward), translation: eye)
    }
}
