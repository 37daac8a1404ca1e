import PlaneKitGeometry

/// Drift over a fixed time, as TUM RGB-D's relative pose error (RPE) measures it: for each pose
/// and the pose nearest ``interval`` seconds after it, the estimated motion between the
/// two against the reference's motion. Unlike ``TrajectoryError`` it does not grow with the
/// length of the walk, and a pose that stands apart from its neighbours shows in it even when
/// the walk as a whole stays close to the reference.
public struct RelativePoseError: Sendable, Hashable {
    /// The time between the two poses of a pair (s).
    public var interval: Double
    /// Root mean square of the pairs' translation errors (m).
    public var translationRMSE: Float
    /// Root mean square of the pairs' rotation errors (radians).
    public var rotationRMSE: Float
    /// Pairs compared.
    public var pairs: Int

    /// The error of `estimated` against `reference` (pose `i` of one for pose `i` of the other,
    /// taken at `timestamps[i]` seconds, in order). `nil` when the three differ in length,
    /// `interval` is not positive and finite, or no pose has another `interval` after it
    /// (`timestamps` in increasing order).
    public init?(estimated: [Transform], reference: [Transform], timestamps: [Double], interval: Double = 1) {
        guard estimated.count == reference.count, timestamps.count == estimated.count, interval > 0, interval.isFinite else {
            return nil
        }
        var translationSquares = 0.0, rotationSquares = 0.0, pairs = 0
        var after = 0
        for first in timestamps.indices where timestamps[first].isFinite {
            // The first pose at or after `interval`, or the one before it when that is nearer
            // (frame times written to a few decimals fall either side of a whole second).
            let target = timestamps[first] + interval
            after = max(after, first + 1)
            while after < timestamps.count, !(timestamps[after] >= target) { after += 1 }
            guard after < timestamps.count else { break }
            let later = after - 1 > first && target - timestamps[after - 1] < timestamps[after] - target ? after - 1 : after
            let truth = reference[first].inverse * reference[later]
            let error = truth.inverse * (estimated[first].inverse * estimated[later])
            translationSquares += Double(dot(error.translation, error.translation))
            // From the quaternion: the arccosine of the trace loses small angles in rounding, and
            // a rotation rigid only to a few decimals (7-Scenes' reference poses are rigid to
            // 2·10⁻⁴) would look turned by a degree.
            let angle = Quaternion(error.rotation).angle
            rotationSquares += Double(angle * angle)
            pairs += 1
        }
        guard pairs > 0 else { return nil }
        self.interval = interval
        translationRMSE = Float((translationSquares / Double(pairs)).squareRoot())
        rotationRMSE = Float((rotationSquares / Double(pairs)).squareRoot())
        self.pairs = pairs
    }
}
