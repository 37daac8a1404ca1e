import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitMaps
import PlaneKitCommandSupport

/// `stream --save-map FILE` and `--load-map FILE`: world maps in and out of a stream.
struct MapFileOptions: ParsableArguments {
    @Option(name: .customLong("save-map"),
            help: ArgumentHelp("Write the session's world map to FILE when the input ends (a mapSaved event says so).", valueName: "FILE"),
            completion: .file())
    var saveMap: String?

    @Option(name: .customLong("load-map"),
            help: ArgumentHelp("Relocalize into the world map in FILE: frames are tracked in their own world until they register against it (a relocalized event), then everything is in the map's world.", valueName: "FILE"),
            completion: .file())
    var loadMap: String?

    /// The map to start from, read and checked; a bad file is one line on stderr and exit status 1.
    func initialMap() throws -> (map: WorldMap, path: String)? {
        guard let loadMap else { return nil }
        do {
            return (try WorldMapCoding.read(loadMap), loadMap)
        } catch {
            Diagnostics.warn("\(error)")
            throw ExitCode(1)
        }
    }
}
