/// How a frame record's binary payload stores the frame, pixel by pixel in row-major order,
/// every value little-endian.
public enum FrameEncoding: String, Sendable, Hashable, CaseIterable {
    /// One `uint16` per pixel: depth along +Z is `value × depthScale` metres; 0 and 65 535 mean
    /// no depth (`DepthReadingRules`).
    case depth16
    /// One `float32` per pixel: depth along +Z in metres, 0 or NaN means no depth.
    case depth32f
    /// Three `float32` per pixel: the point `x y z` in metres in the camera frame, NaN means no point.
    case xyz32f

    /// Payload bytes per pixel.
    public var bytesPerPixel: Int {
        switch self {
        case .depth16: return 2
        case .depth32f: return 4
        case .xyz32f: return 12
        }
    }

    /// `true` for the encodings that store depth and need intrinsics to become points.
    public var isDepth: Bool { self != .xyz32f }
}
