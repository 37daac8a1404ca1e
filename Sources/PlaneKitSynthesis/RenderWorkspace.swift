import PlaneKitGeometry

/// Storage a ``SyntheticRenderer`` reuses from frame to frame (the z-buffer of depths and
/// surface indices), so that rendering a long sequence allocates nothing per frame.
///
/// Start with an empty workspace; the first frame sizes it for the renderer's intrinsics, and
/// a later frame with other intrinsics resizes it.
public struct RenderWorkspace: Sendable {
    var buffers: RayCastBuffers?

    /// An empty workspace.
    public init() {}

    /// Cleared buffers for `intrinsics`, reusing the storage when the size matches.
    mutating func takeBuffers(for intrinsics: PinholeIntrinsics) -> RayCastBuffers {
        // Moved out and cleared here, so the arrays stay uniquely referenced and reset in place.
        guard var reused = buffers, reused.intrinsics == intrinsics else { return RayCastBuffers(intrinsics: intrinsics) }
        buffers = nil
        reused.reset()
        return reused
    }
}
