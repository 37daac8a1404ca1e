import Foundation
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitSynthesis
@testable import PlaneKitAnchors
@testable import PlaneKitMaps
import Testing
import PlaneKitSyntheticWalks

@Suite("World map format")
struct WorldMapCodingTests {
    /// A session's map after a short generated walk with one object placed.
    static let sample: WorldMap = {
        let sequence = SyntheticSequence(seed: 9, frameCount: 40)
        var session = Session(), mapping = MapTracking()
        for frame in sequence {
            _ = try? session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp)
            _ = mapping.frameTracked(session: &session, cloud: frame.cloud)
            if frame.timestamp > 1, session.objects.isEmpty {
                _ = try? session.place(name: "chair", size: SIMD3(0.5, 0.8, 0.5), atPixel: SIMD2(320, 400))
            }
        }
        return mapping.map(of: session)
    }()

    @Test func roundTripKeepsEverything() throws {
        let map = Self.sample
        #expect(map.anchors.count >= 3)
        #expect(map.objects.count == 1)
        #expect(map.points.count > 1000)
        let bytes = WorldMapCoding.encode(map)
        let back = try WorldMapCoding.decode(bytes)
        // Everything but the normals is stored exactly; normals to 1/127.
        #expect(back.anchors == map.anchors)
        #expect(back.objects == map.objects)
        #expect(back.keyframes == map.keyframes)
        #expect(back.points == map.points)
        #expect(back.mappingStatus == map.mappingStatus)
        #expect(back.nextPlaneNumber == map.nextPlaneNumber && back.nextObjectNumber == map.nextObjectNumber)
        let worstNormal = zip(back.normals, map.normals).map { $0.angle(to: $1) }.max() ?? 0
        #expect(worstNormal < 1 * .pi / 180)
        #expect(back.center == map.center && back.extent == map.extent)
        // A restored anchor describes the same surface: the cells give back the area.
        for anchor in back.anchors {
            #expect(abs(Float(anchor.cellCount) * anchor.cellSize * anchor.cellSize - anchor.plane.area) < 1e-3)
        }
        print("sample map: \(map.anchors.count) anchors, \(map.points.count) points, \(bytes.count) bytes")
    }

    /// A shared space's host holds other peers' objects, numbered in their ranges (peer × 10⁶ + n):
    /// its map must decode, and a session must not hand out a number an object already has.
    @Test func objectsNumberedInAnotherPeersRangeDecodeAndAreNotReused() throws {
        var map = Self.sample
        let first = try #require(map.objects.first)
        var joiners = first
        joiners.identifier = PlacedObjectIdentifier(1_000_001)
        map.objects.append(joiners)
        let back = try WorldMapCoding.decode(WorldMapCoding.encode(map))
        #expect(back.objects.map(\.identifier.rawValue) == [first.identifier.rawValue, 1_000_001])
        #expect(back.nextObjectNumber == map.nextObjectNumber)

        // A session whose next number is already taken (by another device's object) skips it.
        let sequence = SyntheticSequence(seed: 9, frameCount: 12)
        var session = Session()
        var placed: [UInt64] = []
        for frame in sequence {
            _ = try session.update(frame: frame.cloud, intrinsics: frame.intrinsics, pose: frame.pose, timestamp: frame.timestamp)
            if frame.timestamp > 0.2, placed.isEmpty {
                let taken = session.nextPlacedObjectNumber
                _ = session.applyShared(ObjectAnchor(identifier: PlacedObjectIdentifier(taken), anchorNumber: 0, name: "theirs",
                                                     size: SIMD3(0.2, 0.2, 0.2), transform: .identity, planeIdentifier: nil, alignment: .any))
                let event = try session.place(name: "mine", size: SIMD3(0.3, 0.3, 0.3), atPixel: SIMD2(320, 400))
                if case .objectAdded(let anchor) = event.kind { placed = [taken, anchor.identifier.rawValue] }
            }
        }
        #expect(placed.count == 2)
        #expect(placed.last == placed.first.map { $0 + 1 })
        #expect(Set(session.objects.map(\.identifier)).count == session.objects.count)
    }

    @Test func damagedMapsGiveOneClearError() throws {
        let good = WorldMapCoding.encode(Self.sample)
        func error(_ bytes: [UInt8]) -> WorldMapError? {
            do { _ = try WorldMapCoding.decode(bytes); return nil } catch { return error }
        }
        // Not a map, another version.
        #expect(error(Array("hello world, not a map".utf8)) == .notAMap)
        var version = good
        version[6] = 2
        #expect(error(version) == .unsupportedVersion(2))
        // Truncated anywhere: an error, never a crash.
        for length in stride(from: 0, to: good.count, by: max(1, good.count / 200)) {
            #expect(error(Array(good.prefix(length))) != nil)
        }
        // A flipped bit in the compressed body: corrupt data or a checksum mismatch.
        var flipped = good
        flipped[good.count / 2] ^= 0x10
        let flippedError = try #require(error(flipped))
        #expect(flippedError.description.contains("corrupt") || flippedError.description.contains("checksum"))
        // A header announcing a body deflate could not make of the bytes there (a zip bomb).
        var bomb = good
        withUnsafeBytes(of: UInt32(200 << 20).littleEndian) { for k in 0..<4 { bomb[8 + k] = $0[k] } }
        if case .tooLarge = error(bomb) {} else { Issue.record("a 200 MiB claim from \(good.count) bytes was not refused: \(String(describing: error(bomb)))") }
        var huge = good
        withUnsafeBytes(of: UInt32.max.littleEndian) { for k in 0..<4 { huge[8 + k] = $0[k] } }
        if case .tooLarge = error(huge) {} else { Issue.record("a 4 GiB body was not refused") }
    }

    /// Bodies that pass the container checks but hold bad values: each refused by name.
    @Test func badValuesInsideAValidContainerAreRefused() throws {
        let map = Self.sample
        var body = WorldMapCoding.encodeBody(map)
        func wrapped(_ body: [UInt8]) -> [UInt8] {
            var w = MapByteWriter()
            for b in Array("PKWMAP".utf8) { w.u8(b) }
            let compressed = Zlib.deflate(body)
            w.u16(1); w.count(body.count); w.count(compressed.count); w.u32(body.withUnsafeBytes { Zlib.crc32($0) })
            return w.bytes + compressed
        }
        #expect(try WorldMapCoding.decode(wrapped(body)).anchors == map.anchors)
        // The first anchor's grid frame starts at byte 1 + 8 + 8 + 4 + 8: a NaN there.
        let nan = Float.nan.bitPattern.littleEndian
        var bad = body
        withUnsafeBytes(of: nan) { for k in 0..<4 { bad[29 + k] = $0[k] } }
        #expect(throws: WorldMapError.self) { try WorldMapCoding.decode(wrapped(bad)) }
        // An anchor count far beyond the bytes: refused before allocating.
        bad = body
        withUnsafeBytes(of: UInt32(60_000).littleEndian) { for k in 0..<4 { bad[17 + k] = $0[k] } }
        do {
            _ = try WorldMapCoding.decode(wrapped(bad))
            Issue.record("60 000 anchors in \(body.count) bytes were accepted")
        } catch {
            #expect(error.description.contains("60000 anchors"))
        }
        // Trailing bytes.
        body.append(0)
        #expect(throws: WorldMapError.self) { try WorldMapCoding.decode(wrapped(body)) }
    }
}

@Suite("World map fuzzing seeds")
struct WorldMapSeedTests {
    /// The fuzz target's seeds, written by Fuzz/make-seeds.py from docs/world-map.md alone, are
    /// good maps: the documentation is enough to write one.
    @Test func seedsWrittenFromTheDocumentationDecode() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/corpus/world-map")
        let file = try [UInt8](Data(contentsOf: folder.appendingPathComponent("room.pkmap")))
        let body = try [UInt8](Data(contentsOf: folder.appendingPathComponent("body.bin")))
        let map = try WorldMapCoding.decode(file)
        #expect(map.anchors.map(\.identifier.description) == ["plane-1", "plane-2"])
        #expect(map.anchors.map(\.plane.classification) == [.floor, .wall])
        #expect(map.anchors[0].cellCount == 400)
        #expect(map.objects.map(\.name) == ["chair"])
        #expect(map.keyframes.count == 2 && map.points.count == 25)
        #expect(map.mappingStatus == .mapped)
        #expect(try WorldMapCoding.decodeBody(body).anchors == map.anchors)
    }
}

@Suite("World map fuzzing findings")
struct WorldMapFuzzFindingTests {
    /// Every reproducer the world-map fuzz target kept decodes to a map or one error, as a file
    /// and as a body, without trapping.
    @Test func findingsAreRefusedCleanly() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/regressions/world-map")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!files.isEmpty)
        for name in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            // The first finding: a frame number of Int64.min, whose abs() trapped.
            #expect(throws: WorldMapError.self) { try WorldMapCoding.decodeBody(bytes) }
            _ = try? WorldMapCoding.decode(bytes)
        }
    }
}
