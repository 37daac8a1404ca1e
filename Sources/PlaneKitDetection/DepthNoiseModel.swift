/// How noisy a depth sensor's measurements are at a given depth: the standard deviation of a
/// depth reading, σ_z(z) = constant + quadratic · (z − referenceDepth)².
///
/// Every threshold of ``OrganizedPlaneDetector`` is a multiple of this σ at the depth in question,
/// so the same configuration works for a point a metre away (millimetres of noise) and one five
/// metres away (centimetres). The default is the Kinect-style model of Khoshelham & Elberink
/// that PlaneKit's synthetic scenes use.
public struct DepthNoiseModel: Sendable, Hashable, Codable {
    /// σ at ``referenceDepth`` (m).
    public var constant: Float
    /// Growth of σ with the squared distance from ``referenceDepth`` (1/m).
    public var quadratic: Float
    /// The depth where σ is smallest (m).
    public var referenceDepth: Float

    /// A noise model σ_z(z) = constant + quadratic · (z − referenceDepth)².
    public init(constant: Float = 0.0012, quadratic: Float = 0.0019, referenceDepth: Float = 0.4) {
        self.constant = constant
        self.quadratic = quadratic
        self.referenceDepth = referenceDepth
    }

    /// The Kinect-style default: σ_z(z) = 0.0012 + 0.0019 · (z − 0.4)².
    public static let kinect = DepthNoiseModel()

    /// The standard deviation of a depth reading at depth `z` (m).
    @inlinable public func sigma(atDepth z: Float) -> Float {
        let d = z - referenceDepth
        return constant + quadratic * d * d
    }

    /// `true` when the model gives a positive, finite σ everywhere.
    var isValid: Bool {
        constant > 0 && quadratic >= 0 && constant.isFinite && quadratic.isFinite && referenceDepth.isFinite
    }
}
