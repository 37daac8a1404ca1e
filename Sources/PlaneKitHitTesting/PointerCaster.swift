import PlaneKitGeometry

/// The pointers of a shared space as one peer sees them: each pointer's place and calibration,
/// and what its ray hits. Stream peers (`stream --host/--join`) and views that watch a space use
/// it alike: a pointer is placed (``place(_:origin:forward:)``), then each attitude it sends
/// becomes a ray (``AttitudePointer``, calibrated on the first attitude cast) cast into the
/// planes the caller's raycast knows.
public struct PointerCaster: Sendable {
    /// A pointer's ray and what it hit, nearest first.
    public struct Cast: Sendable {
        /// The ray, in the shared world.
        public var ray: Ray
        /// The hits, nearest first.
        public var hits: [HitTestResult]
    }

    private var pointers: [String: AttitudePointer] = [:]

    /// No pointer yet.
    public init() {}

    /// Places pointer `peer` at `origin` with its first attitude aiming along `forward`'s heading
    /// (a later placement recalibrates it); `false`, and the pointer unplaced, when `forward` is
    /// (nearly) vertical or either is not finite.
    @discardableResult
    public mutating func place(_ peer: String, origin: SIMD3<Float>, forward: SIMD3<Float>) -> Bool {
        pointers[peer] = AttitudePointer(origin: origin, referenceDirection: forward)
        return pointers[peer] != nil
    }

    /// Forgets pointer `peer` (it left).
    public mutating func forget(_ peer: String) { pointers[peer] = nil }

    /// Pointer `peer`'s ray for `attitude` and what `raycast` finds along it (nearest first);
    /// `nil` while the pointer is not placed.
    public mutating func cast(_ peer: String, attitude: Quaternion, raycast: (Ray) -> [HitTestResult]) -> Cast? {
        guard var pointer = pointers[peer] else { return nil }
        let ray = pointer.ray(for: attitude)
        pointers[peer] = pointer
        return Cast(ray: ray, hits: raycast(ray))
    }

    /// The hits of one ray from several sources (the session's planes, planes another peer
    /// shared, …), nearest first, a plane met by more than one of them reported once.
    public static func merged(_ lists: [HitTestResult]...) -> [HitTestResult] {
        var hits: [HitTestResult] = []
        for list in lists {
            for hit in list where !hits.contains(where: { same($0, hit) }) { hits.append(hit) }
        }
        hits.sort { $0.distance < $1.distance }
        return hits
    }

    /// Two hits on one plane known twice (a map's anchor at a joiner and the host's live copy):
    /// the same identifier and within a centimetre along the ray.
    private static func same(_ a: HitTestResult, _ b: HitTestResult) -> Bool {
        a.planeIdentifier != nil && a.planeIdentifier == b.planeIdentifier && abs(a.distance - b.distance) < 0.01
    }
}
