import PlaneKitStream
import PlaneKitCommandSupport

/// Runs `planekit view --join`: the live view as an observer of a shared space, or hands the
/// command over to the executable that has the network and the web server.
///
/// Both (NIO, BoringSSL, Hummingbird) are linked into `planekit-view` only, so `planekit view
/// --join` continues there with `execv`, as `view` and `stream --host/--join` do
/// (`LiveViewLauncher`, `ShareLauncher`).
public enum ObserverLauncher {
    /// How this executable observes a space (the request, where to serve the view): set by
    /// `planekit-view` before it parses its arguments, nil in `planekit`. Written once at
    /// start-up, before any other thread exists. It serves until interrupted.
    nonisolated(unsafe) public static var starter: ((ShareRequest, ListenAddress) throws -> Never)?

    /// Observes the space `request` names, serving the view on `listen`; in an executable
    /// without the network, the process continues as `planekit-view`. Never returns.
    static func start(_ request: ShareRequest, listen: ListenAddress) throws -> Never {
        if let starter { try starter(request, listen) }
        try ViewExecutable.handOver(command: "view", purpose: "observing a shared space")
    }
}
