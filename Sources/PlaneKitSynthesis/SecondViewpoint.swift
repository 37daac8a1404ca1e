import PlaneKitGeometry

/// A second place a point must be seen from to be measured: a structured-light scanner's
/// projector, or the other imager of a stereo pair.
///
/// Triangulating sensors measure a surface point only when both the camera and this viewpoint
/// see it. Points hidden from it leave holes beside every object: the projector's shadow on a
/// scanner's table, the occlusion band to one side of an object in a stereo depth image. When
/// ``intrinsics`` is set the viewpoint is a camera looking the same way as the sensor, and points
/// outside its image are not measured either: that is the invalid band at the left edge of a
/// stereo depth image, as wide as the disparity `f · b / z`.
public struct SecondViewpoint: Sendable, Hashable {
    /// Where it is, in the sensor's camera frame (m).
    public var position: SIMD3<Float>
    /// Largest angle between its ray and the surface normal that still lets it see the point
    /// (degrees).
    public var maximumIncidenceDegrees: Float
    /// Its image, when it is a camera oriented like the sensor; `nil` for a projector that
    /// lights everything the sensor sees.
    public var intrinsics: PinholeIntrinsics?

    /// A viewpoint from its parts.
    public init(position: SIMD3<Float>, maximumIncidenceDegrees: Float = 85, intrinsics: PinholeIntrinsics? = nil) {
        self.position = position
        self.maximumIncidenceDegrees = maximumIncidenceDegrees
        self.intrinsics = intrinsics
    }

    /// `true` when the point `p` with outward unit normal `n` (camera frame) faces this
    /// viewpoint steeply enough and, for a camera, falls inside its image. Occlusion by other
    /// surfaces is tested separately.
    func faces(_ p: SIMD3<Float>, normal n: SIMD3<Float>, cosMaximum: Float) -> Bool {
        let toViewpoint = position - p
        let facing = dot(n, toViewpoint)
        guard facing > 0, facing >= cosMaximum * toViewpoint.length else { return false }
        guard let k = intrinsics else { return true }
        let q = p - position
        guard q.z > 0 else { return false }
        let u = k.fx * q.x / q.z + k.cx, v = k.fy * q.y / q.z + k.cy
        return u >= -0.5 && u <= Float(k.width) - 0.5 && v >= -0.5 && v <= Float(k.height) - 0.5
    }
}
