#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitAnchors

/// World maps around a `Session`: samples every frame's depth for saving (``map(of:)``), and,
/// once a map is loaded (`load(_:into:)`), registers each frame against it until the session
/// relocalizes, then moves the session into the map's world.
///
/// Drive it frame by frame next to the session:
/// ```swift
/// let pose = mapping.worldPose(inputPose)          // map-world pose once relocalized
/// events += try session.update(frame: cloud, intrinsics: k, pose: pose, timestamp: t)
/// if let (found, moved) = mapping.frameTracked(session: &session, cloud: cloud) { … }
/// ```
public struct MapTracking: Sendable {
    /// What the frames' own poses are turned into: map-from-input once relocalized, identity before.
    public private(set) var worldFromInput = Transform.identity
    /// The keyframes and points sampled so far (session world).
    public private(set) var sampler = MapPointSampler()
    /// The registration against a loaded map, while relocalizing.
    public private(set) var relocalizer: Relocalizer?
    /// Frames registered against the map since it was loaded.
    public private(set) var attempts = 0
    /// The previous frame's registration, when it passed: a relocalization needs two frames in a
    /// row that agree (within 1 cm at the camera and 0.5°), so one coincidental fit is not enough.
    private var pending: Relocalization?
    /// The latest frames' samples while relocalizing: evidence seen a few frames ago still counts.
    private var recent = RecentSamples()
    /// What the latest registration attempt against the loaded map saw, for logs.
    public private(set) var lastAttempt: RelocalizationAttempt?

    /// Nothing loaded.
    public init() {}

    /// `true` while a loaded map has not been relocalized into.
    public var isRelocalizing: Bool { relocalizer != nil }

    /// The pose to give the session for a frame whose record says `pose`.
    public func worldPose(_ pose: Transform) -> Transform { worldFromInput * pose }

    /// Starts relocalizing into `map`: `session` keeps tracking in its own world, numbering new
    /// anchors and objects above the map's.
    public mutating func load(_ map: WorldMap, into session: inout Session, configuration: Relocalizer.Configuration = .init()) {
        session.reserveIdentifiers(of: map)
        relocalizer = Relocalizer(map: map, configuration: configuration)
        attempts = 0
        pending = nil
        lastAttempt = nil
        recent.removeAll()
    }

    /// After `session` took a frame (`cloud`, camera coordinates): samples it when it is a
    /// keyframe, and while relocalizing registers it against the map. On success the session
    /// is moved into the map's world and its events (`Session.relocalize(into:mapFromSession:matches:)`)
    /// come back with the registration.
    public mutating func frameTracked(session: inout Session, cloud: PointCloud) -> (Relocalization, [SessionEvent])? {
        guard let pose = session.camera?.pose else { return nil }
        sampler.add(cloud, pose: pose)
        guard let relocalizer else { return nil }
        attempts += 1
        recent.add(cloud, pose: pose)
        let (registration, attempt) = relocalizer.attempt(anchors: session.tracker.tracked, cloud: cloud, pose: pose, recent: recent)
        lastAttempt = attempt
        guard let found = registration else {
            pending = nil
            return nil
        }
        let previous = pending
        pending = found
        guard let previous, MapTracking.agree(previous.mapFromSession, found.mapFromSession, at: pose.translation) else {
            return nil
        }
        let t = found.mapFromSession
        let events = session.relocalize(into: relocalizer.map, mapFromSession: t, matches: found.matches)
        worldFromInput = t * worldFromInput
        // The map's samples and the session's, moved, together in the map's world.
        var points = SparsePointMap(points: relocalizer.map.points, normals: relocalizer.map.normals)
        for (p, n) in zip(sampler.points.points, sampler.points.normals) {
            points.insert(t.apply(toPoint: p), normal: t.apply(toDirection: n))
        }
        sampler = MapPointSampler(keyframes: relocalizer.map.keyframes + sampler.keyframes.map { t * $0 }, points: points)
        self.relocalizer = nil
        recent.removeAll()
        return (found, events)
    }

    /// What the latest frame's registration attempt would have found under a known
    /// map-from-session change of world (a benchmark's truth): ``Relocalizer/check(mapFromSession:anchors:cloud:pose:recent:)``.
    /// `nil` when no map is being relocalized into.
    public func check(mapFromSession: Transform, session: Session, cloud: PointCloud) -> RelocalizationAttempt? {
        guard let relocalizer, let pose = session.camera?.pose else { return nil }
        return relocalizer.check(mapFromSession: mapFromSession, anchors: session.tracker.tracked, cloud: cloud, pose: pose, recent: recent)
    }

    /// The same for the checks a registration from the frame's points faces:
    /// ``Relocalizer/checkPoints(mapFromSession:cloud:pose:recent:)``.
    public func checkPoints(mapFromSession: Transform, session: Session, cloud: PointCloud) -> RelocalizationAttempt? {
        guard let relocalizer, let pose = session.camera?.pose else { return nil }
        return relocalizer.checkPoints(mapFromSession: mapFromSession, cloud: cloud, pose: pose, recent: recent)
    }

    /// `true` when two registrations put `point` within 1 cm of each other and turn within 0.5°.
    static func agree(_ a: Transform, _ b: Transform, at point: SIMD3<Float>) -> Bool {
        distance(a.apply(toPoint: point), b.apply(toPoint: point)) <= 0.01
            && Transform(rotation: a.rotation * b.rotation.transposed).rotationAngle <= 0.5 * .pi / 180
    }

    /// The session's world as a map, with the points sampled so far.
    public func map(of session: Session) -> WorldMap { session.worldMap(points: sampler) }
}
