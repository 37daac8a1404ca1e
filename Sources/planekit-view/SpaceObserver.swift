import ArgumentParser
import PlaneKitCLI
import PlaneKitShare
import PlaneKitStream
import PlaneKitCommandSupport

/// `view --join` as planekit-view runs it: joins the space as an observer, serves the view of
/// its world map, then passes on what happens in the space, until interrupted.
enum SpaceObserver {
    /// How long the loop sleeps when nothing came: poses arrive at the devices' frame rates, and
    /// a browser draws at most 60 times a second.
    static let idle = 0.01

    /// Joins, serves, and passes events on forever. A failure to join (a refusal, a wrong
    /// secret, no host there) or to listen is one line on stderr and exit status 1.
    static func run(_ request: ShareRequest, listen: ListenAddress) throws -> Never {
        let address: ListenAddress, observer: ShareObserver
        do {
            address = try SharedSpace.address(of: request.role, command: "view")
            observer = try ShareObserver(joining: address, secret: request.secret, name: request.name,
                                         progress: { _, _ in }, warn: { Diagnostics.warn($0) })
        } catch {
            Diagnostics.warn("view: \(request.role.failure): \(error)")
            throw ExitCode(1)
        }
        let view: LiveView
        do {
            view = try LiveView.start(listen, command: "view")
        } catch {
            observer.close()
            throw error
        }
        let map = observer.map
        view.hub.showSpace(map)
        Diagnostics.warn("view: observing \(observer.hostName)'s space at \(address) as \(request.name) (peer \(observer.peer.number)); "
            + "world map of \(observer.mapBytes) bytes: \(map.anchors.count) planes, \(map.objects.count) objects; "
            + "serving \(view.url) until interrupted")
        while true {
            let (events, hostGone) = observer.poll()
            view.hub.observe(events)
            if hostGone {
                observer.close()
                Diagnostics.warn("view: the host closed the space; serving its last state until interrupted")
                while true { Pause.seconds(3600) }
            }
            if events.isEmpty { Pause.seconds(idle) }
        }
    }
}
