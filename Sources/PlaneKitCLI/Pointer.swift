import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import PlaneKitGeometry
import PlaneKitStream
import PlaneKitCommandSupport
import PlaneKitInput
import PlaneKitStreamFormat

/// `planekit pointer`: a phone as a 3D mouse in a shared space (its attitude streamed as the pointer's aim).
/// Reads attitude records on stdin and streams them, sealed, to the space's device peers, which
/// cast the pointer's ray into their planes and print `pointer` events.
struct Pointer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pointer",
        abstract: "Join a shared space as a pointer (a phone as a 3D mouse): stream attitude records from stdin.",
        discussion: """
            Reads attitude records ({"type":"attitude","quaternion":[x,y,z,w],"timestamp":S}, \
            docs/stream-format.md) from stdin, joins the space hosted at ADDR:PORT (or advertised \
            as NAME) as a pointer peer — it gets no world map — and sends each attitude as a \
            ChaCha20-Poly1305 sealed datagram. Every device peer of the space (stream --host or \
            --join) turns them into the pointer's ray, from --origin, its first attitude aiming \
            along --forward's heading, and prints pointer events with what the ray hits.

            With --realtime (the default unless stdin is a terminal) records are sent at the \
            spacing of their timestamps, as the phone sampled them, also when read from a file; \
            --no-realtime sends them as they are read. A bad record (not an attitude, not a unit \
            quaternion, a timestamp not after the previous one, not JSON) gives one line on \
            stderr naming it, and the stream goes on.

            Example:
              planekit pointer --join 127.0.0.1:9000 --secret 'kitchen table 42' \\
                  --origin 0,1.4,0 --forward 0,0,-1 < attitudes.ndjson
            """)

    @Option(name: .customLong("join"),
            help: ArgumentHelp("The shared space to point into: its host's address, or the name it is advertised under.",
                               valueName: "ADDR:PORT|NAME"))
    var join: String

    @Option(name: .customLong("secret-file"), help: ArgumentHelp("The space's secret: the file's bytes (a final newline dropped).", valueName: "FILE"),
            completion: .file())
    var secretFile: String?

    @Option(name: .customLong("secret"), help: ArgumentHelp("The space's secret as text (for scripts; it shows in the process list).", valueName: "TEXT"))
    var secret: String?

    @Option(help: "This pointer's name in the space (default: pointer-PID).")
    var name: String?

    @Option(help: ArgumentHelp("Where the pointer's rays start in the shared world (metres): where its user stands.", valueName: "X,Y,Z"))
    var origin: String = "0,0,0"

    @Option(help: ArgumentHelp("The shared-world direction whose heading the first attitude aims along (not vertical).", valueName: "X,Y,Z"))
    var forward: String = "0,0,-1"

    @Flag(inversion: .prefixedNo, help: "Send records at the spacing of their timestamps (default: on unless stdin is a terminal).")
    var realtime: Bool?

    func validate() throws {
        try ShareOptions.validatePeer(join: join, secret: secret, secretFile: secretFile, name: name)
        guard Self.point(origin) != nil else { throw ValidationError("--origin takes x,y,z (three finite numbers, metres)") }
        guard let f = Self.point(forward), f.length > 0, SIMD3(f.x, 0, f.z).length >= 0.1 * f.length else {
            throw ValidationError("--forward takes x,y,z, a direction that is not (nearly) vertical")
        }
    }

    func run() throws {
        let request = PointerRequest(
            space: ShareOptions.joinRole(join),
            secret: try ShareOptions.secretBytes(secret: secret, file: secretFile),
            name: name ?? "pointer-\(getpid())", origin: Self.point(origin) ?? .zero, forward: Self.point(forward) ?? SIMD3(0, 0, -1))
        let session = try PointerLauncher.start(request)
        defer { session.close() }
        var sender = AttitudeSender(session: session, realtime: realtime ?? (isatty(STDIN_FILENO) != 1))
        let reader = StreamRecordReader(source: FileDescriptorSource())
        reading: while true {
            do throws(StreamError) {
                guard let record = try reader.read() else { break reading }
                if case .attitude(let attitude) = record {
                    try sender.send(attitude, number: reader.recordNumber)
                } else {
                    throw StreamError(recordNumber: reader.recordNumber, message: "a \(record.typeName) record is not an attitude; skipped")
                }
            } catch {
                Diagnostics.warn("pointer: \(error)")
                if error.recordNumber == 0 { break reading }
            }
            if let why = session.ended {
                Diagnostics.warn("pointer: the space is gone (\(why))")
                throw ExitCode(1)
            }
        }
        Diagnostics.warn("pointer: sent \(sender.sent) attitudes, \(sender.refused) refused")
    }

    /// `x,y,z` as three finite numbers.
    static func point(_ text: String) -> SIMD3<Float>? {
        let parts = CFormat.floats(commaSeparated: text)
        guard parts.count == 3, let x = parts[0], let y = parts[1], let z = parts[2], SIMD3(x, y, z).isFinite else { return nil }
        return SIMD3(x, y, z)
    }
}

/// Sends attitudes in order, each later than the one before, at their own pace when asked.
struct AttitudeSender {
    let session: any PointerSession
    let realtime: Bool
    private var timeline = AttitudeTimeline()
    /// The first record's timestamp and when it was sent: later ones are due at the same offset.
    private var start: (timestamp: Double, instant: ContinuousClock.Instant)?
    private(set) var sent = 0
    private(set) var refused = 0

    init(session: any PointerSession, realtime: Bool) {
        self.session = session
        self.realtime = realtime
    }

    /// Sends `attitude` (record `number`), after waiting for its time in realtime mode.
    mutating func send(_ attitude: AttitudeRecord, number: Int) throws(StreamError) {
        do {
            try timeline.accept(attitude, number: number)
        } catch {
            refused += 1
            throw error
        }
        if realtime {
            if let start {
                let due = start.instant + .nanoseconds(Int64(((attitude.timestamp - start.timestamp) * 1e9).rounded()))
                let wait = due - ContinuousClock.now
                // A gap of more than a minute is a pause of the sensor, not a rate: wait a minute at most.
                if wait > .zero { Pause.seconds(min(60, Double(wait.components.seconds) + Double(wait.components.attoseconds) * 1e-18)) }
            } else {
                start = (attitude.timestamp, ContinuousClock.now)
            }
        }
        do {
            try session.send(attitude)
            sent += 1
        } catch {
            throw StreamError(recordNumber: number, message: "cannot send the attitude: \(error)")
        }
    }
}

/// What `planekit pointer` asks of the executable that has the network: see ``PointerLauncher``.
public struct PointerRequest: Sendable {
    /// The space to join (`.join` or `.joinAdvertised`; never `.host`).
    public var space: ShareRequest.Role
    /// The space's secret.
    public var secret: [UInt8]
    /// This pointer's name.
    public var name: String
    /// Where its rays start (shared world, metres).
    public var origin: SIMD3<Float>
    /// The direction whose heading its first attitude aims along.
    public var forward: SIMD3<Float>
}

/// A pointer's place in a shared space, as the starter made it.
public protocol PointerSession: AnyObject {
    /// Sends one attitude (sealed, numbered).
    func send(_ attitude: AttitudeRecord) throws
    /// Why the space is gone (the host left or dropped this pointer), or `nil` while it is there.
    var ended: String? { get }
    /// Leaves the space (once; later calls do nothing).
    func close()
}

/// Starts a pointer peer, or hands the command to the executable that can (as `ShareLauncher`).
public enum PointerLauncher {
    /// How this executable joins a space as a pointer: set by `planekit-view` before it parses
    /// its arguments, nil in `planekit`. Written once at start-up, before any other thread exists.
    nonisolated(unsafe) public static var starter: ((PointerRequest) throws -> any PointerSession)?

    /// The session for `request`; in an executable without the network, the process continues
    /// as `planekit-view` and this does not return.
    static func start(_ request: PointerRequest) throws -> any PointerSession {
        if let starter { return try starter(request) }
        try ViewExecutable.handOver(command: "pointer", purpose: "shared spaces")
    }
}
