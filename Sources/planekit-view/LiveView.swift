import ArgumentParser
import FoundationEssentials
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitMaps
import PlaneKitCLI
import PlaneKitView
import PlaneKitCommandSupport

/// The live view as `view` and `stream --view` run it: a `ViewHub` watching the stream and
/// its server started on a task of its own, so the command's thread is left to the stream.
struct LiveView: LiveViewSession {
    /// The hub to set as the stream runner's observer.
    let hub: ViewHub
    /// Where the page is.
    let url: String

    var observer: any StreamObserver { hub }

    var framesSeen: Int { hub.statistics.frames }

    /// Starts the server on `address` and says where the page is on stderr; one line and exit
    /// status 1 when it cannot listen. `command` names the command in messages.
    static func start(_ address: ListenAddress, command: String) throws -> LiveView {
        let hub = ViewHub()
        let server = ViewServer(hub: hub, address: address)
        let missing = server.missingThreeFiles
        if !missing.isEmpty {
            Diagnostics.warn("\(command): \(missing.joined(separator: ", ")) missing: the page cannot draw without Debian's libjs-three (scripts/install-deps.sh installs it)")
        }
        let port: Int
        do {
            port = try server.startInBackground()
        } catch {
            Diagnostics.warn("\(command): \(error)")
            throw ExitCode(1)
        }
        let host = address.host.contains(":") ? "[\(address.host)]" : address.host
        let url = "http://\(host):\(port)/"
        Diagnostics.warn("\(command): serving the view at \(url)")
        return LiveView(hub: hub, url: url)
    }

    /// What the view cost the stream's thread over `frames` frames, for `--stats`.
    func costSummary(frames: Int) -> String {
        let statistics = hub.statistics
        let microseconds = statistics.streamThreadTime.milliseconds * 1000 / Double(max(frames, 1))
        return "view: \(CFormat.string("%.1f", microseconds)) µs CPU a frame on the stream's thread, "
            + "\(statistics.connections) viewers connected, \(statistics.pointMessages) points messages, "
            + "\(statistics.overflows) times a viewer fell behind"
    }

    /// Hands the map to the hub: every viewer sees its planes, objects and keyframe path.
    func show(_ map: WorldMap) {
        hub.show(map)
    }

    /// Gives connected viewers up to `seconds` to take what is queued for them (the end of the
    /// stream included), so a command that exits at the end of its input does not cut them off.
    func drain(seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !hub.isDrained, Date() < deadline { Pause.seconds(0.02) }
        // Their last message may still be in the socket's way out.
        if hub.statistics.viewers > 0 { Pause.seconds(0.2) }
    }
}
