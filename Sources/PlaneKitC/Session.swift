import CPlaneKit
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitCameraTracking
import PlaneKitStreamFormat
import PlaneKitPlanes

/// What a `planekit_session` handle holds: the stream's processor, so frames and commands are
/// carried out exactly as `planekit stream` carries them out, and the latest call's events.
final class SessionBox {
    var processor: StreamProcessor
    /// Records handled so far (the stream's record numbers, for messages).
    var recordCount = 0
    /// The latest call's events as NDJSON, NUL-terminated for C.
    private(set) var eventText: ContiguousArray<CChar> = [0]
    private var line = JSONLineWriter()

    init(processor: StreamProcessor) { self.processor = processor }

    /// Carries out `record` and keeps its events as text; `events` (when given) points at it.
    func handle(_ record: StreamRecord, events: UnsafeMutablePointer<UnsafePointer<CChar>?>?) throws {
        eventText = [0]
        events?.pointee = nil
        recordCount += 1
        var produced: [StreamEvent] = []
        try processor.handle(record, number: recordCount, into: &produced)
        var text = ContiguousArray<CChar>()
        for event in produced {
            line.write(event)
            text.append(contentsOf: line.bytes.lazy.map { CChar(bitPattern: $0) })
        }
        text.append(0)
        eventText = text
        events?.pointee = eventText.withUnsafeBufferPointer { $0.baseAddress }
    }
}

/// A new tracking session, carrying records out as `planekit stream` does.
@_cdecl("planekit_session_create")
public func planekitSessionCreate(_ options: UnsafePointer<planekit_session_options>?,
                                  _ out: UnsafeMutablePointer<OpaquePointer?>?) -> planekit_status {
    reportingStatus {
        let out = try required(out, "out")
        out.pointee = nil
        var configuration = Session.Configuration()
        var maxDepth: Float?
        var tracking = CameraTracker.Configuration()
        if let options = options?.pointee {
            if let up = try direction(vector(options.up), "up") { configuration.up = normalize(up) }
            configuration.detector.sensor = try sensorProfile(options.sensor)
            maxDepth = try maximumDepth(options.max_depth)
            guard options.fused_surface == 0 || options.fused_surface == 1 else {
                throw APIFailure.invalid("fused_surface must be 0 or 1, got \(options.fused_surface)")
            }
            tracking.registersAgainstFusedSurface = options.fused_surface == 1
            guard options.no_depth_calibration == 0 || options.no_depth_calibration == 1 else {
                throw APIFailure.invalid("no_depth_calibration must be 0 or 1, got \(options.no_depth_calibration)")
            }
            tracking.calibratesDepth = options.no_depth_calibration == 0
        }
        out.pointee = handle(SessionBox(processor: StreamProcessor(configuration: configuration, defaultMaxDepth: maxDepth,
                                                                   tracking: tracking)))
    }
}

/// Frees a session handle; NULL is ignored.
@_cdecl("planekit_session_free")
public func planekitSessionFree(_ session: OpaquePointer?) { release(session, as: SessionBox.self) }

/// The pose and gravity a frame comes with, checked: a rigid transform, a finite non-zero direction.
private func frameExtras(_ frame: planekit_frame_info) throws(APIFailure) -> (pose: Transform?, gravity: SIMD3<Float>?) {
    guard frame.timestamp.isFinite else { throw .invalid("timestamp must be finite, got \(frame.timestamp)") }
    var pose: Transform?
    if let matrix = frame.pose {
        pose = Transform(columnMajor: Array(UnsafeBufferPointer(start: matrix, count: 16)))
        guard pose != nil, pose!.translation.isFinite else {
            throw .invalid("pose must be a finite rigid transform (16 floats, column-major)")
        }
    }
    var gravity: SIMD3<Float>?
    if let g = frame.gravity {
        gravity = try direction(SIMD3(g[0], g[1], g[2]), "gravity")
        guard gravity != nil else { throw .invalid("gravity must not be zero") }
    }
    return (pose, gravity)
}

/// Feeds one depth frame made by `makeFrame` (given the checked camera, timestamp and pose).
private func update(_ session: OpaquePointer?, width: Int64, height: Int64, intrinsics cameraIntrinsics: UnsafePointer<planekit_intrinsics>?,
                    frame: UnsafePointer<planekit_frame_info>?, events: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                    makeFrame: (Int, PinholeIntrinsics, Double, Transform?) -> StreamFrame) -> planekit_status {
    reportingStatus {
        let box = try object(session, as: SessionBox.self, "session")
        let count = try gridCount(width: width, height: height)
        let camera = try intrinsics(try required(cameraIntrinsics, "intrinsics").pointee, width: Int(width), height: Int(height))
        let info = try required(frame, "frame").pointee
        let (pose, gravity) = try frameExtras(info)
        var streamFrame = makeFrame(count, camera, info.timestamp, pose)
        streamFrame.gravity = gravity
        try box.handle(.frame(streamFrame), events: events)
    }
}

/// Feeds a 16-bit depth frame; its events as NDJSON in `events`.
@_cdecl("planekit_session_update_u16")
public func planekitSessionUpdateU16(_ session: OpaquePointer?, _ depth: UnsafePointer<UInt16>?, _ width: Int64, _ height: Int64,
                                     _ cameraIntrinsics: UnsafePointer<planekit_intrinsics>?, _ depthScale: Float,
                                     _ frame: UnsafePointer<planekit_frame_info>?,
                                     _ events: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> planekit_status {
    guard let depth else { return reportingStatus { throw APIFailure.invalid("depth is NULL") } }
    guard depthScale > 0, depthScale.isFinite else {
        return reportingStatus { throw APIFailure.invalid("depth_scale must be positive and finite, got \(depthScale)") }
    }
    return update(session, width: width, height: height, intrinsics: cameraIntrinsics, frame: frame, events: events) {
        count, camera, timestamp, pose in
        StreamFrame.depth16(samples: UnsafeBufferPointer(start: depth, count: count), intrinsics: camera,
                            depthScale: depthScale, timestamp: timestamp, pose: pose)
    }
}

/// Feeds a float depth frame in metres; its events as NDJSON in `events`.
@_cdecl("planekit_session_update_f32")
public func planekitSessionUpdateF32(_ session: OpaquePointer?, _ depth: UnsafePointer<Float>?, _ width: Int64, _ height: Int64,
                                     _ cameraIntrinsics: UnsafePointer<planekit_intrinsics>?,
                                     _ frame: UnsafePointer<planekit_frame_info>?,
                                     _ events: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> planekit_status {
    guard let depth else { return reportingStatus { throw APIFailure.invalid("depth is NULL") } }
    return update(session, width: width, height: height, intrinsics: cameraIntrinsics, frame: frame, events: events) {
        count, camera, timestamp, pose in
        StreamFrame.depth32f(depths: UnsafeBufferPointer(start: depth, count: count), intrinsics: camera,
                             timestamp: timestamp, pose: pose)
    }
}

/// Carries out one command record of the stream format, given as JSON text.
@_cdecl("planekit_session_command")
public func planekitSessionCommand(_ session: OpaquePointer?, _ recordJSON: UnsafePointer<CChar>?,
                                   _ events: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> planekit_status {
    reportingStatus {
        let box = try object(session, as: SessionBox.self, "session")
        let json = try text(recordJSON, "record_json")
        guard !json.contains("\n") else { throw APIFailure.invalid("record_json must be one line") }
        // The stream's own reader parses the record, so a command means what it means in a stream.
        let reader = StreamRecordReader(source: MemoryByteSource(Array(json.utf8) + [UInt8(ascii: "\n")]))
        guard let record = try reader.read() else { throw APIFailure.invalid("record_json holds no record") }
        if case .frame = record {
            throw APIFailure.invalid("frames have a binary payload: feed them with planekit_session_update_u16 or _f32")
        }
        try box.handle(record, events: events)
    }
}

/// Writes the session's world map (the stream's `saveMap`).
@_cdecl("planekit_session_save_map")
public func planekitSessionSaveMap(_ session: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                   _ events: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> planekit_status {
    reportingStatus {
        let box = try object(session, as: SessionBox.self, "session")
        try box.handle(.saveMap(MapFileRecord(path: try text(path, "path"))), events: events)
    }
}

/// Loads a world map and relocalizes into it (the stream's `loadMap`).
@_cdecl("planekit_session_load_map")
public func planekitSessionLoadMap(_ session: OpaquePointer?, _ path: UnsafePointer<CChar>?,
                                   _ events: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> planekit_status {
    reportingStatus {
        let box = try object(session, as: SessionBox.self, "session")
        try box.handle(.loadMap(MapFileRecord(path: try text(path, "path"))), events: events)
    }
}

/// The hit-test targets a `planekit_hit_target` names.
private func targets(_ code: Int32) throws(APIFailure) -> HitTestTargets {
    switch code {
    case Int32(PLANEKIT_HIT_PLANE_GEOMETRY.rawValue): .existingPlaneGeometry
    case Int32(PLANEKIT_HIT_PLANE_EXTENT.rawValue): .existingPlaneUsingExtent
    case Int32(PLANEKIT_HIT_PLANE_INFINITE.rawValue): .existingPlaneInfinite
    case Int32(PLANEKIT_HIT_ESTIMATED_PLANE.rawValue): .estimatedPlane
    case Int32(PLANEKIT_HIT_FEATURE_POINT.rawValue): .featurePoint
    case Int32(PLANEKIT_HIT_ANY.rawValue): .all
    default: throw .invalid("target \(code) is not a planekit_hit_target (0 … 5)")
    }
}

/// The `planekit_hit_target` code of a hit's target.
private func targetCode(_ target: HitTestTarget) -> Int32 {
    switch target {
    case .existingPlaneGeometry: Int32(PLANEKIT_HIT_PLANE_GEOMETRY.rawValue)
    case .existingPlaneUsingExtent: Int32(PLANEKIT_HIT_PLANE_EXTENT.rawValue)
    case .existingPlaneInfinite: Int32(PLANEKIT_HIT_PLANE_INFINITE.rawValue)
    case .estimatedPlane: Int32(PLANEKIT_HIT_ESTIMATED_PLANE.rawValue)
    case .featurePoint: Int32(PLANEKIT_HIT_FEATURE_POINT.rawValue)
    }
}

/// The plane alignment a `planekit_alignment` names.
private func alignment(_ code: Int32) throws(APIFailure) -> PlaneAlignment {
    switch code {
    case Int32(PLANEKIT_ALIGNMENT_HORIZONTAL.rawValue): .horizontal
    case Int32(PLANEKIT_ALIGNMENT_VERTICAL.rawValue): .vertical
    case Int32(PLANEKIT_ALIGNMENT_ANY.rawValue): .any
    default: throw .invalid("alignment \(code) is not a planekit_alignment (0 … 2)")
    }
}

/// Hit-tests the ray through a pixel of the latest frame; hits as C structs, nearest first.
@_cdecl("planekit_session_raycast")
public func planekitSessionRaycast(_ session: OpaquePointer?, _ x: Float, _ y: Float, _ target: Int32, _ alignmentValue: Int32,
                                   _ hits: UnsafeMutablePointer<planekit_hit>?, _ capacity: Int64,
                                   _ count: UnsafeMutablePointer<Int64>?) -> planekit_status {
    reportingStatus {
        let box = try object(session, as: SessionBox.self, "session")
        let count = try required(count, "count")
        guard x.isFinite, y.isFinite else { throw APIFailure.invalid("the pixel must be finite, got (\(x), \(y))") }
        guard capacity >= 0, capacity == 0 || hits != nil else { throw APIFailure.invalid("hits is NULL or capacity negative") }
        let results = box.processor.session.raycast(pixel: SIMD2(x, y), targets: try targets(target),
                                                    alignment: try alignment(alignmentValue))
        count.pointee = Int64(results.count)
        for (index, result) in results.prefix(Int(capacity)).enumerated() {
            var hit = planekit_hit()
            hit.distance = result.distance
            fill(&hit.position, with: [result.position.x, result.position.y, result.position.z])
            fill(&hit.normal, with: [result.normal.x, result.normal.y, result.normal.z])
            fill(&hit.transform, with: result.worldTransform.columnMajor)
            hit.target = targetCode(result.target)
            hit.alignment = alignmentCode(result.alignment ?? .any)
            let name = result.planeIdentifier?.description ?? ""
            withUnsafeMutableBytes(of: &hit.plane) { bytes in
                // "plane-" and at most 20 digits always fit; the zeroed rest ends the string.
                for (i, byte) in name.utf8.prefix(bytes.count - 1).enumerated() { bytes[i] = byte }
            }
            hits![index] = hit
        }
    }
}
