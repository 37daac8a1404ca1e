import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitPlanes

/// A world-tracking session: takes depth frames one after another,
/// each with intrinsics, a camera pose and a timestamp, and keeps the world state — plane
/// anchors, placed objects, the focus indicator and the mapping status — reporting every change
/// as a ``SessionEvent``.
///
/// A value type: copy it to branch a session; it is `Sendable` but meant to be driven from one
/// place, frame after frame.
///
/// Per frame (``update(frame:intrinsics:pose:timestamp:)``):
/// 1. planes are detected in the camera frame (`OrganizedPlaneDetector`, told the world's up
///    in camera coordinates) and moved into the world;
/// 2. one subsampled pass over the pixels gathers the world's measured points (every 2nd pixel
///    and row) and each plane's support moments (every 4th);
/// 3. ``PlaneTracker`` associates, refines, merges and removes anchors;
/// 4. every added or updated plane may snap objects onto it (``SnapRule``); snaps in progress
///    advance to this frame's timestamp;
/// 5. the focus indicator casts the image-centre ray (the smart hit test) and the mapping status
///    is re-decided (``MappingTracker``).
public struct Session: Sendable {
    /// Settings of a session.
    public struct Configuration: Sendable {
        /// The world's up direction (world +Y, as in ARKit).
        public var up = SIMD3<Float>(0, 1, 0)
        /// The plane detector (its `up` is set from each frame's pose).
        public var detector = OrganizedPlaneDetector.Configuration()
        /// Association, merging, update and removal rules.
        public var tracking = PlaneTrackingConfiguration()
        /// The snap-to-plane rule.
        public var snap = SnapRule()
        /// Estimated planes and feature points.
        public var hitTestOptions = HitTestOptions()
        /// Measured points are kept from every n-th pixel of every n-th row.
        public var pointStride = 2
        /// Support moments are taken from every n-th pixel of every n-th row (a multiple of
        /// ``pointStride``).
        public var supportStride = 4

        /// The defaults.
        public init() {}
    }

    /// An object's state beyond its anchor.
    package struct ObjectState: Sendable {
        package var anchor: ObjectAnchor
        var smoother = DistanceSmoother()
        var smoothing: Bool

        package init(anchor: ObjectAnchor, smoothing: Bool) {
            self.anchor = anchor
            self.smoothing = smoothing
        }
    }

    /// The settings.
    public let configuration: Configuration
    /// The number of the latest frame (0-based), or −1 before the first.
    public private(set) var frameIndex = -1
    /// The latest frame's timestamp (s).
    public private(set) var timestamp: Double = 0
    /// The latest frame's camera, or `nil` before the first frame.
    public package(set) var camera: PinholeCamera?
    /// The latest frame's detection (camera coordinates), for inspection.
    public private(set) var latestDetection: PlaneDetectionResult?
    /// Per detected plane of the latest frame (`[label − 1]`), the anchor it went to, or `nil`
    /// for a surface not confirmed yet (a candidate, which no event has named).
    public private(set) var latestAssignments: [PlaneIdentifier?] = []
    /// Set while the user is placing an object over several frames (a gesture): the focus
    /// indicator stays hidden. Place and drag commands also hide it until the end of the next frame.
    public var isPlacingObject = false

    package var tracker: PlaneTracker
    /// The sensor noise measured from the first frames (``SensorProfile/auto`` only).
    private var noiseEstimate = StreamNoiseEstimate()
    package var objectStates: [ObjectState] = []
    package var focusIndicator = FocusIndicator()
    package var mapping: MappingTracker
    package var measuredPoints: MeasuredPoints?
    /// The full hit tester, built when a command or ray cast first needs it in a frame.
    package var cachedTester: HitTester?
    /// A hit tester over the measured points only, for the focus indicator's estimated planes.
    package var pointTester: HitTester?
    private var placedSinceLastFrame = false
    package var nextObjectNumber: UInt64 = 1
    private var nextAnchorNumber: UInt64 = 1

    /// A session with nothing seen yet.
    public init(configuration: Configuration = Configuration()) {
        var c = configuration
        c.up = configuration.up.normalized ?? SIMD3(0, 1, 0)
        self.configuration = c
        tracker = PlaneTracker(configuration: c.tracking, up: c.up)
        mapping = MappingTracker()
        mapping.up = c.up
    }

    // MARK: State

    /// The plane anchors, oldest first (confirmed ones only: what the events have announced).
    public var planes: [PlaneAnchor] { tracker.anchors }
    /// The plane anchor named `identifier` (a confirmed one).
    public func plane(_ identifier: PlaneIdentifier) -> PlaneAnchor? { tracker.anchor(identifier) }
    /// The placed objects, in identifier order.
    public var objects: [ObjectAnchor] { objectStates.map(\.anchor) }
    /// The object named `identifier`.
    public func object(_ identifier: PlacedObjectIdentifier) -> ObjectAnchor? {
        objectStates.first { $0.anchor.identifier == identifier }?.anchor
    }
    /// The mapping status.
    public var mappingStatus: MappingStatus { mapping.status }
    /// The mapping status's inputs (frames, travel, headings, stability).
    public var mappingTracker: MappingTracker { mapping }
    /// The focus indicator.
    public var focus: FocusIndicator { focusIndicator }
    /// A hit tester for the current anchors (confirmed ones: a candidate is nothing to place an
    /// object on yet) and the latest frame's measured points (world), or `nil` before the first
    /// frame. Built on each call; the commands keep one per frame.
    public var hitTester: HitTester? {
        if let cachedTester { return cachedTester }
        guard camera != nil else { return nil }
        return HitTester(planes: tracker.confirmed.map(\.hitTestPlane), points: measuredPoints, up: configuration.up,
                         options: configuration.hitTestOptions)
    }

    /// The hit tester for commands, built once per frame.
    private mutating func commandTester() -> HitTester? {
        if cachedTester == nil { cachedTester = hitTester }
        return cachedTester
    }

    /// Every hit of the ray through `pixel` of the latest frame's camera, nearest first.
    public func raycast(pixel: SIMD2<Float>, targets: HitTestTargets = .all, alignment: PlaneAlignment = .any) -> [HitTestResult] {
        guard let tester = hitTester, let camera else { return [] }
        return tester.hitTest(pixel: pixel, camera: camera, targets: targets, alignment: alignment)
    }

    /// Every hit of a world ray, nearest first.
    public func raycast(_ ray: Ray, targets: HitTestTargets = .all, alignment: PlaneAlignment = .any) -> [HitTestResult] {
        hitTester?.hitTest(ray, targets: targets, alignment: alignment) ?? []
    }

    /// The smart hit (no infinite planes) of `ray`, as the focus indicator needs it each
    /// frame, without building the full hit tester: the nearest anchor whose boundary polygon the
    /// ray meets, else the nearer estimated plane around the ray.
    func focusHit(_ ray: Ray) -> HitTestResult? {
        var best: HitTestResult?
        for anchor in tracker.confirmed {
            let plane = anchor.plane
            guard let t = plane.plane.intersection(with: ray), t < (best?.distance ?? .infinity) else { continue }
            let p = ray.point(at: t)
            let local = plane.transform.inverse.apply(toPoint: p)
            guard plane.boundary.contains(SIMD2(local.x, local.z)) else { continue }
            let facing = dot(plane.plane.normal, ray.direction) > 0 ? -plane.plane.normal : plane.plane.normal
            best = HitTestResult(distance: t, worldTransform: Transform(origin: p, yAxis: facing, xHint: plane.transform.xAxis),
                                 target: .existingPlaneGeometry, alignment: plane.alignment, planeIdentifier: anchor.identifier)
        }
        if let best { return best }
        guard let pointTester else { return nil }
        let (horizontal, vertical) = pointTester.estimatedHits(ray)
        return HitTester.chooseEstimate(horizontal: horizontal, vertical: vertical, allowedAlignment: .any)
    }

    // MARK: Frames

    /// Takes the next frame: an organized cloud in camera coordinates (+X right, +Y down, +Z
    /// forward), its intrinsics, the camera pose (world-from-camera) and its timestamp (s, not
    /// before the previous frame's). Returns the frame's events.
    ///
    /// Throws `InputError` for an unorganized cloud, a size that disagrees with the intrinsics,
    /// a pose that is not a finite rotation and translation, or a timestamp that is not finite or
    /// goes backwards; detection errors pass through.
    public mutating func update(frame: PointCloud, intrinsics: PinholeIntrinsics, pose: Transform,
                                timestamp: Double) throws -> [SessionEvent] {
        let detection = try detectPlanes(in: frame, intrinsics: intrinsics, pose: pose, timestamp: timestamp)
        return try update(frame: frame, intrinsics: intrinsics, pose: pose, timestamp: timestamp, detection: detection)
    }

    /// The first half of ``update(frame:intrinsics:pose:timestamp:)``: checks the frame as it
    /// does and detects its planes (camera coordinates; `pose` says where up is). A caller whose
    /// pose depends on the planes (a camera tracker levelling a keyframe on the floor it sees)
    /// refines the pose with them before the second half places them in the world.
    public mutating func detectPlanes(in frame: PointCloud, intrinsics: PinholeIntrinsics, pose: Transform,
                                      timestamp: Double) throws -> PlaneDetectionResult {
        let source = "session frame \(frameIndex + 1)"
        guard frame.isOrganized, frame.width == intrinsics.width, frame.height == intrinsics.height else {
            throw InputError(source: source, problem: "a \(frame.width)×\(frame.height) cloud for \(intrinsics.width)×\(intrinsics.height) intrinsics; an organized frame of the intrinsics' size is needed")
        }
        try Self.checkPose(pose, source: source)
        guard timestamp.isFinite, frameIndex < 0 || timestamp >= self.timestamp else {
            throw InputError(source: source, problem: "timestamp \(timestamp) is not finite or comes before the previous frame's \(self.timestamp)")
        }
        var detectorConfiguration = configuration.detector
        detectorConfiguration.up = pose.inverse.apply(toDirection: configuration.up)
        var cloud = frame
        cloud.intrinsics = intrinsics
        let detector = OrganizedPlaneDetector(configuration: detectorConfiguration)
        let estimate = detectorConfiguration.sensor == .auto ? noiseEstimate.update(with: cloud, detector: detector) : nil
        return try detector.detect(in: cloud, measured: estimate)
    }

    /// The second half of ``update(frame:intrinsics:pose:timestamp:)``: the planes
    /// ``detectPlanes(in:intrinsics:pose:timestamp:)`` found in `frame`, placed in the world at
    /// `pose` and tracked. Throws `InputError` when `pose` is not a finite rigid transform, the
    /// frame is not organized at the intrinsics' size, or `detection` is not one of a frame of
    /// this size (its labels' size, or a plane whose label is not its place in the list).
    public mutating func update(frame: PointCloud, intrinsics: PinholeIntrinsics, pose: Transform, timestamp: Double,
                                detection: PlaneDetectionResult) throws -> [SessionEvent] {
        let source = "session frame \(frameIndex + 1)"
        try Self.checkPose(pose, source: source)
        guard frame.isOrganized, frame.width == intrinsics.width, frame.height == intrinsics.height,
              detection.width == frame.width, detection.height == frame.height,
              detection.planes.enumerated().allSatisfy({ $0.element.label == $0.offset + 1 }) else {
            throw InputError(source: source, problem: "a detection of a \(detection.width)×\(detection.height) frame (\(detection.planes.count) planes) for a \(frame.width)×\(frame.height) cloud and \(intrinsics.width)×\(intrinsics.height) intrinsics; give the frame, its intrinsics and the detection detectPlanes found in it")
        }
        var cloud = frame
        cloud.intrinsics = intrinsics
        let sampling = cloud.points.withUnsafeBufferPointer { points in
            detection.labels.withUnsafeBufferPointer { labels in
                FrameSampling(points: points, labels: labels, width: cloud.width, height: cloud.height, pose: pose,
                              planeCount: detection.planes.count, pointStride: configuration.pointStride,
                              supportStride: configuration.supportStride)
            }
        }
        let observations = detection.planes.map { plane in
            PlaneObservation(cameraPlane: plane, support: sampling.moments[plane.label - 1], pose: pose, up: configuration.up,
                             alignmentTolerance: configuration.tracking.alignmentTolerance)
        }
        latestDetection = detection
        let points = MeasuredPoints(xs: sampling.xs, ys: sampling.ys, zs: sampling.zs)
        return integrate(observations, camera: PinholeCamera(intrinsics: intrinsics, pose: pose), timestamp: timestamp,
                         frame: cloud, measuredPoints: points)
    }

    /// Throws `InputError` for a camera pose that is not a finite rigid transform.
    private static func checkPose(_ pose: Transform, source: String) throws {
        guard pose.translation.isFinite, pose.rotation.isRotation(tolerance: 1e-3) else {
            throw InputError(source: source, problem: "the camera pose is not a finite rigid transform")
        }
    }

    /// Takes the next frame's planes already in world coordinates (the second half of
    /// ``update(frame:intrinsics:pose:timestamp:)``, usable with planes from elsewhere):
    /// `frame` (camera coordinates) and `measuredPoints` (world) are optional evidence for
    /// removal, estimated planes and the focus indicator. `timestamp` should not go backwards.
    public mutating func integrate(_ observations: [PlaneObservation], camera: PinholeCamera, timestamp: Double,
                                   frame: PointCloud? = nil, measuredPoints: MeasuredPoints? = nil) -> [SessionEvent] {
        frameIndex += 1
        self.timestamp = max(timestamp, frameIndex == 0 ? timestamp : self.timestamp)
        self.camera = camera
        self.measuredPoints = measuredPoints
        let view = CameraView(camera: camera, frame: frame)
        let (changes, assignments) = tracker.integrate(observations, view: view, frame: frameIndex)
        latestAssignments = assignments

        var events: [SessionEvent] = []
        var structural = false
        var refreshed: [PlaneAnchor] = []
        for change in changes {
            switch change {
            case .added(let anchor):
                events.append(event(.planeAdded(anchor)))
                refreshed.append(anchor)
                structural = true
            case .updated(let anchor):
                events.append(event(.planeUpdated(anchor)))
                refreshed.append(anchor)
            case .removed(let anchor, let keeper):
                events.append(SessionEvent(frame: frameIndex, timestamp: self.timestamp, kind: .planeRemoved(anchor), mergedInto: keeper))
                structural = true
                // Objects on a merged plane now stand on its keeper; on a vanished one, on nothing.
                for i in objectStates.indices where objectStates[i].anchor.planeIdentifier == anchor.identifier {
                    objectStates[i].anchor.planeIdentifier = keeper
                    if objectStates[i].anchor.snap?.plane == anchor.identifier {
                        if let keeper { objectStates[i].anchor.snap?.plane = keeper } else { objectStates[i].anchor.snap = nil }
                    }
                }
            }
        }
        cachedTester = nil
        pointTester = measuredPoints.map { HitTester(planes: [], points: $0, up: configuration.up, options: configuration.hitTestOptions) }
        events += snapObjects(onto: refreshed)
        events += advanceSnaps()

        // Focus indicator: the smart hit of the ray through the image centre.
        let intrinsics = camera.intrinsics
        let centre = SIMD2(Float(intrinsics.width - 1) / 2, Float(intrinsics.height - 1) / 2)
        let hit = focusHit(camera.ray(throughPixel: centre))
        let placing = isPlacingObject || placedSinceLastFrame
        placedSinceLastFrame = false
        if let previous = focusIndicator.update(trackingStarted: true, placing: placing, hit: hit) {
            events.append(event(.focus(from: previous, to: focusIndicator.state)))
        }
        let area = tracker.confirmed.reduce(Float(0)) { $0 + $1.area }
        if let previous = mapping.update(pose: camera.pose, area: area, planeCount: tracker.confirmedCount, structuralChange: structural) {
            events.append(event(.mapping(from: previous, to: mapping.status)))
        }
        return events
    }

    private func event(_ kind: SessionEvent.Kind) -> SessionEvent {
        SessionEvent(frame: max(frameIndex, 0), timestamp: timestamp, kind: kind)
    }

    // MARK: Snapping

    /// Starts snaps onto planes just added or updated, and retargets snaps in progress
    /// onto a plane that was refined. A snap in progress is not interrupted by another plane.
    private mutating func snapObjects(onto planes: [PlaneAnchor]) -> [SessionEvent] {
        var events: [SessionEvent] = []
        for plane in planes {
            for i in objectStates.indices {
                var anchor = objectStates[i].anchor
                if let snap = anchor.snap {
                    if snap.plane == plane.identifier {
                        anchor.snap?.target = plane.plane.plane.project(snap.start)
                        objectStates[i].anchor = anchor
                    }
                    continue
                }
                guard let snap = configuration.snap.snap(position: anchor.position, alignment: anchor.alignment,
                                                         onto: plane.plane, identifier: plane.identifier, at: timestamp) else { continue }
                anchor.snap = snap
                anchor.anchorNumber = takeAnchorNumber()
                objectStates[i].anchor = anchor
                events.append(event(.objectSnapped(anchor)))
            }
        }
        return events
    }

    /// Moves snapping objects to where their eased motion is at this frame's timestamp; each
    /// step replaces the anchor (`objectMoved`), and the last one lands on the plane.
    private mutating func advanceSnaps() -> [SessionEvent] {
        var events: [SessionEvent] = []
        for i in objectStates.indices {
            guard let snap = objectStates[i].anchor.snap, timestamp > snap.startTime else { continue }
            var anchor = objectStates[i].anchor
            anchor.transform.translation = snap.position(at: timestamp)
            if snap.isFinished(at: timestamp) {
                anchor.snap = nil
                anchor.planeIdentifier = snap.plane
            }
            anchor.anchorNumber = takeAnchorNumber()
            objectStates[i].anchor = anchor
            events.append(event(.objectMoved(anchor)))
        }
        return events
    }

    package mutating func takeAnchorNumber() -> UInt64 {
        defer { nextAnchorNumber += 1 }
        return nextAnchorNumber
    }

    // MARK: Objects

    /// Places an object named `name` with bounding-box `size` where the smart hit test of
    /// the ray through `pixel` lands, on planes of `alignment`. With `smoothing`, later drags
    /// average the hit distance over the last 10 hits; the placement itself goes to the
    /// hit (one sample). Hides the focus indicator until the end of the next frame.
    @discardableResult
    public mutating func place(name: String, size: SIMD3<Float>, atPixel pixel: SIMD2<Float>,
                               alignment: PlaneAlignment = .any, smoothing: Bool = true) throws -> SessionEvent {
        guard size.isFinite, size.x > 0, size.y > 0, size.z > 0 else { throw SessionError.invalidSize(size) }
        guard let camera, let tester = commandTester() else { throw SessionError.notTracking }
        guard let hit = tester.smartHitTest(pixel: pixel, camera: camera, allowedAlignment: alignment) else {
            throw SessionError.noSurface(pixel: pixel)
        }
        var state = ObjectState(anchor: ObjectAnchor(
            identifier: takeObjectIdentifier(), anchorNumber: takeAnchorNumber(), name: name, size: size,
            transform: hit.worldTransform, planeIdentifier: hit.planeIdentifier, alignment: alignment), smoothing: smoothing)
        state.smoother.add(hit.distance)
        objectStates.append(state)
        placedSinceLastFrame = true
        return event(.objectAdded(state.anchor))
    }

    /// Drags an object to where the ray through `pixel` meets the plane it stands on (kept
    /// on its plane). With smoothing the object goes to camera + unit(direction) × the mean of
    /// the last 10 hit distances, then straight down onto its plane. An object on an estimated
    /// surface (no plane anchor) follows the smart hit test with infinite planes allowed and
    /// takes the plane it lands on. Cancels a snap in progress. Hides the focus indicator until
    /// the end of the next frame.
    @discardableResult
    public mutating func drag(object identifier: PlacedObjectIdentifier, toPixel pixel: SIMD2<Float>) throws -> SessionEvent {
        guard let i = objectStates.firstIndex(where: { $0.anchor.identifier == identifier }) else { throw SessionError.unknownObject(identifier) }
        guard let camera, let tester = commandTester() else { throw SessionError.notTracking }
        guard let ray = HitTester.ray(throughPixel: pixel, camera: camera) else { throw SessionError.noSurface(pixel: pixel) }
        var anchor = objectStates[i].anchor
        let hitPoint: SIMD3<Float>
        var surface: Plane? = nil
        if let planeID = anchor.planeIdentifier, let plane = tracker.anchor(planeID) {
            guard let t = plane.plane.plane.intersection(with: ray) else { throw SessionError.noSurface(pixel: pixel) }
            hitPoint = ray.point(at: t)
            surface = plane.plane.plane
        } else {
            guard let hit = tester.smartHitTest(ray, allowedAlignment: anchor.alignment, infinitePlane: true,
                                                objectPosition: anchor.position) else { throw SessionError.noSurface(pixel: pixel) }
            hitPoint = hit.position
            anchor.planeIdentifier = hit.planeIdentifier
            anchor.transform = Transform(rotation: hit.worldTransform.rotation, translation: anchor.position)
            if let id = hit.planeIdentifier { surface = tracker.anchor(id)?.plane.plane }
        }
        var position = hitPoint
        if objectStates[i].smoothing {
            position = objectStates[i].smoother.smoothedPosition(camera: ray.origin, hit: hitPoint)
            if let surface { position = surface.project(position) }
        } else {
            objectStates[i].smoother.add(distance(ray.origin, hitPoint))
        }
        anchor.transform.translation = position
        anchor.snap = nil
        anchor.anchorNumber = takeAnchorNumber()
        objectStates[i].anchor = anchor
        placedSinceLastFrame = true
        return event(.objectMoved(anchor))
    }

    /// Turns an object by `angle` radians about its plane's normal (its local +Y), keeping its
    /// position.
    @discardableResult
    public mutating func rotate(object identifier: PlacedObjectIdentifier, by angle: Float) throws -> SessionEvent {
        guard angle.isFinite else { throw SessionError.invalidAngle(angle) }
        guard let i = objectStates.firstIndex(where: { $0.anchor.identifier == identifier }) else { throw SessionError.unknownObject(identifier) }
        var anchor = objectStates[i].anchor
        anchor.transform.rotation = anchor.transform.rotation * Quaternion(angle: angle, axis: SIMD3(0, 1, 0)).matrix
        anchor.anchorNumber = takeAnchorNumber()
        objectStates[i].anchor = anchor
        return event(.objectMoved(anchor))
    }

    /// Removes an object.
    @discardableResult
    public mutating func remove(object identifier: PlacedObjectIdentifier) throws -> SessionEvent {
        guard let i = objectStates.firstIndex(where: { $0.anchor.identifier == identifier }) else { throw SessionError.unknownObject(identifier) }
        let removed = objectStates.remove(at: i)
        return event(.objectRemoved(removed.anchor))
    }
}
