import Foundation
import PlaneKitGeometry
import PlaneKitStream
import PlaneKitSynthesis
import Testing

import PlaneKitStreamFormat
#if canImport(Glibc)
import Glibc
import PlaneKitSyntheticWalks
#endif

/// Issue 14's end-to-end check of the resource limits: 600 good frames of a synthetic walk,
/// as `planekit synth --frames 600` writes them, mixed with 10 000 hostile records, through the
/// built `planekit stream` binary. Every good frame's events must be those of a clean run of
/// the same frames, and the process's peak memory within 10 % of the clean run's. Memory needs
/// separate processes, each measured by GNU time (see ``stream(_:input:directory:name:)``).
@Suite("Hostile records among good frames")
struct HostileStreamTests {
    static let goodFrames = 600
    static let hostileRecords = 10_000

    /// The `planekit` binary beside the test bundle (`.build/<configuration>/planekit`), or the
    /// one `PLANEKIT_BINARY` names (to show that an older build fails this test).
    static var planekit: URL {
        if let path = ProcessInfo.processInfo.environment["PLANEKIT_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("planekit")
    }

    @Test func goodFramesKeepTheirEventsAndMemoryStaysFlat() throws {
        let binary = Self.planekit
        try #require(FileManager.default.isExecutableFile(atPath: binary.path),
                     "\(binary.path) is missing: build the package (swift build, or swift test, which builds it)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("planekit-hostile-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = directory.appendingPathComponent("clean.stream"), hostile = directory.appendingPathComponent("hostile.stream")
        let clock = ContinuousClock()
        let start = clock.now
        let placed = try Self.writeStreams(clean: clean, hostile: hostile)
        #expect(placed == Self.hostileRecords)
        let written = clock.now
        let cleanRun = try Self.stream(binary, input: clean, directory: directory, name: "clean")
        let cleanDone = clock.now
        let hostileRun = try Self.stream(binary, input: hostile, directory: directory, name: "hostile")
        print("hostile stream: streams written in \(written - start), clean run \(cleanDone - written), hostile run \(clock.now - cleanDone)")
        #expect(cleanRun.status == 0 && hostileRun.status == 0)

        // Every hostile record is refused with one error event; nothing else differs.
        let errors = hostileRun.events.filter { $0.hasPrefix(#"{"event":"error""#) }
        let others = hostileRun.events.filter { !$0.hasPrefix(#"{"event":"error""#) }
        #expect(errors.count == Self.hostileRecords)
        #expect(!cleanRun.events.contains { $0.hasPrefix(#"{"event":"error""#) })
        #expect(cleanRun.events.contains { $0.hasPrefix(#"{"event":"planeAdded""#) })
        #expect(others.count == cleanRun.events.count)
        if let first = zip(others, cleanRun.events).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("event \(first + 1) differs:\n  clean:   \(cleanRun.events[first].prefix(300))\n  hostile: \(others[first].prefix(300))")
        }
        // The last record claims a 768 MiB frame and the stream ends 1 MiB later.
        #expect(errors.last?.contains("payload truncated: the stream ended after 1048576 of 805306368 bytes") == true,
                "\(errors.last ?? "")")

        // Peak memory (kB) within 10 % of the clean run's.
        let ratio = Double(hostileRun.peakKilobytes) / Double(cleanRun.peakKilobytes)
        print("hostile stream: clean peak \(cleanRun.peakKilobytes) kB, hostile peak \(hostileRun.peakKilobytes) kB (ratio \(ratio))")
        #expect(cleanRun.peakKilobytes > 0)
        #expect(ratio <= 1.10, "clean \(cleanRun.peakKilobytes) kB, hostile \(hostileRun.peakKilobytes) kB")
    }

    // MARK: Streams

    /// Writes the clean stream (600 depth16 frames of a synthetic walk) and the same frames with
    /// hostile records between them and a lying last record; returns how many hostile records
    /// were written.
    static func writeStreams(clean: URL, hostile: URL) throws -> Int {
        guard let cleanFile = fopen(clean.path, "wb"), let hostileFile = fopen(hostile.path, "wb") else {
            throw CocoaError(.fileWriteUnknown)
        }
        defer { fclose(cleanFile); fclose(hostileFile) }
        func put(_ bytes: [UInt8], _ file: UnsafeMutablePointer<FILE>) {
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        }
        let sequence = SyntheticSequence(seed: 14, frameCount: goodFrames, frameRate: 30, sensor: .kinect)
        let intrinsics = sequence.renderer.intrinsics
        var workspace = RenderWorkspace()
        var payload = [UInt8](repeating: 0, count: 2 * intrinsics.width * intrinsics.height)
        var random = SplitMix64(seed: 0x5EED_0014)
        var written = 0
        // The last hostile record is the lying frame at the end; the rest go between frames.
        let between = hostileRecords - 1
        for index in 0..<goodFrames {
            payload.withUnsafeMutableBytes { bytes in
                sequence.renderDepth16(frameAt: index, encoding: .millimetres, into: bytes, workspace: &workspace)
            }
            var frame = StreamBuilder()
            try frame.record(.frame(StreamFrame(timestamp: sequence.timestamp(ofFrame: index), width: intrinsics.width,
                                                height: intrinsics.height, encoding: .depth16, depthScale: 0.001,
                                                intrinsics: intrinsics, pose: sequence.pose(ofFrame: index), payload: payload)))
            put(frame.bytes, cleanFile)
            put(frame.bytes, hostileFile)
            var records = StreamBuilder()
            let due = between * (index + 1) / goodFrames
            while written < due {
                HostileRecords.append(kind: written, to: &records, random: &random)
                written += 1
            }
            put(records.bytes, hostileFile)
        }
        var last = StreamBuilder()
        HostileRecords.appendLyingFrame(to: &last)
        put(last.bytes, hostileFile)
        return written + 1
    }

    // MARK: Child processes

    /// What one `planekit stream` run gave: exit status, event lines and peak RSS (kB).
    struct Run {
        var status: Int32
        var events: [String]
        var peakKilobytes: Int
    }

    /// GNU time, which reports the peak RSS of the process it starts.
    static let gnuTime = "/usr/bin/time"

    /// Runs `binary stream` with `input` as stdin, the events to a file, under GNU time for its
    /// peak RSS.
    ///
    /// Not `wait4` on a child the test spawns itself: `posix_spawn` starts the child in the test
    /// process's own memory (`CLONE_VM`), and Linux carries the RSS high-water mark of the memory
    /// a process leaves at `exec` into its `ru_maxrss`, so the child would report the test
    /// runner's RSS (140 MB and growing under the parallel suite) instead of its own. GNU time
    /// forks `planekit` from its own small process and reads that child's `wait4`.
    static func stream(_ binary: URL, input: URL, directory: URL, name: String) throws -> Run {
        let output = directory.appendingPathComponent("\(name).ndjson"), errors = directory.appendingPathComponent("\(name).err")
        let peak = directory.appendingPathComponent("\(name).peak")
        try #require(FileManager.default.isExecutableFile(atPath: gnuTime),
                     "\(gnuTime) is missing: run scripts/install-deps.sh (Debian's package time)")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = [gnuTime, "-f", "%M", "-o", peak.path, binary.path, "stream"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, gnuTime, &actions, nil, &argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = try String(contentsOf: output, encoding: .utf8)
        // GNU time writes "Command exited with non-zero status N" before the figure when it did.
        let peakText = try String(contentsOf: peak, encoding: .utf8)
        let peakKilobytes = peakText.split(separator: "\n").last.flatMap { Int($0) } ?? 0
        // Exit status when it exited, else 128 + the signal.
        let exited = status & 0x7F == 0
        return Run(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
                   events: text.split(separator: "\n").map(String.init), peakKilobytes: peakKilobytes)
    }
}

/// Records `planekit stream` must refuse, each with one error event, without losing its place
/// in the stream: whatever a record's `bytes` says follows it does follow it.
enum HostileRecords {
    /// A frame header for an 80×60 depth16 frame with `fields` replaced or added (raw JSON).
    static func frameHeader(_ fields: [String: String]) -> String {
        var all: [String: String] = [
            "type": #""frame""#, "t": "0.5", "width": "80", "height": "60", "encoding": #""depth16""#,
            "depthScale": "0.001", "intrinsics": #"{"fx":60,"fy":60,"cx":40,"cy":30}"#, "bytes": "9600",
        ]
        for (key, value) in fields { all[key] = value }
        return "{" + all.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    /// Random bytes without a newline, not starting with white space (a blank line is no record).
    static func garbage(_ count: Int, random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { k in
            var b = UInt8(truncatingIfNeeded: random.next())
            while b == 0x0A || (k == 0 && (b == 0x20 || b == 0x09 || b == 0x0D)) { b = UInt8(truncatingIfNeeded: random.next()) }
            return b
        }
    }

    /// Appends hostile record number `kind` (the kinds take turns).
    static func append(kind: Int, to stream: inout StreamBuilder, random: inout SplitMix64) {
        switch kind % 24 {
        case 0:  // garbage header
            stream.raw(garbage(1 + Int(random.next() % 300), random: &random) + [0x0A])
        case 1:  // a frame whose "bytes" lies about its size; those bytes follow
            let bytes = 1 + Int(random.next() % 9_599)  // never the 9600 the frame needs
            stream.line(frameHeader(["bytes": String(bytes)]))
            stream.raw(garbage(bytes, random: &random))
        case 2:  // huge claims: 10¹⁰ pixels, or a size past Int
            stream.line(frameHeader(["width": "100000", "height": "100000", "bytes": "17"]))
            stream.raw(garbage(17, random: &random))
        case 3:
            stream.line(frameHeader(["width": "9223372036854775807", "height": "3"]))
            stream.raw([UInt8](repeating: 0, count: 9600))
        case 4:  // NaN and infinity where numbers go (not JSON), payload still skipped by "bytes"
            stream.line(frameHeader(["t": "NaN"]))
            stream.raw([UInt8](repeating: 0xFF, count: 9600))
        case 5:
            stream.line(frameHeader(["depthScale": "Infinity"]))
            stream.raw([UInt8](repeating: 0x7F, count: 9600))
        case 6:  // numbers JSON allows but the fields do not
            stream.line(frameHeader(["depthScale": "-1"]))
            stream.raw([UInt8](repeating: 0, count: 9600))
        case 7:
            stream.line(frameHeader(["intrinsics": #"{"fx":0,"fy":60,"cx":40,"cy":30}"#]))
            stream.raw([UInt8](repeating: 0, count: 9600))
        case 8:  // a pose that is not rigid
            stream.line(frameHeader(["pose": "[" + Array(repeating: "1e300", count: 16).joined(separator: ",") + "]"]))
            stream.raw([UInt8](repeating: 0, count: 9600))
        case 9:  // wrong types
            stream.line(frameHeader(["width": #""eighty""#]))
            stream.raw([UInt8](repeating: 0, count: 9600))
        case 10:
            stream.line(#"{"type":42}"#)
        case 11:
            stream.line("[1,2,3]")
        case 12:
            stream.line(#"{"type":"tap","x":"left","y":1}"#)
        case 13:
            stream.line(#"{"type":"drag","object":"","x":1,"y":1,"bytes":100}"#)
            stream.raw(garbage(100, random: &random))
        case 14:
            stream.line(#"{"type":"raycast","x":1,"y":2,"origin":[0,0,0],"direction":[0,0,1]}"#)
        case 15:
            stream.line(#"{"type":"teleport","bytes":5}"#)
            stream.raw(garbage(5, random: &random))
        case 16:  // bad JSON
            stream.line(#"{"type":"frame","t":0.5,"width":80,"#)
        case 17:
            stream.line(#"{"type":"frame",,"t":1}"#)
        case 18:  // nesting past the limit, and more values than a header may hold
            stream.line(String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
        case 19:
            stream.line(#"{"type":"frame","pose":["# + Array(repeating: "0", count: 6_000).joined(separator: ",") + "]}")
        case 20:  // a long string value, and invalid UTF-8
            stream.line(#"{"type":""# + String(repeating: "x", count: 20_000) + #""}"#)
        case 21:
            stream.raw(Array(#"{"type":"frame","name":""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8) + [0x0A])
        case 22:  // a header line longer than the 1 MiB allowed (rarely: it is 1.1 MiB of input)
            if kind % 960 == 22 {
                stream.line(#"{"type":""# + String(repeating: "y", count: 1_100_000) + #""}"#)
            } else {
                stream.line(#"{"type":"rotate","object":"object-1","angle":"quarter"}"#)
            }
        default:  // a command for an object that does not exist
            stream.line(#"{"type":"remove","object":"object-404"}"#)
        }
    }

    /// A frame that claims 64 Mi pixels of xyz32f (768 MiB) and then sends 1 MiB before the
    /// stream ends: the reader must not grow for the claim.
    static func appendLyingFrame(to stream: inout StreamBuilder) {
        stream.line(#"{"type":"frame","t":99,"width":8192,"height":8192,"encoding":"xyz32f","bytes":805306368}"#)
        stream.raw([UInt8](repeating: 0x41, count: 1 << 20))
    }
}
