import Foundation
import PlaneKitGeometry
import PlaneKitInput
import PlaneKitAnchors
import Testing
@testable import PlaneKitStream
import PlaneKitPictures
import PlaneKitPictures
@testable import PlaneKitStreamFormat

@Suite struct StreamPictureTests {
    /// `--png-dir`: one PNG per frame, named by frame number, the frame's size, RGB.
    @Test func writesOnePictureOfTheFrameSizePerFrame() throws {
        let synth = SyntheticStream()
        var s = StreamBuilder()
        for i in 0..<3 { try s.record(synth.record(i)) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-pictures-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try run(s.bytes, options: .init(pictureDirectory: directory))
        #expect(result.runner.pictureCount == 3)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["frame-000000.png", "frame-000001.png", "frame-000002.png"])
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let be = { (o: Int) in bytes[o...o + 3].reduce(0) { $0 << 8 | Int($1) } }
            #expect(be(16) == 320 && be(20) == 240)
            #expect(bytes[24] == 8 && bytes[25] == 2)   // 8-bit RGB
        }
    }

    /// Plane pixels carry their anchor's colour (shaded by depth), so a surface keeps its
    /// colour across frames; other measured pixels are grey; objects and the focus square show.
    @Test func planePixelsAreColouredByAnchor() throws {
        let synth = SyntheticStream()
        var processor = StreamProcessor()
        var events: [StreamEvent] = []
        var floorKeys: [UInt64] = []
        var keys = Set<UInt64>()
        var overlay = 0
        for i in 0..<4 {
            try processor.handle(synth.record(i), number: 2 * i + 1, into: &events)
            if i == 0 {
                try processor.handle(.tap(TapRecord(pixel: synth.floorPixel(0))), number: 2, into: &events)
            }
            let image = try #require(StreamPicture(processor: processor)).image()
            let cloud = try #require(processor.latestCloud)
            let labels = try #require(processor.session.latestDetection).labels
            let anchors = processor.session.latestAssignments
            #expect(image.width == 320 && image.height == 240)
            var coloured = 0, grey = 0
            for v in 1..<239 {
                for u in 1..<319 {
                    let j = v * 320 + u
                    let rgb = SIMD3<Float>(image.pixels[j])
                    // Pixels of a surface not confirmed yet are drawn as on no plane.
                    let label = labels[j] == 0 || anchors[Int(labels[j]) - 1] == nil ? 0 : Int(labels[j])
                    let neighbours = [labels[j - 1], labels[j + 1], labels[j - 320], labels[j + 320]]
                    guard cloud.points[j].isFinite, neighbours.allSatisfy({ $0 == labels[j] }) else { continue }
                    if isOverlay(image.pixels[j]) { continue }
                    if label == 0 {
                        #expect(rgb.x == rgb.y && rgb.y == rgb.z)
                        grey += 1
                    } else {
                        // The pixel is the anchor's colour times a shade in 0.45…1.
                        let key = try #require(anchors[label - 1]).rawValue
                        let palette = SegmentationPicture.colour(key: key)
                        let shade = rgb.max() / (palette.max() * 255)
                        #expect(shade > 0.44 && shade < 1.01)
                        #expect(abs(rgb - palette * shade * 255).max() <= 1.5)
                        coloured += 1
                        keys.insert(key)
                    }
                }
            }
            #expect(coloured > 320 * 240 / 3)
            // The key (so the colour) of the floor under the tap pixel, frame after frame.
            let tap = synth.floorPixel(0)
            let floorLabel = Int(labels[Int(tap.y) * 320 + Int(tap.x)])
            if floorLabel > 0, let floor = anchors[floorLabel - 1] { floorKeys.append(floor.rawValue) }
            _ = grey
            overlay += image.pixels.filter(isOverlay).count
        }
        // The floor under the tap pixel had one anchor, so one colour, in every frame.
        #expect(floorKeys.count == 4 && Set(floorKeys).count == 1)
        // Distinct anchors look different.
        let colours = keys.map { SegmentationPicture.colour(key: $0) }
        for (i, a) in colours.enumerated() {
            for b in colours[(i + 1)...] { #expect(abs(a - b).max() > 0.1) }
        }
        #expect(overlay > 50)
    }

    private func isOverlay(_ p: SIMD3<UInt8>) -> Bool {
        [StreamPicture.objectColour, StreamPicture.snappingColour, StreamPicture.onPlaneColour, StreamPicture.estimatedColour,
         StreamPicture.initializingColour].contains(p)
    }
}
