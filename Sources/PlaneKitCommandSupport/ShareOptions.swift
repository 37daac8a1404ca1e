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

/// `stream --host [ADDR:]PORT` / `--join ADDR:PORT|NAME` with `--secret-file F` or `--secret TEXT`:
/// the stream takes part in a shared space (docs/protocol.md); a host advertises itself by its
/// `--name` on the local network when avahi-daemon runs (docs/discovery.md).
package struct ShareOptions: ParsableArguments {
    package init() {}

    @Option(name: .customLong("host"),
            help: ArgumentHelp("Host a shared space there (TLS over TCP and sealed UDP on that port; 0: any free port, printed on stderr).",
                               valueName: "ADDR:PORT"))
    package var host: ListenAddress?

    @Option(name: .customLong("join"),
            help: ArgumentHelp("Join the shared space hosted there, or the one a host advertises under NAME on the local network (DNS-SD through avahi-daemon): relocalize into the host's world map, then share objects and poses.",
                               valueName: "ADDR:PORT|NAME"))
    package var join: String?

    @Option(name: .customLong("secret-file"),
            help: ArgumentHelp("The space's secret: the file's bytes (a final newline dropped). Peers with another secret are refused.",
                               valueName: "FILE"), completion: .file())
    var secretFile: String?

    @Option(name: .customLong("secret"), help: ArgumentHelp("The space's secret as text (for scripts; it shows in the process list).",
                                                             valueName: "TEXT"))
    var secret: String?

    @Option(help: "This peer's name in the space (default: host, or peer-PID when joining).")
    package var name: String?

    @Option(name: .customLong("max-peers"), help: "With --host: the most peers in the space, the host included.")
    package var maxPeers = 8

    @Option(help: ArgumentHelp("After the end of the input: a host closes its space once it has been empty this long (default: never, until interrupted); a joiner stays this long (default 0).",
                               valueName: "SECONDS"))
    package var linger: Double?

    package func validate() throws {
        if host != nil, join != nil { throw ValidationError("give --host or --join, not both") }
        guard host != nil || join != nil else {
            if secretFile != nil || secret != nil || name != nil || linger != nil {
                throw ValidationError("--secret-file, --secret, --name and --linger go with --host or --join")
            }
            return
        }
        try Self.validatePeer(join: join, secret: secret, secretFile: secretFile, name: name)
        if let linger, !(linger >= 0 && linger <= 86_400) { throw ValidationError("--linger takes 0 to 86400 seconds") }
        if !(2...64).contains(maxPeers) { throw ValidationError("--max-peers must be from 2 to 64") }
    }

    /// The request for the share starter, or `nil` when the stream is not shared.
    package func request() throws -> ShareRequest? {
        let role: ShareRequest.Role
        if let host {
            role = .host(host)
        } else if let join {
            role = Self.joinRole(join)
        } else {
            return nil
        }
        let bytes = try Self.secretBytes(secret: secret, file: secretFile)
        let defaultName = host != nil ? "host" : "peer-\(getpid())"
        return ShareRequest(role: role, secret: bytes, name: name ?? defaultName, maxPeers: maxPeers, linger: linger)
    }

    /// What every command that takes part in a space checks (`stream`, `pointer`, `view --join`):
    /// one secret, a name of 1 to 256 bytes, and a `--join` that is an address or a DNS-SD name.
    package static func validatePeer(join: String?, secret: String?, secretFile: String?, name: String?) throws {
        if (secretFile == nil) == (secret == nil) { throw ValidationError("give the space's secret with --secret-file FILE or --secret TEXT (one of them)") }
        if let name, name.isEmpty || name.utf8.count > 256 { throw ValidationError("--name must have 1 to 256 bytes") }
        // DNS-SD's 63-byte limit is for names only: an address (a scoped IPv6 one can be longer) is not looked up.
        if let join, ListenAddress(parsing: join) == nil, join.isEmpty || join.utf8.count > 63 {
            throw ValidationError("--join takes ADDR:PORT or an advertised name of 1 to 63 bytes (DNS-SD's limit for a name)")
        }
    }

    /// The space `--join TEXT` names. A name is anything that is not an address: "Kitchen" is
    /// looked up, "10.0.0.2:7000" is not.
    package static func joinRole(_ join: String) -> ShareRequest.Role {
        ListenAddress(parsing: join).map { .join($0) } ?? .joinAdvertised(name: join)
    }

    /// The space's secret: `secret`'s bytes, or the file's (a final newline dropped); an
    /// unreadable file is one line and exit status 1.
    package static func secretBytes(secret: String?, file: String?) throws -> [UInt8] {
        if let secret { return Array(secret.utf8) }
        guard let file, let data = FileManager.default.contents(atPath: file) else {
            Diagnostics.warn("\(file ?? ""): cannot read the --secret-file")
            throw ExitCode(1)
        }
        var bytes = Array(data)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return bytes
    }
}

/// What `stream --host/--join` asks of the executable that has the network: see ``ShareLauncher``.
public struct ShareRequest: Sendable {
    /// Host or join, and where.
    public enum Role: Sendable {
        /// Host a space on this address.
        case host(ListenAddress)
        /// Join the space hosted at this address.
        case join(ListenAddress)
        /// Join the space a host advertises under this DNS-SD instance name (`_planekit._tcp`).
        case joinAdvertised(name: String)
    }

    /// Host or join.
    public var role: Role
    /// The space's secret.
    public var secret: [UInt8]
    /// This peer's name.
    public var name: String
    /// The most peers (host included), for a host.
    public var maxPeers: Int
    /// Seconds to stay after the end of the input (`nil`: the role's default).
    public var linger: Double?
}

extension ShareRequest.Role {
    /// What could not be done, for the one line a failure to host or join gives:
    /// `cannot host a space on ADDR`, `cannot join the space at ADDR` or
    /// `cannot join the space advertised as 'NAME'`.
    public var failure: String {
        switch self {
        case .host(let address): "cannot host a space on \(address)"
        case .join(let address): "cannot join the space at \(address)"
        case .joinAdvertised(let name): "cannot join the space advertised as '\(name)'"
        }
    }
}

/// A stream's place in a shared space, as the starter made it.
public protocol SharedSpaceSession {
    /// What to set as the stream runner's link.
    var link: any StreamPeerLink { get }
    /// For a joiner, the host's world map to relocalize into (and how to name it in `mapLoaded`).
    var initialMap: (map: WorldMap, path: String)? { get }
    /// Leaves the space (once; later calls do nothing).
    func close()
}

/// Starts a shared space, or hands the command to the executable that can.
///
/// The network (NIO, BoringSSL, swift-crypto) is linked into `planekit-view` only, so that
/// `planekit` starts without it: `planekit stream --host/--join` continues there with `execv`,
/// as `--view` does (``LiveViewLauncher``).
public enum ShareLauncher {
    /// How this executable starts a shared space: set by `planekit-view` before it parses its
    /// arguments, nil in `planekit`. Written once at start-up, before any other thread exists.
    nonisolated(unsafe) public static var starter: ((ShareRequest) throws -> any SharedSpaceSession)?
    /// How this executable runs one `bench share` run (peers, rate, seconds, map MB); set with ``starter``.
    nonisolated(unsafe) public static var bench: ((Int, Double, Double, Double) throws -> ShareBenchFigures)?

    /// The space for `request`; in an executable without the network, the process continues as
    /// `planekit-view` and this does not return.
    package static func start(_ request: ShareRequest) throws -> any SharedSpaceSession {
        if let starter { return try starter(request) }
        try ViewExecutable.handOver(command: "stream", purpose: "shared spaces")
    }
}

/// One run of `bench share`, as the network's executable measured it.
public struct ShareBenchFigures: Sendable {
    /// Pose latency percentiles (ms).
    public var poseP50: Double, poseP99: Double
    /// Object change latency percentiles (ms).
    public var objectP50: Double, objectP99: Double
    /// Pointer attitude latency percentiles (ms).
    public var pointerP50: Double, pointerP99: Double
    /// The median time a joiner took to join with the map (s).
    public var mapSeconds: Double
    /// The map's size (bytes).
    public var mapBytes: Int
    /// Poses and object arrivals measured.
    public var poses: Int, objects: Int
    /// Pointer attitudes measured.
    public var attitudes: Int

    /// Figures from their parts.
    public init(poseP50: Double, poseP99: Double, objectP50: Double, objectP99: Double, pointerP50: Double, pointerP99: Double,
                mapSeconds: Double, mapBytes: Int, poses: Int, objects: Int, attitudes: Int) {
        (self.poseP50, self.poseP99, self.objectP50, self.objectP99) = (poseP50, poseP99, objectP50, objectP99)
        (self.pointerP50, self.pointerP99) = (pointerP50, pointerP99)
        (self.mapSeconds, self.mapBytes, self.poses, self.objects, self.attitudes) = (mapSeconds, mapBytes, poses, objects, attitudes)
    }
}
