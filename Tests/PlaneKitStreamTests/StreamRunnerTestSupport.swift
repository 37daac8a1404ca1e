import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitAnchors
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat
import PlaneKitSyntheticWalks

/// Generated frames at 320×240 (small, so the debug build tracks them quickly), as stream records.
struct SyntheticStream {
    let sequence: SyntheticSequence

    init(seed: UInt64 = 1, frameCount: Int = 40) {
        sequence = SyntheticSequence(seed: seed, frameCount: frameCount,
                                     intrinsics: PinholeIntrinsics(fx: 262.5, fy: 262.5, cx: 159.5, cy: 119.5, width: 320, height: 240)!)
    }

    /// Frame `index` as a depth16 record (millimetres, 0 = none).
    func record(_ index: Int, timestamp: Double? = nil) -> StreamRecord {
        let frame = sequence.frame(at: index)
        let samples = ContiguousArray(frame.cloud.points.map { p -> UInt16 in p.z > 0 ? UInt16(min(p.z, 65.535) * 1000 + 0.5) : 0 })
        return .frame(samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: frame.intrinsics, depthScale: 0.001,
                                timestamp: timestamp ?? frame.timestamp, pose: frame.pose)
        })
    }

    /// A pixel of frame `index` on the floor, near the lower middle of the image.
    func floorPixel(_ index: Int, nearColumn column: Int = 160) -> SIMD2<Float> {
        let frame = sequence.frame(at: index)
        var best: (Int, SIMD2<Float>)?
        for v in 0..<frame.height {
            for u in 0..<frame.width {
                let label = frame.labels[v * frame.width + u]
                guard label > 0, frame.plane(id: label)?.kind == .floor else { continue }
                let d = (u - column) * (u - column) + (v - 200) * (v - 200)
                if best == nil || d < best!.0 { best = (d, SIMD2(Float(u), Float(v))) }
            }
        }
        return best!.1
    }
}

/// Everything a run wrote: events (parsed), raw lines, warnings, and how it stopped.
struct RunResult {
    var lines: [String]
    var events: [[String: Any]]
    var warnings: [String]
    var stop: StreamRunner<MemoryByteSource, MemoryByteSink>.Stop?
    var runner: StreamRunner<MemoryByteSource, MemoryByteSink>

    /// The events named `name`.
    func events(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
}

final class Warnings: @unchecked Sendable {
    var lines: [String] = []
}

/// Runs `bytes` through a ``StreamRunner``.
func run(_ bytes: [UInt8], options: StreamRunner<MemoryByteSource, MemoryByteSink>.Options = .init()) throws -> RunResult {
    let warnings = Warnings()
    var runner = StreamRunner(source: MemoryByteSource(bytes, maximumPiece: 50_000), sink: MemoryByteSink(), options: options,
                              warn: { warnings.lines.append($0) })
    var stop: StreamRunner<MemoryByteSource, MemoryByteSink>.Stop?
    do { try runner.run() } catch { stop = error }
    let text = String(decoding: runner.sink.bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var events: [[String: Any]] = []
    for line in lines.dropLast() {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        events.append(object as! [String: Any])
    }
    return RunResult(lines: Array(lines.dropLast()), events: events, warnings: warnings.lines, stop: stop, runner: runner)
}

extension Dictionary where Key == String, Value == Any {
    /// `path` ("object.transform") followed down nested objects.
    subscript(path path: String) -> Any? {
        var current: Any? = self
        for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    /// The 16 numbers of the transform at `path`.
    func transform(_ path: String) -> [Float]? {
        (self[path: path + ".columnMajor"] as? [Any])?.compactMap { ($0 as? NSNumber)?.floatValue }
    }

    var frame: Int? { (self["frame"] as? NSNumber)?.intValue }
    var timestamp: Double? { (self["timestamp"] as? NSNumber)?.doubleValue }
}
