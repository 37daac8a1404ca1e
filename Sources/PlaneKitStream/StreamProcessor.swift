import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitAnchors
import PlaneKitCameraTracking
import PlaneKitMaps
import PlaneKitStreamFormat
import PlaneKitPlanes

/// Carries out stream records on a tracking `Session`: frames are decoded and tracked,
/// commands placed, moved, turned, removed or cast, and the results come out as
/// ``StreamEvent``s in the order the session reports them.
///
/// A frame gives the session's events and then one ``FocusEvent`` (the indicator's state
/// change, if any, goes into that event rather than a line of its own); a command gives one
/// event. A record the session refuses throws a `StreamError` naming the record and leaves
/// the session as it was.
public struct StreamProcessor: Sendable {
    /// The tracking session records are carried out on.
    public internal(set) var session: Session
    /// The latest frame's organized cloud (camera coordinates), kept until the next frame
    /// arrives, for pictures.
    public private(set) var latestCloud: PointCloud?
    /// The maximum range in metres for frames whose record gives no `maxDepth`, or `nil` for none.
    public let defaultMaxDepth: Float?
    /// Estimates the pose of frames that come without one.
    public private(set) var cameraTracker = CameraTracker()
    /// World maps: keyframe sampling for saving, relocalization into a loaded map.
    public internal(set) var mapTracking = MapTracking()
    private var decoder = FrameDecoder()

    /// A processor with a fresh session; `defaultMaxDepth` (positive and finite, or `nil`) is the
    /// maximum range of frames without their own `maxDepth`; `tracking` sets how frames without
    /// a pose are tracked.
    public init(configuration: Session.Configuration = Session.Configuration(), defaultMaxDepth: Float? = nil,
                tracking: CameraTracker.Configuration = CameraTracker.Configuration()) {
        session = Session(configuration: configuration)
        self.defaultMaxDepth = defaultMaxDepth
        cameraTracker = CameraTracker(configuration: tracking)
    }

    /// The capacity of the reused point storage, in points (flat over a stream of same-sized frames).
    public var pointStorageCapacity: Int { decoder.storageCapacity }

    /// Carries out `record` (the `number`-th of the stream) and appends its events to `events`.
    /// On an error nothing is appended and the session is unchanged.
    public mutating func handle(_ record: StreamRecord, number: Int, into events: inout [StreamEvent]) throws(StreamError) {
        let mark = events.count
        do {
            try carryOut(record, into: &events)
        } catch {
            events.removeSubrange(mark...)
            throw StreamError(recordNumber: number, message: "\(error)")
        }
    }

    /// The error event for `error`, stamped with the latest frame.
    public func errorEvent(for error: StreamError) -> StreamEvent {
        .error(StreamErrorEvent(frame: session.frameIndex, timestamp: session.timestamp, record: error.recordNumber,
                                message: error.description))
    }

    private mutating func carryOut(_ record: StreamRecord, into events: inout [StreamEvent]) throws {
        switch record {
        case .frame(let frame):
            // Let go of the last cloud first, so the decoder refills its storage in place.
            latestCloud = nil
            var cloud = decoder.pointCloud(from: frame, defaultMaxDepth: defaultMaxDepth)
            // An xyz32f frame may come without a camera model (a PCD has none): fit one to its points.
            guard let intrinsics = cloud.intrinsics ?? frame.intrinsics ?? cloud.estimatedIntrinsics() else {
                throw ProcessingProblem("an xyz32f frame with no intrinsics and too few valid points to fit them; give \"intrinsics\"")
            }
            // A frame the session will refuse (its rules, checked first) must not move the tracker:
            // let the session say what is wrong with it.
            let timely = frame.timestamp.isFinite && (session.frameIndex < 0 || frame.timestamp >= session.timestamp)
            guard timely, cloud.isOrganized, cloud.width == intrinsics.width, cloud.height == intrinsics.height else {
                _ = try session.update(frame: cloud, intrinsics: intrinsics, pose: frame.pose, timestamp: frame.timestamp)
                throw ProcessingProblem("frame refused")
            }
            // The frame's pose: its own, or tracked from its depth.
            let camera = frame.isPoseGiven
                ? cameraTracker.follow(givenPose: frame.pose, timestamp: frame.timestamp)
                : cameraTracker.track(frame: cloud, intrinsics: intrinsics, gravity: frame.gravity,
                                      acceleration: frame.acceleration, timestamp: frame.timestamp)
            // Planes from the depth as the tracker corrected it, so that they agree with the track.
            if !frame.isPoseGiven, let corrected = cameraTracker.correctedFrame { cloud = corrected }
            // In the map's world once relocalized (the identity until then).
            let detection = try session.detectPlanes(in: cloud, intrinsics: intrinsics, pose: mapTracking.worldPose(camera.transform),
                                                     timestamp: frame.timestamp)
            // A new keyframe takes the frame's planes and is put back level on the floor among
            // them, which moves the camera with it: the frame is placed, and reported, where the
            // next frames are tracked from (else its pose alone would differ from its
            // neighbours' by up to the floor's correction, degrees where gravity and floor disagree).
            cameraTracker.refineKeyframe(with: detection)
            let worldPose = mapTracking.worldPose(cameraTracker.estimate.transform)
            let sessionEvents = try session.update(frame: cloud, intrinsics: intrinsics, pose: worldPose, timestamp: frame.timestamp,
                                                   detection: detection)
            events.append(.camera(CameraEvent(frame: session.frameIndex, timestamp: session.timestamp, transform: worldPose,
                                              tracking: camera.tracking)))
            var focusChange: FocusState?
            for event in sessionEvents {
                // The indicator gets one event per frame below, saying whether its state changed.
                if case .focus(let from, _) = event.kind {
                    focusChange = from
                } else {
                    events.append(.session(event))
                }
            }
            // A relocalization in this frame: its event, then the session's move into the map's world.
            events += relocalize(after: cloud)
            events.append(.focus(FocusEvent(session: session, changedFrom: focusChange)))
            latestCloud = cloud
        case .tap(let tap):
            events.append(.session(try session.place(name: tap.name, size: tap.size, atPixel: tap.pixel)))
        case .drag(let drag):
            events.append(.session(try session.drag(object: try objectIdentifier(drag.object), toPixel: drag.pixel)))
        case .rotate(let rotate):
            events.append(.session(try session.rotate(object: try objectIdentifier(rotate.object), by: rotate.angle)))
        case .remove(let remove):
            events.append(.session(try session.remove(object: try objectIdentifier(remove.object))))
        case .raycast(let query):
            let targets = StreamProcessor.targets(query.target)
            let alignment = PlaneAlignment(rawValue: query.alignment.rawValue) ?? .any
            let hits: [HitTestResult]
            switch query.source {
            case .pixel(let pixel):
                hits = session.raycast(pixel: pixel, targets: targets, alignment: alignment)
            case .ray(let origin, let direction):
                guard let ray = Ray(origin: origin, direction: direction) else {
                    throw ProcessingProblem("a raycast direction must be non-zero and finite")
                }
                hits = session.raycast(ray, targets: targets, alignment: alignment)
            }
            events.append(.hit(HitEvent(frame: session.frameIndex, timestamp: session.timestamp, hits: hits)))
        case .saveMap(let record):
            events.append(try saveMap(to: record.path))
        case .loadMap(let record):
            events.append(try loadMap(from: record.path))
        case .attitude:
            // A phone's orientation steers a shared space's pointer; a single session has none.
            throw ProcessingProblem("attitude records are for `planekit pointer`; `stream` skips them")
        }
    }

    /// `object-N` (or plain `N`) as an identifier.
    private func objectIdentifier(_ text: String) throws -> PlacedObjectIdentifier {
        guard let identifier = PlacedObjectIdentifier(parsing: text) else {
            throw ProcessingProblem("'\(text)' is not an object identifier (object-N, as objectAdded reported it)")
        }
        return identifier
    }

    /// The hit-test targets a raycast record's `target` names.
    static func targets(_ target: RaycastTarget) -> HitTestTargets {
        switch target {
        case .existingPlaneGeometry: .existingPlaneGeometry
        case .existingPlaneUsingExtent: .existingPlaneUsingExtent
        case .existingPlaneInfinite: .existingPlaneInfinite
        case .estimatedPlane: .estimatedPlane
        case .featurePoint: .featurePoint
        case .any: .all
        }
    }
}

/// A record the processor itself refuses, in words.
struct ProcessingProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
