import PlaneKitInput
import PlaneKitGeometry

/// Options for ``PointCloudReader/read(path:options:)``.
public struct ReadOptions: Sendable, Equatable {
    /// Intrinsics for depth images, overriding any sidecar file, and for organized clouds
    /// (which carry none of their own). Only the focal lengths and the principal point are used;
    /// the size is always the image's.
    public var intrinsics: PinholeIntrinsics?
    /// Metres per raw depth unit, overriding any sidecar file.
    public var depthScale: Float?
    /// The maximum range in metres, or `nil` for none: readings farther than this along the
    /// sensor's +Z become holes (a depth image's depth; a cloud point's z in the sensor frame).
    /// Must be positive and finite (`DepthReadingRules.isValid(maxDepth:)`).
    public var maxDepth: Float?
    /// Metres per coordinate unit of point-cloud files (PCD, PLY, x y z text): 0.01 for a scan in
    /// centimetres, 0.001 for millimetres; `nil` (or 1) reads them as metres. Applied before
    /// ``maxDepth``, which is in metres. Depth images have ``depthScale`` instead.
    public var unitScale: Float?

    /// The depth scale used when neither the caller nor a sidecar gives one: 16-bit depth images
    /// conventionally store millimetres.
    public static let defaultDepthScale: Float = 0.001

    /// Options with optional overrides for intrinsics and depth scale, and an optional maximum
    /// range.
    public init(intrinsics: PinholeIntrinsics? = nil, depthScale: Float? = nil, maxDepth: Float? = nil) {
        self.intrinsics = intrinsics
        self.depthScale = depthScale
        self.maxDepth = maxDepth
    }
}
