import PlaneKitGeometry
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitStreamFormat

/// What a viewer joining now needs to draw the session as it is: the latest event line of every
/// live plane anchor and placed object, the focus indicator, the mapping status, the camera's
/// path and the latest decimated depth points.
///
/// A viewer that connects late, or that fell behind and had its queue dropped, gets this as a
/// ``snapshot()`` instead of the events it missed; events that only answer a record (`hit`,
/// `error`) are not kept.
public struct ViewState: Sendable {
    /// The latest frame (−1 before the first).
    public private(set) var frame = -1
    /// Its timestamp (s).
    public private(set) var timestamp: Double = 0
    /// The latest `planeAdded` or `planeUpdated` line of each live anchor, by identifier number.
    public private(set) var planes: [UInt64: String] = [:]
    /// The latest line of each placed object, by identifier number.
    public private(set) var objects: [UInt64: String] = [:]
    /// The latest `focus` line.
    public private(set) var focus: String?
    /// The latest `mapping` line.
    public private(set) var mapping: String?
    /// The latest `camera` line.
    public private(set) var camera: String?
    /// The latest `points` line.
    public private(set) var points: String?
    /// The latest `participant` line of each other peer of a shared space, by peer name, until
    /// that peer's `peerLeft`.
    public private(set) var participants: [String: String] = [:]
    /// The camera's position at every frame so far, thinned to at most ``pathLimit`` positions.
    public private(set) var path: [SIMD3<Float>] = []
    /// The most positions ``path`` keeps: past it every other one is dropped, so a long
    /// session's path keeps its shape at half the resolution.
    public let pathLimit: Int
    /// Every how many frames ``path`` takes a position (doubles each time the path is thinned).
    public private(set) var pathStride = 1

    /// An empty state, before the first frame.
    public init(pathLimit: Int = 8192) {
        self.pathLimit = max(pathLimit, 2)
    }

    /// Takes in an event written as `line`.
    public mutating func apply(_ event: StreamEvent, line: String) {
        if event.frame > frame { (frame, timestamp) = (event.frame, event.timestamp) }
        switch event {
        case .session(let e):
            switch e.kind {
            case .planeAdded(let anchor), .planeUpdated(let anchor):
                planes[anchor.identifier.rawValue] = line
            case .planeRemoved(let anchor):
                planes[anchor.identifier.rawValue] = nil
            case .objectAdded(let object), .objectMoved(let object), .objectSnapped(let object):
                objects[object.identifier.rawValue] = line
            case .objectRemoved(let object):
                objects[object.identifier.rawValue] = nil
            case .mapping:
                mapping = line
            case .focus:
                // The stream folds focus changes into its per-frame `focus` event.
                break
            }
        case .focus:
            focus = line
        case .camera(let e):
            applyCamera(frame: e.frame, timestamp: e.timestamp, position: e.transform.translation, line: line)
        case .peer(let e):
            switch e.kind {
            case .object(let change):
                // Another peer's object change of a shared space is an object change like this peer's own.
                apply(.session(change), line: line)
            case .participant:
                participants[e.peer] = line
            case .left:
                participants[e.peer] = nil
            default:
                // Comings and goings, refusals and statistics: nothing to keep for a snapshot.
                break
            }
        case .hit, .error, .map:
            break
        }
    }

    /// Takes in a frame's `camera` line and the camera's position (kept on the path).
    mutating func applyCamera(frame: Int, timestamp: Double, position: SIMD3<Float>, line: String) {
        if frame > self.frame { (self.frame, self.timestamp) = (frame, timestamp) }
        camera = line
        guard frame % pathStride == 0 else { return }
        path.append(position)
        if path.count > pathLimit {
            // Keep the positions of frames that are multiples of the doubled stride.
            path = path.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            pathStride *= 2
        }
    }

    /// Replaces the path with `positions` (a saved map's keyframes, say), thinned as a long
    /// session's path is to stay within ``pathLimit``.
    public mutating func replacePath(with positions: [SIMD3<Float>]) {
        path = positions
        pathStride = 1
        while path.count > pathLimit {
            path = path.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            pathStride *= 2
        }
    }

    /// Takes in a `points` line.
    public mutating func applyPoints(_ line: String) {
        points = line
    }

    /// The state as messages a viewer applies in order: a `reset` (forget everything drawn),
    /// then the `path`, every plane (by identifier), every object, every other peer's camera
    /// (by name), the mapping status, the focus indicator, the camera and the points.
    public func snapshot() -> [String] {
        var line = JSONLineWriter(capacity: 64 + path.count * 24)
        line.beginObject()
        line.field("event", "reset")
        line.field("frame", frame)
        line.field("timestamp", timestamp)
        line.endObject()
        var messages = [line.text]
        line.reset()
        line.beginObject()
        line.field("event", "path")
        line.field("frame", frame)
        line.key("positions")
        line.beginArray()
        for position in path { line.value(position) }
        line.endArray()
        line.field("timestamp", timestamp)
        line.endObject()
        messages.append(line.text)
        messages += planes.keys.sorted().compactMap { planes[$0] }
        messages += objects.keys.sorted().compactMap { objects[$0] }
        messages += participants.keys.sorted().compactMap { participants[$0] }
        for single in [mapping, focus, camera, points] {
            if let single { messages.append(single) }
        }
        return messages
    }
}
