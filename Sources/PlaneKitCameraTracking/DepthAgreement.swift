import PlaneKitGeometry
import PlaneKitInput

/// How well two depth frames of a walk agree under a relative pose, whatever produced the pose:
/// the later frame's points (every 4th pixel of every 4th row) are moved into the earlier
/// frame's camera, paired with its surface at the pixel they project to, and the median
/// point-to-plane distance of the pairs within 5 cm is the figure. A pose that puts the two
/// views of the same surfaces on top of each other scores the sensor's noise (a few mm); one
/// that is off by a degree or a centimetre scores visibly more.
///
/// Used to judge a walk's reference poses against its own depth (`bench tracking
/// --check-reference`): the residual under the reference's relative pose, under the tracker's,
/// and under ``registered(from:)``, a direct registration of the pair.
public struct DepthAgreement: Sendable {
    /// The earlier frame's surface.
    private let surface: DepthKeyframe
    /// Holds the later frame's sample points.
    private var registration: DepthRegistration

    /// The pair: `earlier` and `later` organized frames (camera coordinates, NaN holes) taken
    /// with the same `intrinsics`.
    public init(earlier: PointCloud, later: PointCloud, intrinsics: PinholeIntrinsics) {
        var settings = DepthRegistration.Configuration()
        // Run to convergence: the pair's own best fit, not a tracker's per-frame budget.
        settings.coarseIterations = 15
        settings.fineIterations = 40
        settings.convergence = 1e-6
        settings.freeBelow = 0
        registration = DepthRegistration(configuration: settings)
        surface = earlier.points.withUnsafeBufferPointer {
            DepthKeyframe(points: $0, width: earlier.width, height: earlier.height, intrinsics: intrinsics, pose: .identity, frame: 0)
        }
        later.points.withUnsafeBufferPointer { registration.sample(points: $0, width: later.width, height: later.height) }
    }

    /// The median point-to-plane distance (m) of the later frame's points to the earlier frame's
    /// surface under `relative` (earlier-camera-from-later-camera) and the number of pairs, or
    /// `nil` when no point pairs.
    public func medianResidual(at relative: Transform) -> (median: Float, pairs: Int)? {
        registration.medianResidual(to: surface, transform: relative, distance: 0.05)
    }

    /// The relative pose (earlier-camera-from-later-camera) that point-to-plane ICP between the
    /// two frames alone converges to from `initial`, or `nil` when it does not register.
    public func registered(from initial: Transform) -> Transform? {
        let result = registration.register(to: surface, initial: initial)
        return result.solved && result.inliers > 0 ? result.transform : nil
    }
}
