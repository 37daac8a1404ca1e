/// Faces seen at a grazing angle: a triangulation scanner's stripe spreads over the surface and
/// weakens, so readings are lost progressively and those kept are noisier, before the hard cut
/// at the sensor's ``SimulatedSensor/maximumIncidenceDegrees``.
///
/// With `r` rising linearly in the cosine of the incidence angle θ from 0 at ``start`` to 1 at
/// ``end``, a reading is lost with probability ``loss`` · `r` and its independent Gaussian noise
/// (``SimulatedSensor/noise``, not the ``SimulatedSensor/ripple``) is multiplied by
/// `1 + (noiseGrowth − 1) · r`. On SegComp's ABW dev images faces at 70–75°, 75–80° and
/// 80–90° incidence scatter ×1.3, ×1.5 and ×7 as much as those facing the scanner, and faces
/// beyond 80° are few and small: readings thin out there.
public struct GrazingFalloff: Sendable, Hashable {
    /// Incidence angle (degrees) from which readings start to suffer.
    public var start: Float
    /// Incidence angle (degrees) at which they suffer the most.
    public var end: Float
    /// Probability of losing a reading at ``end``.
    public var loss: Float
    /// Factor on the Gaussian noise at ``end``.
    public var noiseGrowth: Float

    /// A grazing falloff from its parts.
    public init(start: Float = 70, end: Float = 85, loss: Float = 0.5, noiseGrowth: Float = 10) {
        self.start = start
        self.end = end
        self.loss = loss
        self.noiseGrowth = noiseGrowth
    }

    /// `r` of the type's description as a function of `cos θ`, the angles turned into cosines once.
    var ramp: StereoHoles.CosineRamp {
        StereoHoles.CosineRamp(from: start, to: end)
    }
}
