import PlaneKitGeometry
import PlaneKitStream
import Synchronization
import PlaneKitStreamFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a stream's events meet its viewers: a `StreamObserver` that keeps the session's
/// current ``ViewState`` and a bounded ``ViewerQueue`` for every connected viewer.
///
/// The stream's thread only ever takes a lock for as long as it takes to append a line to each
/// queue and never waits for a viewer: a viewer that reads too slowly has its queue dropped and
/// later catches up with a snapshot. Each frame adds a `camera` message and, at most every
/// ``Options/pointInterval`` and only while someone watches, a `points` message (and one more at
/// the end of the input, so that the final state has the last frame's points).
public final class ViewHub: StreamObserver, Sendable {
    /// How the hub behaves.
    public struct Options: Sendable {
        /// The most bytes waiting for one viewer before it is considered behind.
        public var queueByteLimit: Int
        /// About how many depth points a `points` message holds.
        public var pointTarget: Int
        /// The shortest time between two `points` messages (zero: every frame).
        public var pointInterval: Duration

        /// Options: 8 MiB per viewer, about 12 000 points at most 10 times a second.
        public init(queueByteLimit: Int = 8 << 20, pointTarget: Int = 12_000, pointInterval: Duration = .milliseconds(100)) {
            self.queueByteLimit = queueByteLimit
            self.pointTarget = pointTarget
            self.pointInterval = pointInterval
        }
    }

    /// Counts of what the hub did, for tests and diagnostics.
    public struct Statistics: Sendable, Equatable {
        /// Viewers connected now.
        public var viewers = 0
        /// Viewers that ever connected.
        public var connections = 0
        /// Event lines taken from the stream.
        public var events = 0
        /// Frames seen.
        public var frames = 0
        /// `points` messages built.
        public var pointMessages = 0
        /// Snapshots handed out (one per new viewer, one per viewer that fell behind).
        public var snapshots = 0
        /// Times a viewer fell behind and had its queue dropped.
        public var overflows = 0
        /// Lines dropped for viewers that fell behind (or points replaced before being sent).
        public var droppedLines = 0
        /// Whether the input has ended.
        public var ended = false
        /// CPU time the stream's thread spent in the hub (keeping the state, queueing lines,
        /// building `camera` and `points` messages): what the view costs the stream. Thread CPU
        /// time, so time the thread was not running (another process had the core, or it waited
        /// for a viewer's brief hold on the queues) is not counted.
        public var streamThreadTime: Duration = .zero
    }

    /// A connected viewer: its number and the signal that something is waiting for it.
    public struct Subscription: Sendable {
        /// The viewer's number, for ``take(_:)`` and ``disconnect(_:)``.
        public let id: Int
        /// Yields whenever lines are waiting (several wake-ups fold into one) and finishes when
        /// the viewer is disconnected.
        public let wakeUps: AsyncStream<Void>
    }

    struct Viewer {
        let id: Int
        var queue: ViewerQueue
        let wake: AsyncStream<Void>.Continuation
    }

    /// Internal rather than private for ``show(_:)``, in its own file.
    struct Shared {
        var state = ViewState()
        /// In an array, so the stream's thread updates every queue in place (iterating a
        /// dictionary's keys while changing its values would copy it).
        var viewers: [Viewer] = []
        var nextID = 0
        var lastPoints: ContinuousClock.Instant?
        var statistics = Statistics()
        /// Drops and overflows of viewers already gone.
        var departedDrops = 0
        var departedOverflows = 0
        var endLine: String?
    }

    /// The options.
    public let options: Options
    let shared = Mutex(Shared())

    /// A hub with no viewers and an empty state.
    public init(options: Options = Options()) {
        self.options = options
    }

    // MARK: Viewers

    /// Registers a viewer; its first delivery is a snapshot.
    public func connect() -> Subscription {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = shared.withLock { s in
            let id = s.nextID
            s.nextID += 1
            s.viewers.append(Viewer(id: id, queue: ViewerQueue(byteLimit: options.queueByteLimit), wake: continuation))
            s.statistics.connections += 1
            return id
        }
        continuation.yield()
        return Subscription(id: id, wakeUps: stream)
    }

    /// Forgets a viewer and ends its wake-ups.
    public func disconnect(_ id: Int) {
        let viewer = shared.withLock { s -> Viewer? in
            guard let index = s.viewers.firstIndex(where: { $0.id == id }) else { return nil }
            let viewer = s.viewers.remove(at: index)
            s.departedDrops += viewer.queue.droppedCount
            s.departedOverflows += viewer.queue.overflowCount
            return viewer
        }
        viewer?.wake.finish()
    }

    /// Everything waiting for viewer `id`, as messages to send in order (each one or more
    /// NDJSON lines); empty when nothing is waiting, `nil` when the viewer is not connected.
    public func take(_ id: Int) -> [String]? {
        let taken = shared.withLock { s -> (ViewerQueue.Delivery, ViewState?, String?)? in
            guard let index = s.viewers.firstIndex(where: { $0.id == id }) else { return nil }
            let delivery = s.viewers[index].queue.take()
            guard delivery == .snapshot else { return (delivery, nil, nil) }
            s.statistics.snapshots += 1
            return (delivery, s.state, s.endLine)
        }
        guard let (delivery, state, endLine) = taken else { return nil }
        switch delivery {
        case .nothing: return []
        case .lines(let lines): return lines
        case .snapshot:
            // Rendered here, outside the lock: the stream goes on meanwhile.
            var messages = state?.snapshot() ?? []
            if let endLine { messages.append(endLine) }
            return messages
        }
    }

    /// The current state as a snapshot (the messages a new viewer gets first).
    public func snapshot() -> [String] {
        let (state, endLine) = shared.withLock { ($0.state, $0.endLine) }
        return state.snapshot() + (endLine.map { [$0] } ?? [])
    }

    /// Whether every viewer has taken everything queued for it (its last message may still be
    /// on its way).
    public var isDrained: Bool {
        shared.withLock { s in
            s.viewers.allSatisfy { !$0.queue.needsSnapshot && $0.queue.lines.isEmpty && $0.queue.points == nil }
        }
    }

    /// Counts so far.
    public var statistics: Statistics {
        shared.withLock { s in
            var statistics = s.statistics
            statistics.viewers = s.viewers.count
            statistics.droppedLines = s.departedDrops + s.viewers.reduce(0) { $0 + $1.queue.droppedCount }
            statistics.overflows = s.departedOverflows + s.viewers.reduce(0) { $0 + $1.queue.overflowCount }
            return statistics
        }
    }

    // MARK: StreamObserver

    /// Keeps the line in the state and queues it for every viewer.
    public func streamRunner(didWrite event: StreamEvent, line: UnsafeRawBufferPointer) {
        let start = ViewHub.threadCPUTime()
        defer { account(since: start) }
        let text = String(decoding: line, as: UTF8.self)
        let wake: Bool
        if case .error = event { wake = true } else { wake = false }
        shared.withLock { s in
            s.statistics.events += 1
            s.state.apply(event, line: text)
            for i in s.viewers.indices {
                s.viewers[i].queue.push(text)
                if wake { s.viewers[i].wake.yield() }
            }
        }
    }

    /// After a frame adds its `points` message when due (its `camera` event came with the
    /// stream's events); then wakes the viewers.
    public func streamRunner(didCarryOut record: StreamRecord, processor: StreamProcessor) {
        let start = ViewHub.threadCPUTime()
        defer { account(since: start) }
        guard case .frame = record else {
            shared.withLock { s in
                for viewer in s.viewers { viewer.wake.yield() }
            }
            return
        }
        let now = ContinuousClock.now
        let pointsDue = shared.withLock { s -> Bool in
            s.statistics.frames += 1
            guard !s.viewers.isEmpty else { return false }
            if let last = s.lastPoints, now - last < options.pointInterval { return false }
            s.lastPoints = now
            return true
        }
        // Built outside the lock: viewers taking their lines need not wait for it.
        let pointsLine = pointsDue ? pointsMessage(processor) : nil
        shared.withLock { s in
            if let pointsLine {
                s.statistics.pointMessages += 1
                s.state.applyPoints(pointsLine)
                for i in s.viewers.indices { s.viewers[i].queue.pushPoints(pointsLine) }
            }
            for viewer in s.viewers { viewer.wake.yield() }
        }
    }

    /// Adds the last frame's points and an `end` message, and wakes the viewers.
    public func streamRunner(didEnd processor: StreamProcessor) {
        let start = ViewHub.threadCPUTime()
        defer { account(since: start) }
        let pointsLine = pointsMessage(processor)
        var line = JSONLineWriter(capacity: 96)
        line.beginObject()
        line.field("event", "end")
        line.field("frame", processor.session.frameIndex)
        line.field("timestamp", processor.session.timestamp)
        line.endObject()
        let endLine = line.text
        shared.withLock { s in
            if let pointsLine {
                s.statistics.pointMessages += 1
                s.state.applyPoints(pointsLine)
            }
            s.statistics.ended = true
            s.endLine = endLine
            for i in s.viewers.indices {
                if let pointsLine { s.viewers[i].queue.pushPoints(pointsLine) }
                s.viewers[i].queue.push(endLine)
                s.viewers[i].wake.yield()
            }
        }
    }

    private func account(since start: Duration) {
        let elapsed = ViewHub.threadCPUTime() - start
        shared.withLock { $0.statistics.streamThreadTime += elapsed }
    }

    /// The CPU time the calling thread has used so far.
    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }

    private func pointsMessage(_ processor: StreamProcessor) -> String? {
        guard let cloud = processor.latestCloud, let camera = processor.session.camera else { return nil }
        let target = max(options.pointTarget, 1)
        let step = cloud.isOrganized
            ? FrameMessages.step(width: cloud.width, height: cloud.height, target: target)
            : max(1, (cloud.count + target - 1) / target)
        return FrameMessages.points(cloud: cloud, pose: camera.pose, step: step, frame: processor.session.frameIndex,
                                    timestamp: processor.session.timestamp)
    }
}
