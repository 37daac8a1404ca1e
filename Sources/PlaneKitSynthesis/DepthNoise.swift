/// The standard deviation of a sensor's depth noise as a function of depth:
/// `σ(z) = constant + linear · z + quadratic · z²` metres, the noise being Gaussian along the
/// ray's depth (camera +Z) and independent from pixel to pixel.
///
/// The three terms cover the usual sensors: a triangulation scanner's nearly constant σ over
/// its short working range, a time-of-flight camera's σ growing about linearly with distance,
/// and a stereo camera's `σ_z = z² · σ_d / (f · b)` (``stereo(subpixel:focalLength:baseline:)``).
public struct DepthNoise: Sendable, Hashable, Codable {
    /// The constant term (m).
    public var constant: Float
    /// The term proportional to depth (dimensionless: metres of σ per metre of depth).
    public var linear: Float
    /// The term proportional to depth squared (1/m).
    public var quadratic: Float

    /// A noise model from its terms.
    public init(constant: Float = 0, linear: Float = 0, quadratic: Float = 0) {
        self.constant = constant
        self.linear = linear
        self.quadratic = quadratic
    }

    /// No noise at all.
    public static let none = DepthNoise()

    /// A stereo matcher's noise: a disparity error of σ `subpixel` pixels at focal length `f`
    /// (pixels) and baseline `b` (m) moves the depth by `z² · subpixel / (f · b)`.
    public static func stereo(subpixel: Float, focalLength f: Float, baseline b: Float) -> DepthNoise {
        DepthNoise(quadratic: subpixel / (f * b))
    }

    /// `true` when σ is 0 at every depth.
    public var isZero: Bool { constant == 0 && linear == 0 && quadratic == 0 }

    /// σ at depth `z` (m).
    @inline(__always)
    public func sigma(atDepth z: Float) -> Float {
        constant + (linear + quadratic * z) * z
    }
}
