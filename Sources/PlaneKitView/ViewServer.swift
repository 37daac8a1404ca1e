import FoundationEssentials
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import PlaneKitStream

/// The live view's web server: one page, its script, Debian's three.js, the current state as
/// NDJSON, and a WebSocket that pushes the stream's events (see `docs/view.md`).
///
/// | path | what |
/// | --- | --- |
/// | `/` | the page |
/// | `/view.js` | its script |
/// | `/three.min.js`, `/OrbitControls.js` | three.js and its orbit controls, read from ``threeDirectory`` |
/// | `/snapshot.ndjson` | the current state, the messages a new viewer gets first |
/// | `/events` | the WebSocket |
public struct ViewServer: Sendable {
    /// Where Debian's `libjs-three` puts three.js.
    public static let debianThreeDirectory = "/usr/share/javascript/three"

    /// The hub whose events are served.
    public let hub: ViewHub
    /// Where to listen.
    public let address: ListenAddress
    /// The folder holding `build/three.min.js` and `examples/js/controls/OrbitControls.js`.
    public let threeDirectory: String

    /// A server for `hub` on `address`, with three.js from `threeDirectory`.
    public init(hub: ViewHub, address: ListenAddress, threeDirectory: String = ViewServer.debianThreeDirectory) {
        self.hub = hub
        self.address = address
        self.threeDirectory = threeDirectory
    }

    /// The three.js files served, by URL path, and where they are on disk.
    public var threeFiles: [(path: String, file: String)] {
        [("/three.min.js", threeDirectory + "/build/three.min.js"),
         ("/OrbitControls.js", threeDirectory + "/examples/js/controls/OrbitControls.js")]
    }

    /// The three.js files that are missing on disk (empty when the view can draw).
    public var missingThreeFiles: [String] {
        threeFiles.map(\.file).filter { !FileManager.default.isReadableFile(atPath: $0) }
    }

    /// Serves until the task is cancelled or the server fails (cannot bind the address, say);
    /// `onRunning` gets the bound port once connections are accepted.
    public func run(onRunning: @escaping @Sendable (Int) -> Void) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { _, _ in
            ViewServer.response(ViewPage.html, type: "text/html; charset=utf-8")
        }
        router.get("/view.js") { _, _ in
            ViewServer.response(ViewPage.script, type: "text/javascript; charset=utf-8")
        }
        for (path, file) in threeFiles {
            // Read once: the files do not change while the view runs.
            let contents = FileManager.default.contents(atPath: file)
            router.get(RouterPath(path)) { _, _ in
                guard let contents else {
                    return ViewServer.response("\(file) is missing: install Debian's libjs-three (scripts/install-deps.sh)\n",
                                               type: "text/plain; charset=utf-8", status: .notFound)
                }
                return Response(status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(bytes: contents)))
            }
        }
        let hub = self.hub
        router.get("/snapshot.ndjson") { _, _ in
            ViewServer.response(hub.snapshot().joined(), type: "application/x-ndjson")
        }
        router.ws("/events") { inbound, outbound, _ in
            try await ViewerConnection(hub: hub).serve(inbound: inbound, outbound: outbound)
        }
        var logger = Logger(label: "planekit-view")
        // Client mistakes (a dropped connection, a bad frame) are not the operator's business.
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                // Viewers send nothing: small frames are plenty, and a large one is garbage.
                configuration: .init(ws: .init(maxFrameSize: 4096, closeTimeout: .seconds(2)))),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: "planekit view"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.run()
    }

    private static func response(_ text: String, type: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
