import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitPlanes

/// A ray cast kept alive across frames that reports only when its result changes, like
/// ARKit's `ARTrackedRaycast`.
///
/// Each frame, call ``update(with:)`` with that frame's ``HitTester``. It returns the new
/// results (nearest first; empty when the ray no longer hits anything) when they differ from
/// the last reported ones, and `nil` when they do not. Results "differ" when their number,
/// a target, a plane identifier or an alignment changes, or a hit moves by more than
/// ``positionTolerance`` (1 mm) or turns by more than ``angleTolerance`` (0.5°): below that,
/// plane refinements are noise that would only make a placed object jitter.
public struct TrackedRaycast: Sendable {
    /// The world ray being tracked.
    public var ray: Ray
    /// The targets asked for.
    public var targets: HitTestTargets
    /// The alignments allowed.
    public var alignment: PlaneAlignment
    /// The largest move of a hit that is not a change (m).
    public var positionTolerance: Float = 0.001
    /// The largest turn of a hit's orientation that is not a change (radians).
    public var angleTolerance: Float = 0.5 * .pi / 180
    /// The results last reported (`nil` before the first update).
    public private(set) var lastResults: [HitTestResult]?

    /// A tracked cast of `ray` at `targets` among `alignment`.
    public init(ray: Ray, targets: HitTestTargets, alignment: PlaneAlignment = .any) {
        self.ray = ray
        self.targets = targets
        self.alignment = alignment
    }

    /// Casts again against this frame's planes and points; the new results when they changed
    /// (the first update always reports), otherwise `nil`.
    public mutating func update(with tester: HitTester) -> [HitTestResult]? {
        let results = tester.hitTest(ray, targets: targets, alignment: alignment)
        if let lastResults, !changed(from: lastResults, to: results) { return nil }
        lastResults = results
        return results
    }

    private func changed(from old: [HitTestResult], to new: [HitTestResult]) -> Bool {
        guard old.count == new.count else { return true }
        for (a, b) in zip(old, new) {
            if a.target != b.target || a.planeIdentifier != b.planeIdentifier || a.alignment != b.alignment { return true }
            if distance(a.position, b.position) > positionTolerance { return true }
            let r = a.worldTransform.rotation, s = b.worldTransform.rotation
            // The larger angle between corresponding axes bounds the rotation between the frames.
            let turn = max(r.columns.0.angle(to: s.columns.0), r.columns.1.angle(to: s.columns.1), r.columns.2.angle(to: s.columns.2))
            if turn > angleTolerance { return true }
        }
        return false
    }
}
