import ArgumentParser
import Foundation
import PlaneKit

/// `planekit stream`: frames and commands in on stdin, world events out on stdout.
struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Track planes and placed objects over a stream of frames on stdin; print events as NDJSON.",
        discussion: """
            Reads the record stream of docs/stream-format.md from stdin: frame records (depth16, \
            depth32f or xyz32f payloads with intrinsics, pose and timestamp) and tap, drag, \
            rotate, remove and raycast commands. Each frame goes through a tracking session \
            (detection, plane anchors with stable identifiers, snapping, the focus indicator, \
            mapping status). Prints one JSON event per line on stdout, in input order, each with \
            the frame number and timestamp it belongs to: planeAdded, planeUpdated, \
            planeRemoved, focus, objectAdded, objectMoved, objectSnapped, objectRemoved, hit, \
            mapping and error.

            A bad record gives one error event and one line on stderr naming the record, and \
            the stream goes on (--strict stops with exit status 2 instead).

            Examples:
              planekit synth --frames 120 --taps 3 | planekit stream
              planekit encode ../shared/data/pcl/frame_*.pcd | planekit stream --stats
              planekit synth --frames 60 --taps 2 | planekit stream | grep '"event":"objectAdded"'
            """)

    @Flag(help: "Stop at the first bad record with exit status 2 instead of reporting it and going on.")
    var strict = false

    @Flag(help: "Print per-frame latency percentiles (ms) to stderr at the end.")
    var stats = false

    mutating func run() throws {
        let reader = StreamRecordReader(source: FileDescriptorSource())
        var output = OutputBuffer(sink: FileDescriptorSink())
        var processor = StreamProcessor()
        var latencies = LatencyHistogram()
        while true {
            let record: StreamRecord?
            do {
                record = try reader.read()
            } catch {
                try report(error.description, recordNumber: error.recordNumber, processor: processor, output: &output)
                continue
            }
            guard let record else { break }
            let start = ContinuousClock.now
            do {
                for line in try processor.handle(record) {
                    try output.write(Array(line.utf8))
                }
            } catch {
                try report("record \(reader.recordNumber): \(error)", recordNumber: reader.recordNumber, processor: processor, output: &output)
            }
            if case .frame = record {
                latencies.add((ContinuousClock.now - start).milliseconds)
            }
        }
        try output.flush()
        if stats {
            Diagnostics.warn("stream: \(latencies.summary)")
        }
    }

    /// One error event on stdout and one line on stderr; with --strict, stop.
    private func report(_ message: String, recordNumber: Int, processor: StreamProcessor,
                        output: inout OutputBuffer<FileDescriptorSink>) throws {
        Diagnostics.warn(message)
        let event = StreamErrorEvent(frame: processor.session.frameIndex, timestamp: processor.session.timestamp,
                                     record: recordNumber, message: message)
        try output.write(Array((try JSONOutput.string(event) + "\n").utf8))
        if strict {
            try output.flush()
            throw ExitCode(2)
        }
    }
}

/// Turns records into session calls and the session's answers into event lines.
struct StreamProcessor {
    private(set) var session = Session()
    private var decoder = FrameDecoder()

    /// The JSON lines (each ending in a newline) that `record` produces.
    mutating func handle(_ record: StreamRecord) throws -> [String] {
        switch record {
        case .frame(let frame):
            let cloud = decoder.pointCloud(from: frame)
            // An xyz32f frame may come without a camera model (a PCD has none): fit one to its points.
            guard let intrinsics = cloud.intrinsics ?? frame.intrinsics ?? cloud.estimatedIntrinsics() else {
                throw ValidationError("an xyz32f frame with no intrinsics and too few valid points to fit them; give \"intrinsics\"")
            }
            var lines: [String] = []
            var focusChange: (from: FocusState, to: FocusState)?
            for event in try session.update(frame: cloud, intrinsics: intrinsics, pose: frame.pose, timestamp: frame.timestamp) {
                // The indicator gets one line per frame below, saying whether its state changed.
                if case .focus(let from, let to) = event.kind {
                    focusChange = (from, to)
                } else {
                    lines.append(try JSONOutput.string(event) + "\n")
                }
            }
            lines.append(try JSONOutput.string(FocusEvent(session: session, changedFrom: focusChange?.from)) + "\n")
            return lines
        case .tap(let tap):
            return [try line(session.place(name: tap.name, size: tap.size, atPixel: tap.pixel))]
        case .drag(let drag):
            return [try line(session.drag(object: try objectIdentifier(drag.object), toPixel: drag.pixel))]
        case .rotate(let rotate):
            return [try line(session.rotate(object: try objectIdentifier(rotate.object), by: rotate.angle))]
        case .remove(let remove):
            return [try line(session.remove(object: try objectIdentifier(remove.object)))]
        case .raycast(let query):
            let targets = StreamProcessor.targets(query.target)
            let alignment = PlaneAlignment(rawValue: query.alignment.rawValue) ?? .any
            let hits: [HitTestResult]
            switch query.source {
            case .pixel(let pixel):
                hits = session.raycast(pixel: pixel, targets: targets, alignment: alignment)
            case .ray(let origin, let direction):
                guard let ray = Ray(origin: origin, direction: direction) else {
                    throw ValidationError("a raycast direction must be non-zero and finite")
                }
                hits = session.raycast(ray, targets: targets, alignment: alignment)
            }
            return [try JSONOutput.string(HitEvent(frame: session.frameIndex, timestamp: session.timestamp, hits: hits)) + "\n"]
        }
    }

    private func line(_ event: SessionEvent) throws -> String {
        try JSONOutput.string(event) + "\n"
    }

    /// `object-N` (or plain `N`) as an identifier.
    private func objectIdentifier(_ text: String) throws -> PlacedObjectIdentifier {
        guard let identifier = PlacedObjectIdentifier(parsing: text) else {
            throw ValidationError("'\(text)' is not an object identifier (object-N, as objectAdded reported it)")
        }
        return identifier
    }

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

/// The focus indicator after a frame: state, smoothed position and orientation, and the state
/// it left when it changed this frame.
struct FocusEvent: Encodable {
    let frame: Int
    let timestamp: Double
    let event = "focus"
    let state: FocusState
    let changedFrom: FocusState?
    let transform: Transform?
    let plane: PlaneIdentifier?

    init(session: Session, changedFrom: FocusState?) {
        self.changedFrom = changedFrom
        frame = session.frameIndex
        timestamp = session.timestamp
        state = session.focus.state
        transform = session.focus.transform
        plane = session.focus.planeIdentifier
    }
}

/// The answer to a raycast record: every hit, nearest first.
struct HitEvent: Encodable {
    let frame: Int
    let timestamp: Double
    let event = "hit"
    let hits: [HitTestResult]
}

/// A bad record.
struct StreamErrorEvent: Encodable {
    let frame: Int
    let timestamp: Double
    let event = "error"
    let record: Int
    let message: String
}

/// Per-frame latencies in fixed memory: 0.01 ms buckets up to 100 ms, and a count above.
struct LatencyHistogram {
    private var buckets = [Int](repeating: 0, count: 10_000)
    private var over = 0
    private var count = 0

    mutating func add(_ milliseconds: Double) {
        count += 1
        let bucket = Int(milliseconds * 100)
        if bucket < buckets.count { buckets[max(0, bucket)] += 1 } else { over += 1 }
    }

    /// The latency below which `fraction` of frames fell (upper edge of its bucket).
    func percentile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = Int((fraction * Double(count)).rounded(.up))
        var seen = 0
        for (i, n) in buckets.enumerated() {
            seen += n
            if seen >= rank { return Double(i + 1) / 100 }
        }
        return .infinity
    }

    var summary: String {
        guard count > 0 else { return "no frames" }
        let p = [0.5, 0.9, 0.99, 1.0].map { percentile($0).map { $0.isFinite ? String(format: "%.2f", $0) : ">100" } ?? "-" }
        return "\(count) frames, latency ms p50 \(p[0]) p90 \(p[1]) p99 \(p[2]) max \(p[3])"
    }
}
