import PlaneKitGeometry

/// Options for ``PointCloudReader/read(path:options:)``.
public struct ReadOptions: Sendable, Equatable {
    /// Intrinsics for depth images, overriding any sidecar file. Only the focal lengths and the
    /// principal point are used; the size is always the image's.
    public var intrinsics: PinholeIntrinsics?
    /// Metres per raw depth unit, overriding any sidecar file.
    public var depthScale: Float?
    /// The maximum range in metres, or `nil` for none: readings farther than this along the
    /// sensor's +Z become holes (a depth image's depth; a cloud point's z in the sensor frame).
    /// Must be positive and finite (``DepthReadingRules/isValid(maxDepth:)``).
    public var maxDepth: Float?

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
