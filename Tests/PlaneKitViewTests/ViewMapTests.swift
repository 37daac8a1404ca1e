import Foundation
import PlaneKitGeometry
import PlaneKitStream
import PlaneKitMaps
import PlaneKitView
import Testing
import PlaneKitStreamFormat

/// `planekit view --map`: a saved map shown without a stream.
@Suite struct ViewMapTests {
    /// A generated walk with taps, its map saved and read back as the command reads a file.
    static func savedMap() throws -> WorldMap {
        var runner = StreamRunner(source: MemoryByteSource(try walkStream(seed: 5, frameCount: 40), maximumPiece: 64 << 10),
                                  sink: MemoryByteSink(), warn: { _ in })
        try runner.run()
        return try WorldMapCoding.decode(WorldMapCoding.encode(runner.processor.worldMap))
    }

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    static func vector(_ value: Any?) -> SIMD3<Float>? {
        guard let numbers = (value as? [Any])?.compactMap({ ($0 as? NSNumber)?.doubleValue }), numbers.count == 3 else {
            return nil
        }
        return SIMD3(Float(numbers[0]), Float(numbers[1]), Float(numbers[2]))
    }

    @Test("a saved map's planes, objects and keyframe path make the snapshot")
    func mapSnapshot() throws {
        let map = try Self.savedMap()
        #expect(map.anchors.count >= 3)
        #expect(map.objects.count >= 2)
        #expect(map.keyframes.count >= 2)
        let hub = ViewHub()
        hub.show(map)
        let lines = hub.snapshot()
        var model = ViewerModel()
        for line in lines { model.apply(line) }

        // Every plane, by identifier, in its place and with its class (the page's label).
        #expect(Set(model.planes.keys) == Set(map.anchors.map(\.identifier.description)))
        for anchor in map.anchors {
            let line = try #require(model.planes[anchor.identifier.description])
            let plane = try #require(Self.json(line)["plane"] as? [String: Any])
            let description = try #require(plane["plane"] as? [String: Any])
            #expect(description["classification"] as? String == anchor.plane.classification.rawValue)
            let centroid = try #require(Self.vector(description["centroid"]))
            #expect(distance(centroid, anchor.plane.centroid) < 0.01, "\(anchor.identifier): \(centroid) vs \(anchor.plane.centroid)")
            #expect(((description["boundary"] as? [String: Any])?["vertices"] as? [Any])?.count ?? 0 >= 3)
        }
        // Every object where it was saved.
        #expect(model.objects == Set(map.objects.map(\.identifier.description)))
        // The path is the keyframe cameras' positions, in order.
        let pathLine = try #require(lines.first { $0.hasPrefix(#"{"event":"path""#) })
        let positions = (Self.json(pathLine)["positions"] as? [Any] ?? []).compactMap(Self.vector)
        #expect(positions.count == map.keyframes.count)
        for (position, keyframe) in zip(positions, map.keyframes) {
            #expect(distance(position, keyframe.translation) < 1e-4)
        }
        // The end: nothing more will come.
        #expect(model.ended)
        #expect(hub.statistics.ended)
    }

    @Test("a viewer connected before the map is shown gets it as a fresh snapshot")
    func viewerBeforeMap() throws {
        let map = try Self.savedMap()
        let hub = ViewHub()
        let viewer = hub.connect()
        #expect(hub.take(viewer.id)?.first?.hasPrefix(#"{"event":"reset""#) == true)
        hub.show(map)
        let messages = try #require(hub.take(viewer.id))
        #expect(messages.first?.hasPrefix(#"{"event":"reset""#) == true)
        var model = ViewerModel()
        for message in messages {
            for line in message.split(separator: "\n") { model.apply(String(line)) }
        }
        #expect(model.planes.count == map.anchors.count)
        #expect(model.ended)
    }
}
