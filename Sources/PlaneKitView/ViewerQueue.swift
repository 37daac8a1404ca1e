/// What is waiting for one viewer: a bounded queue of event lines and the latest points.
///
/// The stream never waits for a viewer. A viewer that reads slower than the stream writes lets
/// its queue of lines grow to ``byteLimit``; the next line that would pass it drops everything
/// queued and marks the viewer for a snapshot, so it skips the intermediate states and catches up
/// with the session as it is then (``ViewState/snapshot()``). Points are the heaviest messages and
/// only the latest one matters, so they are kept aside, one at most: a newer one replaces one not
/// yet sent (a viewer holds at most ``byteLimit`` bytes of lines and one points message).
public struct ViewerQueue: Sendable {
    /// What a viewer gets next.
    public enum Delivery: Sendable, Equatable {
        /// Nothing is waiting.
        case nothing
        /// The viewer must start over from the current state.
        case snapshot
        /// These lines, in order (the latest points last, if any).
        case lines([String])
    }

    /// The most bytes of event lines kept waiting (the points message aside).
    public let byteLimit: Int
    /// Lines waiting, in order.
    public private(set) var lines: [String] = []
    /// Their size in bytes (the points message not counted).
    public private(set) var byteCount = 0
    /// The latest points line not yet sent.
    public private(set) var points: String?
    /// `true` when the viewer must be sent a snapshot before anything else (it is new, or fell
    /// behind); lines are not queued meanwhile, since the snapshot includes them.
    public private(set) var needsSnapshot = true
    /// How many lines were dropped because the viewer fell behind (points replaced by newer
    /// ones included).
    public private(set) var droppedCount = 0
    /// How many times the viewer fell behind and had its queue dropped.
    public private(set) var overflowCount = 0

    /// An empty queue of at most `byteLimit` bytes, starting with a snapshot.
    public init(byteLimit: Int) {
        self.byteLimit = max(byteLimit, 1)
    }

    /// Queues an event line, or drops the queue and asks for a snapshot when it would pass
    /// the limit.
    public mutating func push(_ line: String) {
        guard !needsSnapshot else { return }
        let size = line.utf8.count
        guard byteCount + size <= byteLimit else {
            overflow(dropping: 1)
            return
        }
        lines.append(line)
        byteCount += size
    }

    /// Keeps `line` as the points to send, replacing any not yet sent.
    public mutating func pushPoints(_ line: String) {
        guard !needsSnapshot else { return }
        if points != nil { droppedCount += 1 }
        points = line
    }

    /// Everything waiting, emptying the queue.
    public mutating func take() -> Delivery {
        if needsSnapshot {
            needsSnapshot = false
            return .snapshot
        }
        guard !lines.isEmpty || points != nil else { return .nothing }
        var out = lines
        if let points { out.append(points) }
        lines.removeAll(keepingCapacity: true)
        points = nil
        byteCount = 0
        return .lines(out)
    }

    /// Drops what is queued and makes the next delivery a snapshot: for a change of state that
    /// lines cannot carry (a saved map's path), not a viewer falling behind.
    public mutating func requestSnapshot() {
        lines.removeAll()
        points = nil
        byteCount = 0
        needsSnapshot = true
    }

    private mutating func overflow(dropping extra: Int) {
        droppedCount += lines.count + (points == nil ? 0 : 1) + extra
        overflowCount += 1
        lines.removeAll()
        points = nil
        byteCount = 0
        needsSnapshot = true
    }
}
