import ArgumentParser
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitAnchors
import PlaneKitCommandSupport
import PlaneKitStreamFormat

/// `planekit stream`: frames and commands in on stdin, world events out on stdout. The work is
/// ``StreamRunner``'s; this is its command line.
struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Track planes and placed objects over a stream of frames on stdin; print events as NDJSON.",
        discussion: """
            Reads the record stream of docs/stream-format.md from stdin: frame records (depth16, \
            depth32f or xyz32f payloads with intrinsics, pose and timestamp) and tap, drag, \
            rotate, remove and raycast commands. Each frame goes through a tracking session \
            (detection, plane anchors with stable identifiers, snapping, the focus indicator, \
            mapping status). Prints one JSON event per line on stdout, in input order, each with \
            the frame number and timestamp it belongs to: planeAdded, planeUpdated, \
            planeRemoved, focus, objectAdded, objectMoved, objectSnapped, objectRemoved, hit, \
            mapping and error.

            A bad record gives one error event and one line on stderr naming the record, and \
            the stream goes on (--strict stops with exit status 2 instead). An input that is not \
            a record stream at all (a PCD, a PNG, binary data) is one line saying what it looks \
            like and to use `planekit encode`, exit status 1; so is a stream in which no record \
            was good.

            With --save-map, Ctrl-C (SIGINT) finishes the record in hand, writes the map, says \
            so on stderr and exits 130; a second Ctrl-C ends the process at once.

            --distance-threshold (σ or metres), --min-plane (points) and --merge-angle override \
            what --sensor sets (docs/outputs.md).

            Invalid readings: depth16 samples of 0 and 65535 are "no reading" (65535 is how \
            7-Scenes, TUM and some RealSense modes mark it), as are depth32f values that are 0, \
            negative or not finite and xyz32f points with a coordinate that is not finite. \
            --max-depth METRES also drops readings farther than that along the camera's +Z (for \
            xyz32f, points whose z is larger) in frames whose record has no "maxDepth" of its own.

            With --png-dir, every frame is also drawn to DIR/frame-NNNNNN.png (NNNNNN: the \
            frame number of its events): depth in grey, tracked planes coloured by anchor (a \
            surface keeps its colour), the focus indicator, and placed objects as box outlines.

            With --view PORT (or ADDR:PORT), the session is also shown live in 3D in a browser, \
            as `planekit view` shows it; stdout is the same as without.

            With --host [ADDR:]PORT or --join ADDR:PORT and the space's secret (--secret-file F \
            or --secret TEXT), several streams share one space (docs/protocol.md): a joiner gets \
            the host's world map and relocalizes into it; from then on objects placed, dragged, \
            turned or removed by any peer appear at every peer with the same identifier (events \
            with a "peer" field), each peer's camera comes as participant events, and peers come \
            and go as peerJoined and peerLeft events. Channels are TLS 1.3 (authenticated by the \
            secret) and ChaCha20-Poly1305 sealed UDP. The host keeps serving after the end of \
            its input until interrupted (--linger SECONDS to stop).

            Examples:
              planekit synth --frames 120 --taps 3 | planekit stream
              planekit encode frame_*.pcd | planekit stream --stats
              planekit synth --frames 60 --taps 2 | planekit stream | grep objectAdded
              planekit synth --frames 30 --taps 1 | planekit stream --png-dir frames
              planekit synth --frames 300 --taps 2 \\
                  | planekit stream --save-map room.pkmap > /dev/null
              planekit encode --sequence redkitchen/seq-01 \\
                  | planekit stream --min-plane 3000 --stats > kitchen.ndjson
              planekit synth --frames 600 --taps 3 | planekit stream --view 8080 > e.ndjson
              planekit synth --frames 90 --taps 1 \\
                  | planekit stream --host 9000 --secret 'kitchen table 42'
              planekit synth --frames 90 --taps 1 --world-offset 30,1,0,2 \\
                  | planekit stream --join 127.0.0.1:9000 --secret 'kitchen table 42'
            """)

    @Flag(help: "Stop at the first bad record with exit status 2 instead of reporting it and going on.")
    var strict = false

    @Flag(help: "Print per-frame latency percentiles (ms) to stderr at the end (and, with --view, the view's cost).")
    var stats = false

    @Flag(help: ArgumentHelp("Track frames without a pose against the surface fused from the frames before them, not the nearest keyframe.",
                             discussion: "From depth alone, less drift on a real depth camera (5.61 against 7.92 cm on 500 frames of 7-Scenes redkitchen; with gravity 5.81 against 4.81 cm), about 2.3× the tracking time, and worse where a view leaves a direction nearly free (a floor and one bare wall). See docs/tracking.md."))
    var fusedSurface = false

    @Flag(help: ArgumentHelp("Do not learn and correct the depth camera's fixed-pattern error while tracking frames without a pose.",
                             discussion: "By default the tracker learns, from its own tracked frames, how the camera's depth errs across the image (a Kinect's by up to about 1 %) and corrects later frames, before planes are detected in them and they are tracked. A camera without such a pattern is never corrected. See docs/tracking.md."))
    var withoutDepthCalibration = false

    @Option(name: .customLong("png-dir"), help: ArgumentHelp("Write a picture of every frame to DIR/frame-NNNNNN.png.", valueName: "DIR"),
            completion: .directory)
    var pngDirectory: String?

    @Option(name: .customLong("view"),
            help: ArgumentHelp("Also serve the live 3D view of `planekit view` there (events on stdout unchanged).",
                               valueName: "ADDR:PORT"))
    var view: ListenAddress?

    @OptionGroup var range: MaxDepthOption

    @OptionGroup var maps: MapFileOptions

    @OptionGroup var sensor: SensorOption

    @OptionGroup var tuning: DetectionTuningOptions

    @OptionGroup var share: ShareOptions

    func validate() throws {
        if share.join != nil, maps.loadMap != nil { throw ValidationError("--join relocalizes into the host's map: give no --load-map") }
    }

    mutating func run() throws {
        if let pngDirectory {
            do {
                try FileManager.default.createDirectory(atPath: pngDirectory, withIntermediateDirectories: true)
            } catch {
                Diagnostics.warn("\(pngDirectory): cannot create the --png-dir folder; give one you can write to")
                throw ExitCode(1)
            }
        }
        let liveView = try view.map { try LiveViewLauncher.start($0, command: "stream") }
        let space = try share.request().map { try ShareLauncher.start($0) }
        defer { space?.close() }
        BufferHeap.keepFreedBuffers()
        // Events are short lines gathered into 64 KiB writes: the pipe tuning is for frame
        // payloads, so stdout is written plainly; stdin, full of payloads, has its pipe grown.
        var source = FileDescriptorSource()
        var options = StreamRunner<FileDescriptorSource, FileDescriptorSink>.Options(
            strict: strict, pictureDirectory: pngDirectory, maxDepth: range.maxDepth, sensor: sensor.sensor,
            initialMap: try space?.initialMap ?? maps.initialMap(), saveMapPath: maps.saveMap)
        options.refusesForeignInput = true
        options.detectionOverrides = try tuning.overrides(areaAllowed: false)
        options.tracking.registersAgainstFusedSurface = fusedSurface
        options.tracking.calibratesDepth = !withoutDepthCalibration
        // Ctrl-C must not lose a long walk's map: the frame in hand is finished, the map written,
        // then the exit status is an interrupt's. (A shared space handles SIGINT itself.)
        let savesOnInterrupt = maps.saveMap != nil && space == nil
        if savesOnInterrupt {
            Interrupt.catchFirst()
            source.endsOnInterrupt = { Interrupt.requested }
            options.shouldStop = { Interrupt.requested }
        }
        var runner = StreamRunner(source: source, sink: FileDescriptorSink(pipeSize: nil), options: options,
                                  warn: { Diagnostics.warn($0) })
        runner.observer = liveView?.observer
        runner.link = space?.link
        // Viewers get the end of the stream however the run stops.
        defer { liveView?.drain(seconds: 2) }
        do {
            try runner.run()
        } catch {
            if stats { Diagnostics.warn("stream: \(runner.latencies.summary)") }
            switch error {
            case .badRecord: throw ExitCode(2)
            case .output(let message), .notAStream(let message):
                Diagnostics.warn(message)
                throw ExitCode(1)
            }
        }
        if stats {
            Diagnostics.warn("stream: \(runner.latencies.summary)")
            if let liveView { Diagnostics.warn("stream: \(liveView.costSummary(frames: runner.latencies.count))") }
        }
        if savesOnInterrupt, Interrupt.requested, let path = maps.saveMap {
            Diagnostics.warn("interrupted: finished the record in hand and saved the world map to \(path)")
            throw ExitCode(Interrupt.exitStatus)
        }
        if runner.errorCount > 0, runner.goodRecordCount == 0 {
            Diagnostics.warn("no record of the input was good (\(runner.errorCount) bad); see docs/stream-format.md, or make a stream with `planekit encode`")
            throw ExitCode(1)
        }
    }
}
