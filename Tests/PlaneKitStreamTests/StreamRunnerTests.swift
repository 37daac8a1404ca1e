import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitAnchors
import Testing
@testable import PlaneKitStream
@testable import PlaneKitStreamFormat

@Suite struct StreamRunnerTests {
    /// Frames, then every command kind, then more frames: the events come in input order, each
    /// with the frame it belongs to and that frame's timestamp, and say what the commands did.
    @Test func commandsAndFramesGiveTheirEventsInInputOrder() throws {
        let synth = SyntheticStream()
        var s = StreamBuilder()
        try s.record(synth.record(0))
        try s.record(.tap(TapRecord(pixel: synth.floorPixel(0), name: "chair", size: SIMD3(0.5, 0.8, 0.5))))   // 2
        for i in 1...3 { try s.record(synth.record(i)) }
        try s.record(.drag(DragRecord(object: "object-1", pixel: synth.floorPixel(3, nearColumn: 100))))         // 6
        try s.record(.rotate(RotateRecord(object: "object-1", angle: 0.5)))                                     // 7
        try s.record(.raycast(RaycastRecord(source: .pixel(synth.floorPixel(3)), target: .existingPlaneInfinite))) // 8
        let camera = synth.sequence.pose(ofFrame: 3).translation
        try s.record(.raycast(RaycastRecord(source: .ray(origin: camera, direction: SIMD3(0, -1, 0)),
                                            target: .existingPlaneInfinite, alignment: .horizontal)))            // 9
        try s.record(.remove(RemoveRecord(object: "object-1")))                                                 // 10
        try s.record(synth.record(4))

        let result = try run(s.bytes)
        #expect(result.stop == nil)
        #expect(result.warnings.isEmpty)
        #expect(result.runner.errorCount == 0)
        let events = result.events
        // Every event has a frame and that frame's timestamp; frames never go back.
        for event in events {
            let frame = try #require(event.frame)
            #expect(abs(try #require(event.timestamp) - Double(frame) / 30) < 1e-12)
        }
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.frame! <= $1.frame! })
        // Exactly one focus event closes each frame.
        let focus = result.events("focus")
        #expect(focus.map(\.frame) == [0, 1, 2, 3, 4])

        // The first frame adds planes, the floor among them, before its focus event.
        let firstFrame = events.prefix { $0["event"] as? String != "focus" }
        let added = firstFrame.filter { $0["event"] as? String == "planeAdded" }
        #expect(added.count >= 2)
        let floor = try #require(added.first { $0[path: "plane.plane.classification"] as? String == "floor" })
        let floorID = try #require(floor[path: "plane.identifier"] as? String)
        let normal = try #require((floor[path: "plane.plane.plane.normal"] as? [NSNumber])?.map(\.floatValue))
        let offset = try #require((floor[path: "plane.plane.plane.offset"] as? NSNumber)?.floatValue)
        #expect(normal[1] > 0.99)
        let floorHeight = -offset / normal[1]

        // The command events, in input order, right after the focus event of the frame before.
        let names = events.map { $0["event"] as! String }
        let commands = names.filter { ["objectAdded", "objectMoved", "hit", "objectRemoved"].contains($0) }
        #expect(Array(commands.prefix(6)) == ["objectAdded", "objectMoved", "objectMoved", "hit", "hit", "objectRemoved"])
        #expect(names[firstFrame.count + 1] == "objectAdded")

        let placed = result.events("objectAdded")[0]
        #expect(placed.frame == 0)
        #expect(placed[path: "object.identifier"] as? String == "object-1")
        #expect(placed[path: "object.name"] as? String == "chair")
        #expect(placed[path: "object.planeIdentifier"] as? String == floorID)
        let placedAt = try #require(placed.transform("object.transform"))
        #expect(abs(placedAt[13] - floorHeight) < 0.03)
        #expect(placedAt[5] > 0.99)   // local +Y up

        let moves = result.events("objectMoved").filter { $0.frame == 3 }
        #expect(moves.count == 2)
        let dragged = try #require(moves.first?.transform("object.transform"))
        let rotated = try #require(moves.last?.transform("object.transform"))
        #expect(abs(dragged[13] - floorHeight) < 0.03)
        #expect(hypot(dragged[12] - placedAt[12], dragged[14] - placedAt[14]) > 0.05)
        let numbers = [placed, moves[0], moves[1]].map { ($0[path: "object.anchorNumber"] as! NSNumber).intValue }
        #expect(numbers[0] < numbers[1] && numbers[1] < numbers[2])
        // Rotate keeps the position and turns local X by 0.5 rad about +Y.
        #expect(rotated[12] == dragged[12] && rotated[13] == dragged[13] && rotated[14] == dragged[14])
        let turn = acos(min(1, dragged[0] * rotated[0] + dragged[1] * rotated[1] + dragged[2] * rotated[2]))
        #expect(abs(turn - 0.5) < 1e-3)

        let hits = result.events("hit")
        #expect(hits.map(\.frame) == [3, 3])
        let pixelHits = try #require(hits[0]["hits"] as? [[String: Any]])
        #expect(pixelHits.contains { $0["planeIdentifier"] as? String == floorID })
        let rayHits = try #require(hits[1]["hits"] as? [[String: Any]])
        let down = try #require(rayHits.first)
        #expect(down["planeIdentifier"] as? String == floorID)
        #expect(abs(((down["distance"] as? NSNumber)?.floatValue ?? 0) - (camera.y - floorHeight)) < 0.02)

        let removed = result.events("objectRemoved")
        #expect(removed.count == 1 && removed[0][path: "object.identifier"] as? String == "object-1")
        #expect(result.runner.processor.session.objects.isEmpty)
        #expect(result.runner.latencies.count == 5)
    }

    /// Each bad record gives exactly one error event naming it, and one warning; the stream
    /// goes on and the next good frame is tracked.
    @Test func badRecordsGiveOneErrorEachAndTheStreamGoesOn() throws {
        let synth = SyntheticStream()
        let k = #""intrinsics":{"fx":262.5,"fy":262.5,"cx":159.5,"cy":119.5}"#
        var s = StreamBuilder()
        try s.record(synth.record(0))                                                                   // 1
        s.line(#"{"type":"tap","x":80,"y": oops}"#)                                                     // 2: garbage JSON
        try s.record(synth.record(1))                                                                   // 3
        let pose = "1,0,0,0,0,1,0,0,0,0,1,0,0,0,1e999,1"
        s.line(#"{"type":"frame","t":0.07,"width":320,"height":240,"encoding":"depth16",\#(k),"pose":[\#(pose)],"bytes":153600}"#) // 4: infinite pose
        s.raw([UInt8](repeating: 0x0A, count: 153_600))
        s.line(#"{"type":"frame","t":0.08,"width":40000,"height":25000,"encoding":"depth16",\#(k),"bytes":16}"#) // 5: 10⁹ pixels
        s.raw([UInt8](repeating: 0x0A, count: 16))
        try s.record(synth.record(2))                                                                   // 6
        s.line(#"{"type":"drag","object":"object-99","x":80,"y":100}"#)                                 // 7: unknown object
        s.line(#"{"type":"rotate","object":"chair","angle":1}"#)                                        // 8: not an identifier
        try s.record(synth.record(3))                                                                   // 9
        s.line(#"{"type":"frame","t":0.2,"width":320,"height":240,"encoding":"depth16",\#(k),"bytes":153600}"#) // 10: truncated
        s.raw([UInt8](repeating: 1, count: 1000))

        let result = try run(s.bytes)
        #expect(result.stop == nil)
        let errors = result.events("error")
        #expect(errors.map { ($0["record"] as! NSNumber).intValue } == [2, 4, 5, 7, 8, 10])
        #expect(result.runner.errorCount == 6)
        #expect(result.warnings.count == 6)
        for (error, warning) in zip(errors, result.warnings) {
            let record = (error["record"] as! NSNumber).intValue
            #expect(warning.hasPrefix("record \(record): "))
            #expect(error["message"] as? String == warning)
        }
        #expect((errors[0]["message"] as? String)?.hasPrefix("record 2: not valid JSON") == true)
        #expect((errors[1]["message"] as? String)?.contains("pose") == true)
        #expect((errors[2]["message"] as? String)?.contains("pixels") == true)
        #expect(errors[3]["message"] as? String == "record 7: no object object-99")
        #expect((errors[4]["message"] as? String)?.contains("'chair' is not an object identifier") == true)
        #expect(errors[5]["message"] as? String == "record 10: payload truncated: the stream ended after 1000 of 153600 bytes")
        // Errors carry the latest frame; every good frame was tracked.
        #expect(errors.map(\.frame) == [0, 1, 1, 2, 2, 3])
        #expect(result.events("focus").map(\.frame) == [0, 1, 2, 3])
        // The huge claim was refused without reading it into memory.
        #expect(result.runner.payloadCapacity < 1 << 20)
    }

    @Test func strictStopsAtTheFirstBadRecord() throws {
        let synth = SyntheticStream()
        var s = StreamBuilder()
        try s.record(synth.record(0))
        s.line(#"{"type":"remove","object":"object-1"}"#)
        try s.record(synth.record(1))
        let result = try run(s.bytes, options: .init(strict: true))
        guard case .badRecord(let error)? = result.stop else {
            Issue.record("expected a bad-record stop, got \(String(describing: result.stop))")
            return
        }
        #expect(error.recordNumber == 2)
        #expect(error.message == "no object object-1")
        // The first frame's events, then the one error event, and nothing after it.
        #expect(result.events.last?["event"] as? String == "error")
        #expect(result.events("error").count == 1)
        #expect(result.events("focus").map(\.frame) == [0])
        #expect(result.warnings == ["record 2: no object object-1"])
    }

    /// Over many frames the reader's payload buffer, the decoder's points, the event list and
    /// the output line keep the capacities they had after the first frames.
    @Test func buffersStayFlatOverManyFrames() throws {
        let synth = SyntheticStream(frameCount: 10)
        let frames = (0..<10).map { synth.record($0) }
        var s = StreamBuilder()
        let count = 150
        for i in 0..<count {
            guard case .frame(var frame) = frames[i % 10] else { continue }
            frame.timestamp = Double(i) / 30
            try s.record(.frame(frame))
            if i % 25 == 5 { try s.record(.raycast(RaycastRecord(source: .pixel(SIMD2(160, 200)), target: .any))) }
        }
        var runner = StreamRunner(source: MemoryByteSource(s.bytes, maximumPiece: 70_000), sink: MemoryByteSink(), warn: { _ in })
        var capacities: [[Int]] = []
        while try runner.next() {
            capacities.append([runner.payloadCapacity, runner.processor.pointStorageCapacity, runner.eventCapacity])
        }
        try runner.run()
        #expect(runner.latencies.count == count)
        #expect(runner.errorCount == 0)
        let settled = capacities[20]
        #expect(settled[0] >= 320 * 240 * 2 && settled[1] >= 320 * 240)
        #expect(capacities.dropFirst(20).allSatisfy { $0 == settled })
        #expect(runner.lineCapacity <= 64 << 10)
    }

    @Test func latencyPercentilesCountBuckets() {
        var histogram = LatencyHistogram()
        #expect(histogram.percentile(0.5) == nil)
        for ms in [1.0, 2.0, 3.0, 4.0, 250.0] { histogram.add(ms) }
        #expect(histogram.count == 5)
        #expect(histogram.percentile(0.5) == 3.01)
        #expect(histogram.percentile(0.8) == 4.01)
        #expect(histogram.percentile(1.0) == .infinity)
        #expect(histogram.summary == "5 frames, latency ms p50 3.01 p90 >100 p99 >100 max >100")
    }
}
