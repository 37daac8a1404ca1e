import Foundation
import PlaneKitGeometry
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitView
import PlaneKitStreamFormat
import PlaneKitSyntheticWalks

/// A generated walk as stream bytes: `frameCount` frames at 320×240 (small, so a debug build
/// keeps up) with a tap on the image centre after every tenth frame, so objects come and go too.
func walkStream(seed: UInt64 = 3, frameCount: Int) throws -> [UInt8] {
    let sequence = SyntheticSequence(seed: seed, frameCount: frameCount,
                                     intrinsics: PinholeIntrinsics(fx: 262.5, fy: 262.5, cx: 159.5, cy: 119.5, width: 320, height: 240)!)
    var writer = StreamRecordWriter(sink: MemoryByteSink())
    for index in 0..<frameCount {
        let frame = sequence.frame(at: index)
        let samples = frame.depthMillimetres()
        try samples.withUnsafeBufferPointer { samples throws(StreamError) in
            try writer.write(.frame(StreamFrame.depth16(samples: samples, intrinsics: frame.intrinsics, depthScale: 0.001,
                                                         timestamp: frame.timestamp, pose: frame.pose)))
        }
        if index % 10 == 9 {
            try writer.write(.tap(TapRecord(pixel: SIMD2(160, 180), name: "box", size: SIMD3(0.3, 0.3, 0.3))))
        }
    }
    try writer.flush()
    return writer.output.sink.bytes
}

/// What a run printed and how many frames it carried out.
struct ViewRun {
    var output: [UInt8]
    var frames: Int
    var lines: [String] { String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init) }
}

/// Runs `bytes` through a ``StreamRunner``, watched by `hub` when there is one.
func runStream(_ bytes: [UInt8], hub: ViewHub?) -> ViewRun {
    var runner = StreamRunner(source: MemoryByteSource(bytes, maximumPiece: 64 << 10), sink: MemoryByteSink(), warn: { _ in })
    runner.observer = hub
    try? runner.run()
    return ViewRun(output: runner.sink.bytes, frames: runner.latencies.count)
}

/// The plane and object identifiers a viewer has after applying `lines` as the page does
/// (`reset` forgets everything).
struct ViewerModel {
    var planes: [String: String] = [:]
    var objects: Set<String> = []
    var ended = false
    var cameraMessages = 0
    var pointMessages = 0

    mutating func apply(_ line: String) {
        // The heavy messages are only counted (their keys are sorted, "event" comes first).
        if line.hasPrefix(#"{"event":"points""#) { pointMessages += 1; return }
        if line.hasPrefix(#"{"event":"camera""#) { cameraMessages += 1; return }
        if line.hasPrefix(#"{"event":"path""#) { return }
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let event = object["event"] as? String else { return }
        let plane = (object["plane"] as? [String: Any])?["identifier"] as? String
        let placed = (object["object"] as? [String: Any])?["identifier"] as? String
        switch event {
        case "reset": self = ViewerModel()
        case "planeAdded", "planeUpdated": planes[plane!] = line
        case "planeRemoved": planes[plane!] = nil
        case "objectAdded", "objectMoved", "objectSnapped": objects.insert(placed!)
        case "objectRemoved": objects.remove(placed!)
        case "end": ended = true
        default: break
        }
    }
}
