import PlaneKitGeometry

/// How far an estimated camera trajectory is from a reference one: the estimate is moved
/// rigidly so that its first pose coincides with the reference's first pose, then the camera
/// positions are compared frame by frame (absolute trajectory error with first-frame alignment,
/// which charges all drift to the estimate).
public struct TrajectoryError: Sendable, Hashable {
    /// Root mean square of the position errors (m).
    public var rmse: Float
    /// The largest position error (m).
    public var maximum: Float
    /// The position error of the last pose (m).
    public var final: Float
    /// The largest rotation error (radians).
    public var maximumRotation: Float
    /// Poses compared.
    public var count: Int

    /// The error of `estimated` against `reference` (same length, pose `i` of one for pose `i`
    /// of the other), or `nil` when they are empty or of different lengths.
    public init?(estimated: [Transform], reference: [Transform]) {
        guard let aligned = Self.aligned(estimated, to: reference) else { return nil }
        var squares: Double = 0
        var maximum: Float = 0, maximumRotation: Float = 0, last: Float = 0
        for (a, r) in zip(aligned, reference) {
            let error = length(a.translation - r.translation)
            squares += Double(error * error)
            maximum = max(maximum, error)
            last = error
            maximumRotation = max(maximumRotation, Transform(rotation: r.rotation.transposed * a.rotation).rotationAngle)
        }
        rmse = Float((squares / Double(estimated.count)).squareRoot())
        self.maximum = maximum
        final = last
        self.maximumRotation = maximumRotation
        count = estimated.count
    }

    /// Each estimated position minus its reference (m), after the first-frame alignment: where
    /// along a walk the error grows, and in which direction. `nil` as for ``init(estimated:reference:)``.
    public static func positionErrors(estimated: [Transform], reference: [Transform]) -> [SIMD3<Float>]? {
        aligned(estimated, to: reference).map { zip($0, reference).map { $0.translation - $1.translation } }
    }

    /// `estimated` moved rigidly so that its first pose is the reference's first.
    private static func aligned(_ estimated: [Transform], to reference: [Transform]) -> [Transform]? {
        guard !estimated.isEmpty, estimated.count == reference.count else { return nil }
        let alignment = reference[0] * estimated[0].inverse
        return estimated.map { alignment * $0 }
    }
}
