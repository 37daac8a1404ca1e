import Foundation
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitSynthesis
import PlaneKitAnchors
@testable import PlaneKitStream
import Testing
@testable import PlaneKitStreamFormat
import PlaneKitSyntheticWalks

@Suite("World maps in streams")
struct WorldMapStreamTests {
    /// A generated frame as a depth16 record with `pose`.
    static func record(_ frame: SyntheticFrame, pose: Transform) -> StreamRecord {
        let samples = ContiguousArray(frame.cloud.points.map { p -> UInt16 in p.z > 0 ? UInt16(min(p.z, 65.535) * 1000 + 0.5) : 0 })
        return .frame(samples.withUnsafeBufferPointer {
            StreamFrame.depth16(samples: $0, intrinsics: frame.intrinsics, depthScale: 0.001, timestamp: frame.timestamp, pose: pose)
        })
    }

    @Test func savedMapRelocalizesASecondStreamWithItsIdentifiers() throws {
        let walk = RevisitWalk(seed: 10, mappingFrames: 120)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-map-\(getpid()).pkmap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var mapping = StreamProcessor()
        var events: [StreamEvent] = []
        var workspace = RenderWorkspace()
        for k in 0..<walk.mappingFrames {
            let frame = walk.mappingFrame(k, workspace: &workspace)
            try mapping.handle(Self.record(frame, pose: frame.pose), number: k + 1, into: &events)
            if k == 60 { try mapping.handle(.tap(TapRecord(pixel: SIMD2(320, 400), name: "chair")), number: 1000, into: &events) }
        }
        events.removeAll()
        try mapping.handle(.saveMap(MapFileRecord(path: path)), number: 2000, into: &events)
        guard case .map(let saved)? = events.first, case .saved(_, let bytes, let anchors, let objects, _) = saved.kind else {
            Issue.record("no mapSaved event: \(events.map(\.name))")
            return
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(bytes == size)
        #expect(anchors == mapping.session.planes.count && anchors >= 5)
        #expect(objects == 1)
        let mapIdentifiers = Set(mapping.session.planes.map(\.identifier))

        // The same room again, in a world turned and shifted: relocalized, then the map's names.
        var query = StreamProcessor()
        events.removeAll()
        try query.handle(.loadMap(MapFileRecord(path: path)), number: 1, into: &events)
        #expect(events.map(\.name) == ["mapLoaded"])
        var relocalizedAt: Int?
        for k in 0..<30 where relocalizedAt == nil {
            let frame = walk.queryFrame(k, workspace: &workspace)
            events.removeAll()
            try query.handle(Self.record(frame, pose: frame.pose), number: k + 2, into: &events)
            guard let at = events.firstIndex(where: { $0.name == "relocalized" }) else { continue }
            relocalizedAt = k
            guard case .map(let e) = events[at], case .relocalized(let found) = e.kind else { continue }
            let camera = frame.pose.translation
            #expect(distance(found.mapFromSession.apply(toPoint: camera), walk.expectedMapFromQuery.apply(toPoint: camera)) < 0.01)
            let after = events[(at + 1)...]
            let added = Set(after.compactMap { event -> PlaneIdentifier? in
                if case .session(let s) = event, case .planeAdded(let a) = s.kind { return a.identifier }
                return nil
            })
            #expect(added == mapIdentifiers)
            #expect(after.contains { if case .session(let s) = $0, case .objectAdded(let o) = s.kind { return o.name == "chair" }; return false })
        }
        #expect(relocalizedAt != nil)
        // Anchors the query session finds later never take a map anchor's name.
        #expect(query.session.planes.filter { !mapIdentifiers.contains($0.identifier) }.allSatisfy { $0.identifier.rawValue >= UInt64(mapIdentifiers.count) })
    }

    @Test func badMapFilesAreOneErrorEach() throws {
        var processor = StreamProcessor()
        var events: [StreamEvent] = []
        let missing = "/nonexistent/planekit/room.pkmap"
        #expect(throws: StreamError.self) { try processor.handle(.loadMap(MapFileRecord(path: missing)), number: 3, into: &events) }
        let garbage = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-garbage-\(getpid()).pkmap").path
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        try Data("definitely not a map".utf8).write(to: URL(fileURLWithPath: garbage))
        do {
            try processor.handle(.loadMap(MapFileRecord(path: garbage)), number: 4, into: &events)
            Issue.record("a text file loaded as a map")
        } catch {
            #expect(error.description.contains("not a PlaneKit world map"))
            #expect(error.recordNumber == 4)
        }
        #expect(events.isEmpty)
        #expect(!processor.mapTracking.isRelocalizing)
        // The records themselves: a path is required and must not be empty.
        var stream = StreamBuilder()
        stream.line(#"{"type":"saveMap","path":""}"#)
        stream.line(#"{"type":"loadMap"}"#)
        stream.line(#"{"type":"saveMap","path":"a.pkmap"}"#)
        let results = readAll(MemoryByteSource(stream.bytes))
        #expect(results.count == 3)
        if case .failure(let e) = results[0] { #expect(e.description.contains("path")) } else { Issue.record("empty path accepted") }
        if case .failure = results[1] {} else { Issue.record("missing path accepted") }
        if case .success(.saveMap(let r)) = results[2] { #expect(r.path == "a.pkmap") } else { Issue.record("good saveMap refused") }
    }
}
