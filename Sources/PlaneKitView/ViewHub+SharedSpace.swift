import PlaneKitGeometry
import PlaneKitStream
import PlaneKitMaps
import PlaneKitStreamFormat

extension ViewHub {
    /// Shows the world map of a shared space the view joined as an observer (`planekit view
    /// --join`): its planes, objects and keyframe path as ``show(_:)`` shows a saved map, but
    /// without `end`, as the space goes on: ``observe(_:)`` brings what happens in it.
    public func showSpace(_ map: WorldMap) {
        restore(map, endLine: nil)
    }

    /// Passes a shared space's events on to every viewer, as a stream's are (`peerJoined`,
    /// `peerLeft`, `participant`, object changes with `peer`, …), and wakes them once.
    public func observe(_ events: [StreamEvent]) {
        guard !events.isEmpty else { return }
        var line = JSONLineWriter(capacity: 1024)
        for event in events {
            line.write(event)
            line.bytes.withUnsafeBytes { streamRunner(didWrite: event, line: $0) }
        }
        shared.withLock { s in
            for viewer in s.viewers { viewer.wake.yield() }
        }
    }
}
