import PlaneKitGeometry
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitMaps
import PlaneKitStreamFormat

extension ViewHub {
    /// Shows a saved world map without a stream (`planekit view --map FILE`): the map's planes
    /// and objects as the `planeAdded` and `objectAdded` events a session restoring the map
    /// writes (so the page draws them as it draws a live session's),
    /// the keyframe cameras' positions as the path, and `end`.
    ///
    /// Call it before the stream (there is none) and before or after viewers connect: they get
    /// it as their snapshot or as lines.
    public func show(_ map: WorldMap) {
        var end = JSONLineWriter(capacity: 64)
        end.beginObject()
        end.field("event", "end")
        end.field("frame", 0)
        end.field("timestamp", 0.0)
        end.endObject()
        restore(map, endLine: end.text)
    }

    /// Takes in `map` as a session restoring it would write it, its keyframes as the path, and
    /// `endLine` (when the view ends with the map); every viewer takes a fresh snapshot.
    func restore(_ map: WorldMap, endLine: String?) {
        // A fresh session restoring the map writes exactly its anchors and objects, identifiers kept.
        var session = Session()
        let restored = session.relocalize(into: map, mapFromSession: .identity, matches: [:])
        var line = JSONLineWriter(capacity: 4096)
        for event in restored.map(StreamEvent.session) {
            line.write(event)
            line.bytes.withUnsafeBytes { streamRunner(didWrite: event, line: $0) }
        }
        shared.withLock { s in
            s.state.replacePath(with: map.keyframes.map(\.translation))
            if let endLine {
                s.statistics.ended = true
                s.endLine = endLine
            }
            for i in s.viewers.indices {
                // The path is only in snapshots: a viewer already connected takes a fresh one.
                s.viewers[i].queue.requestSnapshot()
                s.viewers[i].wake.yield()
            }
        }
    }
}
