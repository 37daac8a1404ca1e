import ArgumentParser
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitMaps
import PlaneKitCommandSupport
import PlaneKitStreamFormat

/// `planekit view`: a stream of frames on stdin, tracked as `stream` does, shown live in 3D in a
/// browser; or a saved world map (`--map`); or a shared space, joined as an observer (`--join`).
struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Show a stream of frames on stdin live in 3D, in a browser.",
        discussion: """
            Reads the record stream of docs/stream-format.md from stdin and tracks it as \
            `planekit stream` does, but instead of printing events serves a web page that draws \
            the session in 3D as it runs: the depth frame as points, plane anchors as outlines \
            coloured by identifier and labelled with their class, placed objects as boxes, the \
            focus indicator and the camera's path. The page's updates come over a WebSocket at \
            /events as the stream's own NDJSON events, so any other client can follow them too \
            (docs/view.md).

            It listens on loopback (127.0.0.1:8080) unless --listen says otherwise; port 0 \
            takes any free port. The page's address is printed on stderr. The command ends \
            with its input, after giving viewers a moment to receive the end; --hold keeps \
            serving the final state until interrupted. three.js comes from Debian's libjs-three \
            (scripts/install-deps.sh), so the page works offline.

            --map FILE shows a saved world map (docs/world-map.md) instead, without reading \
            stdin: its planes (outlines coloured by identifier, class labels), placed objects \
            and the keyframe cameras' path, served until interrupted.

            Examples:
              planekit synth --frames 600 --taps 3 | planekit view --realtime
              planekit synth --frames 60 --seed 3 | planekit view --listen 127.0.0.1:0 \\
                  --hold
              planekit encode frame_*.pcd | planekit view --listen 0.0.0.0:8080 --hold
              planekit synth --frames 300 --taps 2 | planekit stream --view 8081 > e.ndjson
              planekit view --map room.pkmap --listen 127.0.0.1:0
              planekit view --join 127.0.0.1:7000 --secret-file space.secret --name wall

            --join ADDR:PORT|NAME (with --secret-file FILE or --secret TEXT, and --name, default \
            view-PID) joins \
            a shared space (docs/protocol.md) as an observer instead, without reading stdin: \
            the page shows the host's world map, then live the objects every peer places, \
            moves and removes, and every participant's camera, named and with a short trail. \
            The observer places nothing and sends no pose; it counts for the host's \
            --max-peers and the others see it come and go as a peer. NAME is looked up on \
            the local network as `stream --join NAME` does. Served until interrupted. \
            (--host, --max-peers and --linger are stream's.)
            """)

    @Option(help: ArgumentHelp("Where to serve the page: ADDR:PORT, [IPv6]:PORT, or PORT on loopback.", valueName: "ADDR:PORT"))
    var listen = ListenAddress.loopback(port: 8080)

    @Flag(help: "Keep serving the final state after the input ends, until interrupted.")
    var hold = false

    @Option(help: ArgumentHelp("Show this saved world map instead of a stream on stdin (served until interrupted).",
                               valueName: "FILE"))
    var map: String?

    @Flag(help: "Play frames at the pace of their timestamps instead of as fast as they come.")
    var realtime = false

    @OptionGroup var range: MaxDepthOption

    @OptionGroup var sensor: SensorOption

    @OptionGroup var share: ShareOptions

    func validate() throws {
        if share.host != nil { throw ValidationError("view observes a space with --join; --host is stream's") }
        if share.linger != nil { throw ValidationError("--linger is stream's; view --join serves until interrupted") }
        if share.maxPeers != 8 { throw ValidationError("--max-peers goes with stream --host") }
        if share.join != nil, map != nil { throw ValidationError("give --map or --join, not both") }
    }

    mutating func run() throws {
        if let map {
            try show(mapAt: map)
        }
        if var request = try share.request() {
            request.name = share.name ?? "view-\(getpid())"
            try ObserverLauncher.start(request, listen: listen)
        }
        let view = try LiveViewLauncher.start(listen, command: "view")
        BufferHeap.keepFreedBuffers()
        var runner = StreamRunner(source: FileDescriptorSource(), sink: DiscardingByteSink(),
                                  options: .init(maxDepth: range.maxDepth, sensor: sensor.sensor),
                                  warn: { Diagnostics.warn($0) })
        runner.observer = realtime ? PacedObserver(view.observer) : view.observer
        do {
            try runner.run()
        } catch {
            Diagnostics.warn("view: \(error)")
        }
        let frames = view.framesSeen
        guard hold else {
            view.drain(seconds: 2)
            return
        }
        Diagnostics.warn("view: input ended after \(frames) frames; serving \(view.url) until interrupted")
        // The server runs on its own threads; this one only waits for a signal to end the process.
        while true { Pause.seconds(3600) }
    }
}

extension View {
    /// `--map FILE`: reads the map before the server starts (a bad file is one line and exit
    /// status 1), shows it, and serves it until interrupted.
    private func show(mapAt path: String) throws -> Never {
        let worldMap: WorldMap
        do {
            worldMap = try WorldMapCoding.read(path)
        } catch {
            Diagnostics.warn("view: \(error)")
            throw ExitCode(1)
        }
        let view = try LiveViewLauncher.start(listen, command: "view")
        view.show(worldMap)
        Diagnostics.warn("view: map \(path): \(worldMap.anchors.count) planes, \(worldMap.objects.count) objects, "
            + "\(worldMap.keyframes.count) keyframes; serving \(view.url) until interrupted")
        while true { Pause.seconds(3600) }
    }
}

/// Hands everything on to the view, and after each frame waits until as much time has passed since
/// the first frame as the frames' timestamps say (`view --realtime`: a generated or recorded
/// stream otherwise runs many times faster than it was filmed).
private final class PacedObserver: StreamObserver {
    private let hub: any StreamObserver
    private var start: (wall: ContinuousClock.Instant, timestamp: Double)?

    init(_ hub: any StreamObserver) { self.hub = hub }

    func streamRunner(didWrite event: StreamEvent, line: UnsafeRawBufferPointer) {
        hub.streamRunner(didWrite: event, line: line)
    }

    func streamRunner(didCarryOut record: StreamRecord, processor: StreamProcessor) {
        hub.streamRunner(didCarryOut: record, processor: processor)
        guard case .frame = record else { return }
        let timestamp = processor.session.timestamp
        guard let start else {
            self.start = (ContinuousClock.now, timestamp)
            return
        }
        let due = start.wall + .milliseconds(Int64(((timestamp - start.timestamp) * 1000).rounded()))
        let wait = due - ContinuousClock.now
        // A timestamp far ahead (a gap in a recording) waits at most a second.
        if wait > .zero { Pause.seconds(min(wait.milliseconds / 1000, 1)) }
    }

    func streamRunner(didEnd processor: StreamProcessor) {
        hub.streamRunner(didEnd: processor)
    }
}
