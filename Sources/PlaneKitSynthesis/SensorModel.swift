/// How a simulated depth sensor corrupts the ideal depth: a Kinect-like structured-light camera
/// by default, or nothing at all for ``ideal`` frames.
///
/// Applied per pixel, in this order, to the ray-cast depth `z` (along the camera's +Z):
/// 1. no reading when `z` is outside ``minimumRange``…``maximumRange``;
/// 2. no reading when the ray meets the surface at more than ``maximumIncidenceDegrees`` from
///    its normal (grazing angles);
/// 3. no reading, with probability ``discontinuityDropProbability``, when a 4-neighbour's ideal
///    depth differs by more than ``discontinuityRelativeJump`` × `z` (or the neighbour sees
///    nothing): the structured-light pattern breaks up at occluding edges;
/// 4. no reading with probability ``dropoutRate`` anywhere (salt-and-pepper holes);
/// 5. Gaussian noise along the ray with standard deviation ``depthSigma(atDepth:)``;
/// 6. quantisation of the disparity `b·f / z` to steps of ``disparityStep`` pixels.
/// Pixels without a reading get NaN coordinates and label 0. The renderer draws the random
/// parts cheaply but with these distributions: the noise from fixed tables of standard normal
/// deviates read at random offsets per row, the dropouts as geometric gaps between them.
public struct SensorModel: Sendable, Hashable, Codable {
    /// Nearest depth measured (m).
    public var minimumRange: Float
    /// Farthest depth measured (m).
    public var maximumRange: Float
    /// Largest angle between the ray and the surface normal that still returns depth (degrees);
    /// 90 or more keeps every angle.
    public var maximumIncidenceDegrees: Float
    /// Relative depth jump to a neighbour that marks a discontinuity; `.infinity` disables it.
    public var discontinuityRelativeJump: Float
    /// Probability of losing a pixel at a discontinuity.
    public var discontinuityDropProbability: Float
    /// Probability of losing any pixel.
    public var dropoutRate: Float
    /// Constant term of the depth noise σ (m).
    public var noiseConstant: Float
    /// Quadratic term of the depth noise σ (1/m).
    public var noiseQuadratic: Float
    /// Depth at which the quadratic term vanishes (m).
    public var noiseReferenceDepth: Float
    /// Disparity quantisation step in pixels (1/8 for a Kinect); 0 disables quantisation.
    public var disparityStep: Float
    /// Projector–camera baseline (m) used to turn depth into disparity.
    public var baseline: Float

    /// A sensor model from its parts (every default is the Kinect's).
    public init(minimumRange: Float = 0.4, maximumRange: Float = 5, maximumIncidenceDegrees: Float = 80,
                discontinuityRelativeJump: Float = 0.03, discontinuityDropProbability: Float = 0.5,
                dropoutRate: Float = 0.01, noiseConstant: Float = 0.0012, noiseQuadratic: Float = 0.0019,
                noiseReferenceDepth: Float = 0.4, disparityStep: Float = 1.0 / 8, baseline: Float = 0.075) {
        self.minimumRange = minimumRange
        self.maximumRange = maximumRange
        self.maximumIncidenceDegrees = maximumIncidenceDegrees
        self.discontinuityRelativeJump = discontinuityRelativeJump
        self.discontinuityDropProbability = discontinuityDropProbability
        self.dropoutRate = dropoutRate
        self.noiseConstant = noiseConstant
        self.noiseQuadratic = noiseQuadratic
        self.noiseReferenceDepth = noiseReferenceDepth
        self.disparityStep = disparityStep
        self.baseline = baseline
    }

    /// The Kinect-like default: σ_z = 0.0012 + 0.0019·(z − 0.4)² m, 1/8-pixel disparity steps with
    /// a 7.5 cm baseline, 0.4–5 m range, 1% dropouts, holes at edges and beyond 80° incidence.
    public static let kinect = SensorModel()

    /// A perfect sensor: every surface point the ray hits, exactly, at any range and angle.
    public static let ideal = SensorModel(
        minimumRange: 0, maximumRange: .infinity, maximumIncidenceDegrees: 90, discontinuityRelativeJump: .infinity,
        discontinuityDropProbability: 0, dropoutRate: 0, noiseConstant: 0, noiseQuadratic: 0, disparityStep: 0)

    /// This model without any random noise or quantisation (holes are still made).
    public var withoutNoise: SensorModel {
        var m = self
        m.noiseConstant = 0
        m.noiseQuadratic = 0
        m.disparityStep = 0
        return m
    }

    /// The standard deviation of the depth noise at depth `z` (m).
    public func depthSigma(atDepth z: Float) -> Float {
        let e = z - noiseReferenceDepth
        return noiseConstant + noiseQuadratic * e * e
    }

    /// The depth step between neighbouring quantised disparities at depth `z` (m), or 0 without
    /// quantisation: about `z² · step / (b·f)`.
    public func quantisationStep(atDepth z: Float, focalLength f: Float) -> Float {
        guard disparityStep > 0 else { return 0 }
        return z * z * disparityStep / (baseline * f)
    }

    /// The depth a quantised disparity reports: the nearest representable depth to `z`.
    public func quantise(depth z: Float, focalLength f: Float) -> Float {
        guard disparityStep > 0, z > 0 else { return z }
        let bf = baseline * f
        let steps = SensorModel.roundedHalfAwayFromZero(bf / z / disparityStep)
        return steps > 0 ? bf / (steps * disparityStep) : .nan
    }

    /// `x.rounded()` (to nearest, ties away from zero), without the libm call that `rounded()`
    /// compiles to on baseline x86-64: truncation to an integer is one instruction and exact
    /// here, and the remainder `x − trunc(x)` is exact too, so the result is the same bits.
    @inline(__always)
    static func roundedHalfAwayFromZero(_ x: Float) -> Float {
        guard abs(x) < 0x1p23 else { return x.rounded() }
        let t = Float(Int32(x))
        let d = x - t
        if d >= 0.5 { return t + 1 }
        if d <= -0.5 { return t - 1 }
        // Keep the sign of a zero result (−0.3 rounds to −0, as rounded() gives).
        return t == 0 ? Float(signOf: x, magnitudeOf: 0) : t
    }

    /// `true` when this model changes nothing (no holes, no noise, no quantisation).
    public var isIdeal: Bool {
        minimumRange <= 0 && maximumRange == .infinity && maximumIncidenceDegrees >= 90
            && (discontinuityRelativeJump == .infinity || discontinuityDropProbability <= 0) && dropoutRate <= 0
            && noiseConstant == 0 && noiseQuadratic == 0 && disparityStep <= 0
    }
}
