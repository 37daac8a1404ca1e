import PlaneKitGeometry

/// Carries the camera's position through frames the depth cannot pin down, from the
/// accelerometer: the world velocity is integrated from each frame's mean acceleration and
/// pulled towards what registration measured (an α-β-γ filter with the acceleration as input:
/// registration's position is taken as it is, the velocity follows its innovations, and a slowly
/// learnt acceleration bias absorbs the accelerometer's offset and any tilt of the levelled
/// world against true gravity).
///
/// Along a direction the depth leaves free (sliding along where a floor meets a lone wall) the
/// registration keeps the prediction, so the innovation there is zero and the velocity carries on
/// from the acceleration alone: a blank wall no longer stops the track dead or lets it run on at
/// a stale speed.
struct InertialMotion: Sendable {
    /// Standard gravity (m/s²).
    static let standardGravity: Float = 9.80665
    /// Frame intervals the filter integrates over (s): frames closer than a millisecond (a
    /// replayed or duplicated timestamp) would turn millimetres of innovation into kilometres a
    /// second squared, and after half a second without a frame the velocity is stale.
    static let intervals: ClosedRange<Float> = 0.001...0.5
    /// The largest offset the filter learns (m/s²): a calibrated accelerometer's is a few
    /// hundredths, and a tilt of the world of a degree is 0.17.
    static let largestBias: Float = 0.5

    /// The world velocity (m/s), `nil` until two frames gave it.
    private(set) var velocity: SIMD3<Float>?
    /// Gravity's acceleration in world coordinates (m/s²): straight down when the world is
    /// levelled, else taken from the first reading (the device held roughly still).
    private var gravity: SIMD3<Float>?
    /// The learnt acceleration bias (world, m/s²), added to every reading.
    private(set) var bias = SIMD3<Float>.zero
    /// How much of a position innovation (divided by the frame interval) goes into the velocity.
    let velocityGain: Float
    /// How much of a position innovation (divided by the interval squared) goes into the bias.
    let biasGain: Float

    init(velocityGain: Float = 0.2, biasGain: Float = 0.01) {
        self.velocityGain = velocityGain
        self.biasGain = biasGain
    }

    /// Forgets the velocity (after a jump in the track); the bias is the sensor's and stays.
    mutating func reset() {
        velocity = nil
    }

    /// Sets where gravity points in the world (+Y up when levelled).
    mutating func setGravity(_ g: SIMD3<Float>) {
        gravity = g
    }

    /// `true` once gravity in the world is known.
    var knowsGravity: Bool { gravity != nil }

    /// The world acceleration of a reading `specificForce` (the accelerometer's mean over the
    /// interval, camera coordinates) for a camera turned by `rotation` (world-from-camera).
    func acceleration(specificForce: SIMD3<Float>, rotation: Matrix3) -> SIMD3<Float> {
        rotation * specificForce + (gravity ?? .zero) + bias
    }

    /// The position `dt` seconds after `position` under `acceleration` (world), when the velocity
    /// is known.
    func predict(from position: SIMD3<Float>, acceleration: SIMD3<Float>, dt: Float) -> SIMD3<Float>? {
        guard let velocity, InertialMotion.intervals.contains(dt) else { return nil }
        return position + velocity * dt + 0.5 * acceleration * dt * dt
    }

    /// Moves the velocity on by `acceleration` over `dt` and corrects it by the registration's
    /// innovation (`measured − predicted`) as far as `trust` (a projection onto the directions
    /// the registration held) lets it; the bias learns only when `learnsBias` (every direction
    /// held: a partly free frame's innovation says little about the sensor). With no velocity
    /// yet, takes the step from `previous`; after an interval outside ``intervals`` it knows none.
    mutating func update(previous: SIMD3<Float>, predicted: SIMD3<Float>?, measured: SIMD3<Float>,
                         acceleration: SIMD3<Float>, dt: Float, learnsBias: Bool, trust: Matrix3) {
        guard InertialMotion.intervals.contains(dt) else {
            velocity = nil
            return
        }
        guard let velocity, let predicted else {
            self.velocity = (measured - previous) / dt
            return
        }
        let innovation = trust * (measured - predicted)
        self.velocity = velocity + acceleration * dt + velocityGain * innovation / dt
        guard learnsBias else { return }
        bias += biasGain * innovation / (dt * dt)
        let size = length(bias)
        if size > InertialMotion.largestBias { bias *= InertialMotion.largestBias / size }
    }
}
