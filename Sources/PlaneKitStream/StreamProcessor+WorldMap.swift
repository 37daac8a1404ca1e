import PlaneKitGeometry
import PlaneKitInput
import PlaneKitMaps
import PlaneKitStreamFormat

/// A world-map event: `mapSaved`, `mapLoaded` or `relocalized`.
public struct MapEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The session's map was written to `path`: its size and contents.
        case saved(path: String, bytes: Int, anchors: Int, objects: Int, points: Int)
        /// A map was read from `path`; the session now relocalizes into it.
        case loaded(path: String, anchors: Int, objects: Int, points: Int)
        /// The session relocalized into the loaded map: from this event on, everything is in
        /// the map's world.
        case relocalized(Relocalization)
    }

    /// The latest frame (−1 before the first).
    public var frame: Int
    /// Its timestamp (s).
    public var timestamp: Double
    /// What happened.
    public var kind: Kind

    /// The event's `event` field.
    public var name: String {
        switch kind {
        case .saved: "mapSaved"
        case .loaded: "mapLoaded"
        case .relocalized: "relocalized"
        }
    }
}

extension StreamProcessor {
    /// Starts relocalizing into `map` (read from `path`, for the event).
    public mutating func load(_ map: WorldMap, path: String) -> StreamEvent {
        mapTracking.load(map, into: &session)
        return .map(MapEvent(frame: session.frameIndex, timestamp: session.timestamp,
                             kind: .loaded(path: path, anchors: map.anchors.count, objects: map.objects.count, points: map.points.count)))
    }

    /// The session's world map now.
    public var worldMap: WorldMap { mapTracking.map(of: session) }

    /// Writes the session's map to `path`.
    public func saveMap(to path: String) throws -> StreamEvent {
        let map = worldMap
        let bytes = try WorldMapCoding.write(map, to: path)
        return .map(MapEvent(frame: session.frameIndex, timestamp: session.timestamp,
                             kind: .saved(path: path, bytes: bytes, anchors: map.anchors.count, objects: map.objects.count,
                                          points: map.points.count)))
    }

    /// Reads the map at `path` and starts relocalizing into it.
    mutating func loadMap(from path: String) throws -> StreamEvent {
        load(try WorldMapCoding.read(path), path: path)
    }

    /// After a frame: samples it for the map and, while relocalizing, registers it against the
    /// loaded map; on success the `relocalized` event and the session's move into the map.
    mutating func relocalize(after cloud: PointCloud) -> [StreamEvent] {
        guard let (found, moved) = mapTracking.frameTracked(session: &session, cloud: cloud) else { return [] }
        return [.map(MapEvent(frame: session.frameIndex, timestamp: session.timestamp, kind: .relocalized(found)))]
            + moved.map(StreamEvent.session)
    }
}

extension JSONLineWriter {
    /// A world-map event, keys sorted.
    mutating func write(_ e: MapEvent) {
        beginObject()
        switch e.kind {
        case .saved(let path, let bytes, let anchors, let objects, let points):
            field("anchors", anchors)
            field("bytes", bytes)
            field("event", e.name)
            field("frame", e.frame)
            field("objects", objects)
            field("path", path)
            field("points", points)
        case .loaded(let path, let anchors, let objects, let points):
            field("anchors", anchors)
            field("event", e.name)
            field("frame", e.frame)
            field("objects", objects)
            field("path", path)
            field("points", points)
        case .relocalized(let found):
            field("event", e.name)
            field("frame", e.frame)
            field("inlierFraction", found.inlierFraction)
            field("matchedPlanes", found.matches.count)
            field("residual", found.residual)
        }
        field("timestamp", e.timestamp)
        if case .relocalized(let found) = e.kind { field("transform", found.mapFromSession) }
        endObject()
    }
}
