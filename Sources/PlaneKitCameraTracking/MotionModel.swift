import PlaneKitGeometry

/// Predicts the next camera pose from the recent well-tracked ones: translation at the mean
/// world velocity over the last few reliable frames (a hand-held or carried camera moves along
/// a smooth path whatever it looks at), rotation at the turn rate of the last reliable step.
///
/// The prediction is what a registration starts from, and all it has along a direction the
/// depth does not constrain (sliding along where a floor meets a lone wall), so it averages
/// over several frames rather than repeating the last step's noise.
struct MotionModel: Sendable {
    /// Reliable poses kept (with their timestamps), oldest first.
    private var history: [(pose: Transform, time: Double)] = []
    /// The most reliable poses used for the velocity.
    let window: Int

    init(window: Int = 10) {
        self.window = max(2, window)
    }

    /// Forgets the motion (after a jump in the track, or a given pose).
    mutating func reset() {
        history.removeAll(keepingCapacity: true)
    }

    /// Records a pose that registration pinned down in every direction.
    mutating func record(_ pose: Transform, at time: Double) {
        if history.count == window { history.removeFirst() }
        history.append((pose, time))
    }

    /// `pose` (the latest, taken at `previousTime`) moved on to `time`.
    func predict(from pose: Transform, previousTime: Double, to time: Double) -> Transform {
        guard history.count >= 2, let first = history.first, let last = history.last, last.time > first.time else {
            return pose
        }
        let dt = Float(max(0, time - previousTime))
        let velocity = (last.pose.translation - first.pose.translation) / Float(last.time - first.time)
        let before = history[history.count - 2]
        let stepTime = Float(last.time - before.time)
        var turn = Matrix3.identity
        if stepTime > 0 {
            // The last reliable step's rotation, scaled to dt (axis-angle).
            let step = Quaternion(before.pose.rotation.transposed * last.pose.rotation).normalized
            let angle = step.angle
            if angle > 1e-7 {
                turn = Quaternion(angle: angle * dt / stepTime, axis: step.real < 0 ? -step.imaginary : step.imaginary).matrix
            }
        }
        return Transform(rotation: pose.rotation * turn, translation: pose.translation + velocity * dt)
    }
}
