import ArgumentParser
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitMaps
import PlaneKitCommandSupport
import PlaneKitPictures

/// `planekit map`: world map files (`stream --save-map`).
struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Inspect world maps written by `planekit stream --save-map`.",
        subcommands: [MapInfo.self],
        defaultSubcommand: MapInfo.self)
}

/// `planekit map info FILE`: a summary of a world map, and a top-down picture.
struct MapInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarise a world map: anchors, objects, extent, points, status, size.",
        discussion: """
            Reads a world map (docs/world-map.md), checking it as a session loading it would, \
            and prints its anchors (by class), objects, keyframes, sampled points, centre and \
            extent of the mapped region, mapping status and file size. A damaged or foreign \
            file gives one line on stderr and exit status 1.

            --png writes a top-down picture: points in grey, anchors in their identifier's \
            colour (horizontal ones filled), keyframe positions as white crosses, objects as \
            white footprints.

            Examples:
              planekit synth --frames 300 --taps 2 \\
                  | planekit stream --save-map room.pkmap > /dev/null
              planekit map info room.pkmap
              planekit map info --json --png room.png room.pkmap
            """)

    @Argument(help: "The map file.", completion: .file())
    var file: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Write a top-down picture of the map to this PNG.", valueName: "OUT"))
    var png: String?

    @Option(help: "Pixels per metre of the picture.")
    var scale: Float = 100

    mutating func run() throws {
        guard scale.isFinite, scale > 0 else { throw ValidationError("--scale must be a positive number of pixels per metre") }
        let map: WorldMap
        let size: Int
        do {
            map = try WorldMapCoding.read(file)
            size = try FileBytes.readPrefix(file, maximum: 0).fileSize
        } catch {
            Diagnostics.warn("\(error)")
            throw ExitCode(1)
        }
        if let png {
            do {
                try PNGWriter.write(try WorldMapPicture(map: map, pixelsPerMetre: scale).image(), to: png)
            } catch {
                Diagnostics.warn("cannot write \(png): \(error)")
                throw ExitCode(1)
            }
        }
        var classes: [String: Int] = [:]
        for anchor in map.anchors { classes[anchor.plane.classification.rawValue, default: 0] += 1 }
        let area = map.anchors.reduce(Float(0)) { $0 + $1.plane.area }
        if json {
            let summary = MapSummary(
                file: file, bytes: size, version: Int(WorldMapCoding.version), anchors: map.anchors.count,
                classes: classes, anchorArea: Double(area), objects: map.objects.count,
                keyframes: map.keyframes.count, points: map.points.count, mappingStatus: map.mappingStatus.rawValue,
                center: [map.center.x, map.center.y, map.center.z].map(Double.init),
                extent: [map.extent.x, map.extent.y, map.extent.z].map(Double.init),
                objectList: map.objects.map { .init(identifier: $0.identifier.description, name: $0.name) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(summary)
            print(String(decoding: data, as: UTF8.self))
            return
        }
        func metres(_ v: SIMD3<Float>) -> String { "(\(fmt(v.x)), \(fmt(v.y)), \(fmt(v.z)))" }
        let classText = classes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        print("\(file): world map version \(WorldMapCoding.version), \(size) bytes")
        print("  anchors    \(map.anchors.count)\(classText.isEmpty ? "" : " (\(classText))"), \(fmt(area)) m² covered")
        print("  objects    \(map.objects.count)\(map.objects.isEmpty ? "" : ": " + map.objects.map { "\($0.identifier) \($0.name)" }.joined(separator: ", "))")
        print("  keyframes  \(map.keyframes.count)")
        print("  points     \(map.points.count)")
        print("  center     \(metres(map.center)) m")
        print("  extent     \(fmt(map.extent.x)) × \(fmt(map.extent.y)) × \(fmt(map.extent.z)) m")
        print("  status     \(map.mappingStatus.rawValue)")
    }

    private func fmt(_ x: Float) -> String { CFormat.string("%.2f", Double(x)) }
}

/// What `map info --json` prints.
private struct MapSummary: Encodable {
    /// One placed object.
    struct Object: Encodable {
        let identifier: String
        let name: String
    }

    let file: String
    let bytes: Int
    let version: Int
    let anchors: Int
    let classes: [String: Int]
    let anchorArea: Double
    let objects: Int
    let keyframes: Int
    let points: Int
    let mappingStatus: String
    let center: [Double]
    let extent: [Double]
    let objectList: [Object]
}
