import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitAnchors
import PlaneKitStreamFormat
import PlaneKitPlanes

/// Events as NDJSON lines, written field by field into a ``JSONLineWriter``: the same objects,
/// keys in sorted order, that `JSONEncoder` with `.sortedKeys` makes of the `Encodable`
/// conformances of the session's types, without its per-value boxing and allocation (the
/// encoder cost more per frame than reading and decoding the frame). Numbers that are not
/// finite are written `null`, so every line is valid JSON.
extension JSONLineWriter {
    /// Clears the line and writes `event` as one JSON object ending in `\n`.
    public mutating func write(_ event: StreamEvent) {
        reset()
        switch event {
        case .camera(let e): write(e)
        case .session(let e): write(e)
        case .focus(let e): write(e)
        case .hit(let e): write(e)
        case .error(let e): write(e)
        case .map(let e): write(e)
        case .peer(let e): write(e)
        }
    }

    /// `peer` names who changed the object, for changes another peer of a shared space made.
    private mutating func write(_ e: SessionEvent, peer: String? = nil) {
        beginObject()
        field("event", e.name)
        field("frame", e.frame)
        switch e.kind {
        case .focus(let from, let to):
            field("from", from.rawValue)
            fields(mergedInto: e.mergedInto, timestamp: e.timestamp)
            field("to", to.rawValue)
        case .mapping(let from, let to):
            field("from", from.rawValue)
            fields(mergedInto: e.mergedInto, timestamp: e.timestamp)
            field("to", to.rawValue)
        case .planeAdded(let plane), .planeUpdated(let plane), .planeRemoved(let plane):
            if let merged = e.mergedInto { field("mergedInto", merged.description) }
            key("plane")
            write(plane)
            field("timestamp", e.timestamp)
        case .objectAdded(let object), .objectMoved(let object), .objectSnapped(let object), .objectRemoved(let object):
            if let merged = e.mergedInto { field("mergedInto", merged.description) }
            key("object")
            write(object)
            if let peer { field("peer", peer) }
            field("timestamp", e.timestamp)
        }
        endObject()
    }

    private mutating func write(_ e: PeerEvent) {
        switch e.kind {
        case .object(let change):
            write(change, peer: e.peer)
            return
        case .pointer(let origin, let direction, let hits):
            beginObject()
            field("direction", direction)
            field("event", e.name)
            field("frame", e.frame)
            write(hits: hits)
            field("origin", origin)
            field("peer", e.peer)
            field("timestamp", e.timestamp)
            endObject()
            return
        case .anchor(_, let anchor):
            beginObject()
            field("event", e.name)
            field("frame", e.frame)
            field("peer", e.peer)
            key("plane")
            writeAnchor(anchor.identifier, firstFrame: anchor.firstFrame, lastSeenFrame: anchor.lastSeenFrame,
                        observationCount: anchor.observationCount, plane: anchor.plane)
            field("timestamp", e.timestamp)
            endObject()
            return
        default:
            break
        }
        beginObject()
        switch e.kind {
        case .statistics(let c):
            field("changesSuperseded", c.changesSuperseded)
            field("datagramsAccepted", c.datagramsAccepted)
            field("datagramsStale", c.datagramsStale)
            field("datagramsTampered", c.datagramsTampered)
        default: break
        }
        field("event", e.name)
        field("frame", e.frame)
        field("peer", e.peer)
        switch e.kind {
        case .left(let reason), .refused(let reason): field("reason", reason)
        case .statistics(let c): field("peersRefused", c.peersRefused)
        default: break
        }
        field("timestamp", e.timestamp)
        if case .participant(let transform) = e.kind { field("transform", transform) }
        endObject()
    }

    private mutating func fields(mergedInto: PlaneIdentifier?, timestamp: Double) {
        if let mergedInto { field("mergedInto", mergedInto.description) }
        field("timestamp", timestamp)
    }

    private mutating func write(_ e: CameraEvent) {
        beginObject()
        field("event", "camera")
        field("frame", e.frame)
        if let reason = e.tracking.reason { field("reason", reason.rawValue) }
        field("timestamp", e.timestamp)
        field("tracking", e.tracking.name)
        field("transform", e.transform)
        endObject()
    }

    private mutating func write(_ e: FocusEvent) {
        beginObject()
        if let from = e.changedFrom { field("changedFrom", from.rawValue) }
        field("event", "focus")
        field("frame", e.frame)
        if let plane = e.plane { field("plane", plane.description) }
        field("state", e.state.rawValue)
        field("timestamp", e.timestamp)
        if let transform = e.transform { field("transform", transform) }
        endObject()
    }

    private mutating func write(_ e: HitEvent) {
        beginObject()
        field("event", "hit")
        field("frame", e.frame)
        write(hits: e.hits)
        field("timestamp", e.timestamp)
        endObject()
    }

    /// A `hits` array, as `hit` and `pointer` events have it.
    private mutating func write(hits: [HitTestResult]) {
        key("hits")
        beginArray()
        for hit in hits {
            beginObject()
            if let alignment = hit.alignment { field("alignment", alignment.rawValue) }
            field("distance", hit.distance)
            if let plane = hit.planeIdentifier { field("planeIdentifier", plane.description) }
            field("target", hit.target.rawValue)
            field("worldTransform", hit.worldTransform)
            endObject()
        }
        endArray()
    }

    private mutating func write(_ e: StreamErrorEvent) {
        beginObject()
        field("event", "error")
        field("frame", e.frame)
        field("message", e.message)
        field("record", e.record)
        field("timestamp", e.timestamp)
        endObject()
    }

    /// A plane anchor: identifier, sighting counts and its world description.
    private mutating func write(_ anchor: PlaneAnchor) {
        writeAnchor(anchor.identifier, firstFrame: anchor.firstFrame, lastSeenFrame: anchor.lastSeenFrame,
                    observationCount: anchor.observationCount, plane: anchor.plane)
    }

    /// A plane anchor's object, the session's or one another peer shared.
    private mutating func writeAnchor(_ identifier: PlaneIdentifier, firstFrame: Int, lastSeenFrame: Int, observationCount: Int,
                                      plane: DetectedPlane) {
        beginObject()
        field("firstFrame", firstFrame)
        field("identifier", identifier.description)
        field("lastSeenFrame", lastSeenFrame)
        field("observationCount", observationCount)
        key("plane")
        write(plane)
        endObject()
    }

    /// A plane description, with the keys of `DetectedPlane`'s synthesised encoding.
    private mutating func write(_ plane: DetectedPlane) {
        beginObject()
        field("alignment", plane.alignment.rawValue)
        field("area", plane.area)
        key("boundary")
        beginObject()
        key("vertices")
        beginArray()
        for vertex in plane.boundary.vertices { value(vertex) }
        endArray()
        endObject()
        field("centroid", plane.centroid)
        field("classification", plane.classification.rawValue)
        key("extent")
        beginObject()
        field("center", plane.extent.center)
        field("length", plane.extent.length)
        field("width", plane.extent.width)
        endObject()
        field("label", plane.label)
        key("plane")
        beginObject()
        field("normal", plane.plane.normal)
        field("offset", plane.plane.offset)
        endObject()
        field("pointCount", plane.pointCount)
        field("rmsError", plane.rmsError)
        field("transform", plane.transform)
        endObject()
    }

    /// An object anchor, with the keys of its synthesised encoding (absent optionals left out).
    private mutating func write(_ object: ObjectAnchor) {
        beginObject()
        field("alignment", object.alignment.rawValue)
        field("anchorNumber", object.anchorNumber)
        field("identifier", object.identifier.description)
        field("name", object.name)
        if let plane = object.planeIdentifier { field("planeIdentifier", plane.description) }
        field("size", object.size)
        if let snap = object.snap {
            key("snap")
            beginObject()
            field("duration", snap.duration)
            field("plane", snap.plane.description)
            field("start", snap.start)
            field("startTime", snap.startTime)
            field("target", snap.target)
            endObject()
        }
        field("transform", object.transform)
        endObject()
    }

    /// Writes `"key": {"columnMajor": [16 numbers]}`.
    public mutating func field(_ name: String, _ transform: Transform) {
        key(name)
        beginObject()
        key("columnMajor")
        let m = transform.rotation.columns, t = transform.translation
        beginArray()
        value(m.0.x); value(m.0.y); value(m.0.z); value(Float(0))
        value(m.1.x); value(m.1.y); value(m.1.z); value(Float(0))
        value(m.2.x); value(m.2.y); value(m.2.z); value(Float(0))
        value(t.x); value(t.y); value(t.z); value(Float(1))
        endArray()
        endObject()
    }
}
