import PlaneKitInput
import PlaneKitDetection
import PlaneKitAnchors
import PlaneKitCameraTracking
import PlaneKitMaps
import PlaneKitPictures
import PlaneKitStreamFormat

/// `planekit stream` as a library: reads records from a `ByteSource`, carries them out with a
/// ``StreamProcessor`` and writes one NDJSON event per line to a `ByteSink`, in input order.
///
/// A bad record (the reader's or the session's refusal) gives one `error` event and one line
/// to `warn`, and the stream goes on; with ``Options/strict`` the run stops there. Memory is
/// flat over an endless stream of same-sized frames: the reader's payload buffer, the decoder's
/// points, the event list and the output line are all reused.
public struct StreamRunner<Source: ByteSource, Sink: ByteSink> {
    /// How a run behaves.
    public struct Options: Sendable {
        /// Stop at the first bad record instead of reporting it and going on.
        public var strict: Bool
        /// Where to write a picture of every frame (`StreamPicture`), or `nil` for none.
        public var pictureDirectory: String?
        /// The maximum range in metres of frames whose record has no `maxDepth` (positive and
        /// finite), or `nil` for none.
        public var maxDepth: Float?

        /// The sensor profile the session's detector uses (`SensorProfile.auto` by default).
        public var sensor: SensorProfile

        /// A world map to relocalize into from the start, and the path it was read from.
        public var initialMap: (map: WorldMap, path: String)?
        /// Where to write the session's world map when the input ends, or `nil`.
        public var saveMapPath: String?
        /// Asked before each record: `true` ends the input there, as its end would (an
        /// interrupt: the record being carried out is finished, the map is still saved).
        public var shouldStop: (@Sendable () -> Bool)?
        /// Stop at once, with ``Stop/notAStream(_:)``, when the first record is bad and the
        /// input does not start like a record stream at all (a PCD, a PNG, binary data), instead
        /// of reporting each of its lines as a bad record.
        public var refusesForeignInput = false
        /// Tuning by hand over the sensor's settings (a minimum area does not apply here).
        public var detectionOverrides = DetectionOverrides()
        /// How frames without a pose are tracked.
        public var tracking = CameraTracker.Configuration()

        /// Options with everything off by default.
        public init(strict: Bool = false, pictureDirectory: String? = nil, maxDepth: Float? = nil,
                    sensor: SensorProfile = .auto, initialMap: (map: WorldMap, path: String)? = nil, saveMapPath: String? = nil) {
            self.strict = strict
            self.pictureDirectory = pictureDirectory
            self.maxDepth = maxDepth
            self.sensor = sensor
            self.initialMap = initialMap
            self.saveMapPath = saveMapPath
        }
    }

    /// Why a run stopped before the end of its input.
    public enum Stop: Error, Sendable, CustomStringConvertible {
        /// A bad record under ``Options/strict`` (its error event has been written).
        case badRecord(StreamError)
        /// The events or a picture could not be written.
        case output(String)
        /// The input is not a record stream at all (a PCD, an image, binary data): one line
        /// saying what it looks like; nothing was written.
        case notAStream(String)

        /// One line for stderr.
        public var description: String {
            switch self {
            case .badRecord(let error): error.description
            case .output(let message), .notAStream(let message): message
            }
        }
    }

    /// The processor, with the session after everything read so far.
    public private(set) var processor: StreamProcessor
    /// Latency of every frame record: decoding, tracking and writing its events (ms).
    public private(set) var latencies = LatencyHistogram()
    /// How many error events were written.
    public private(set) var errorCount = 0
    /// How many records were carried out without an error.
    public private(set) var goodRecordCount = 0
    /// How many pictures were written.
    public private(set) var pictureCount = 0
    /// The options.
    public let options: Options
    /// Told about every event line and frame as the run goes (a live view), or `nil`.
    public var observer: (any StreamObserver)?
    /// The shared space this stream takes part in, or `nil`: told every record's events and
    /// asked for the peers' between records, and kept serving after the end of the input.
    public var link: (any StreamPeerLink)?

    private let reader: StreamRecordReader<Source>
    private var output: OutputBuffer<Sink>
    private var line = JSONLineWriter(capacity: 16 << 10)
    private var events: [StreamEvent] = []
    private var peerEvents: [StreamEvent] = []
    private let warn: (String) -> Void

    /// A run from `source` to `sink`; `warn` gets each bad record's line (`record N: problem`).
    public init(source: Source, sink: Sink, options: Options = Options(), warn: @escaping (String) -> Void) {
        reader = StreamRecordReader(source: source)
        output = OutputBuffer(sink: sink)
        self.options = options
        self.warn = warn
        var configuration = Session.Configuration()
        configuration.detector.sensor = options.sensor
        configuration.detector.overrides = options.detectionOverrides
        processor = StreamProcessor(configuration: configuration, defaultMaxDepth: options.maxDepth, tracking: options.tracking)
        events.reserveCapacity(64)
    }

    /// The sink (everything written once ``run()`` returned or stopped).
    public var sink: Sink { output.sink }
    /// The capacity of the reader's reused payload buffer (bytes).
    public var payloadCapacity: Int { reader.payloadCapacity }
    /// The capacity of the reused event list.
    public var eventCapacity: Int { events.capacity }
    /// The capacity of the reused output line (bytes).
    public var lineCapacity: Int { line.bytes.capacity }

    /// Reads to the end of the source (or, under ``Options/strict``, to the first bad record)
    /// and flushes the output.
    public mutating func run() throws(Stop) {
        defer { observer?.streamRunner(didEnd: processor) }
        if let (map, path) = options.initialMap {
            line.write(processor.load(map, path: path))
            do { try output.write(line) } catch { throw .output(error.description) }
        }
        while !(options.shouldStop?() ?? false), try next() {}
        if let link {
            var more = true
            while more {
                peerEvents.removeAll(keepingCapacity: true)
                more = link.linger(processor: &processor, into: &peerEvents)
                try writePeerEvents()
                do { try output.flush() } catch { throw .output(error.description) }
            }
        }
        if let path = options.saveMapPath {
            do {
                line.write(try processor.saveMap(to: path))
            } catch {
                flushQuietly()
                throw .output("cannot save the world map: \(error)")
            }
            do { try output.write(line) } catch { throw .output(error.description) }
        }
        do { try output.flush() } catch { throw .output(error.description) }
    }

    /// Reads and carries out one record and writes its events (buffered); `false` at the end
    /// of the source. Throws after writing the error event of a bad record under
    /// ``Options/strict`` (the output is then flushed), or when the output cannot be written.
    public mutating func next() throws(Stop) -> Bool {
        switch step() {
        case .next: return true
        case .ended: return false
        case .stopped(let reason):
            flushQuietly()
            throw reason
        }
    }

    /// What one step did.
    private enum Step { case next, ended, stopped(Stop) }

    /// Reads and carries out one record.
    private mutating func step() -> Step {
        let record: StreamRecord
        do {
            guard let next = try reader.read() else { return .ended }
            record = next
        } catch {
            return report(error)
        }
        let start = ContinuousClock.now
        events.removeAll(keepingCapacity: true)
        do {
            try processor.handle(record, number: reader.recordNumber, into: &events)
        } catch {
            return report(error)
        }
        goodRecordCount += 1
        do {
            try writeEvents()
            observer?.streamRunner(didCarryOut: record, processor: processor)
            if case .frame = record {
                latencies.add((ContinuousClock.now - start).milliseconds)
                // Pictures are an extra, outside the latency.
                if let directory = options.pictureDirectory { try writePicture(in: directory) }
            }
            if let link {
                peerEvents.removeAll(keepingCapacity: true)
                let goOn = link.exchange(after: events, processor: &processor, into: &peerEvents)
                try writePeerEvents()
                // A shared space is live: every record's events go out at once, not when a
                // buffer fills (a peer whose input pauses is still seen by whoever reads it).
                try flushOutput()
                if !goOn { return .ended }
            }
        } catch {
            return .stopped(error)
        }
        return .next
    }

    private mutating func writeEvents() throws(Stop) { try write(events) }

    private mutating func write(_ list: [StreamEvent]) throws(Stop) {
        for event in list {
            line.write(event)
            do { try output.write(line) } catch { throw .output(error.description) }
            tellObserver(event)
        }
    }

    private mutating func flushOutput() throws(Stop) {
        do { try output.flush() } catch { throw .output(error.description) }
    }

    /// The peers' events (the caller flushes: they happen outside the input's pace).
    private mutating func writePeerEvents() throws(Stop) { try write(peerEvents) }

    private mutating func writePicture(in directory: String) throws(Stop) {
        let path = directory + "/" + frameFileName(processor.session.frameIndex, extension: "png")
        do {
            guard let image = try StreamPicture(processor: processor)?.image() else { return }
            try PNGWriter.write(image, to: path)
        } catch {
            throw .output("cannot write \(path): \(error)")
        }
        pictureCount += 1
    }

    /// One error event and one warning; under strict, the stop.
    private mutating func report(_ error: StreamError) -> Step {
        if options.refusesForeignInput, errorCount == 0, goodRecordCount == 0, let what = ForeignInput.description(of: reader.leadingBytes) {
            return .stopped(.notAStream(ForeignInput.message(for: what)))
        }
        errorCount += 1
        warn(error.description)
        let event = processor.errorEvent(for: error)
        line.write(event)
        do { try output.write(line) } catch { return .stopped(.output(error.description)) }
        tellObserver(event)
        return options.strict ? .stopped(.badRecord(error)) : .next
    }

    private func tellObserver(_ event: StreamEvent) {
        guard let observer else { return }
        line.bytes.withUnsafeBytes { observer.streamRunner(didWrite: event, line: $0) }
    }

    private mutating func flushQuietly() {
        do { try output.flush() } catch {}
    }
}
