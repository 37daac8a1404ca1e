import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitMaps
import PlaneKitCLI
import PlaneKitDiscovery
import PlaneKitShare
import Synchronization
import PlaneKitCommandSupport

/// `stream --host/--join` as planekit-view runs it: the space's network on its own event loop,
/// the stream's link to it, and (for a joiner) the host's map to relocalize into.
final class SharedSpace: SharedSpaceSession {
    private let shareLink: ShareLink
    /// A host's DNS-SD advertisement, while it hosts; nil when discovery is off or for a joiner.
    private let advertiser: ServiceAdvertiser?
    let initialMap: (map: WorldMap, path: String)?

    var link: any StreamPeerLink { shareLink }

    /// Hosts or joins as `request` says; one line on stderr says where. A failure (a port in
    /// use, a refusal, a wrong secret) is one line and exit status 1.
    init(_ request: ShareRequest) throws {
        let warn: (String) -> Void = { Diagnostics.warn($0) }
        do {
            switch request.role {
            case .host(let address):
                shareLink = try ShareLink.host(on: address, secret: request.secret, name: request.name, maxPeers: request.maxPeers,
                                               linger: request.linger, warn: warn)
                initialMap = nil
                let host = address.host.contains(":") ? "[\(address.host)]" : address.host
                Diagnostics.warn("stream: hosting a shared space on \(host):\(shareLink.port) as \(request.name)")
                advertiser = SharedSpace.advertise(name: request.name, address: address, port: shareLink.port)
            case .join, .joinAdvertised:
                let address = try SharedSpace.address(of: request.role)
                let bar = MapProgress()
                shareLink = try ShareLink.join(address, secret: request.secret, name: request.name, linger: request.linger,
                                               progress: { received, total in
                                                   bar.bar.withLock { b in
                                                       if b.total != total { b = ProgressBar(total: total, label: "stream: world map (bytes)") }
                                                       b.update(received)
                                                       if received == total { b.finish() }
                                                   }
                                               }, warn: warn)
                guard let joined = shareLink.joinedMap else { throw ShareError.connection("no world map") }
                initialMap = (joined.map, "\(joined.host)@\(address)")
                Diagnostics.warn("stream: joined \(joined.host)'s space at \(address) as \(request.name) (peer \(shareLink.peer.number)); world map of \(joined.bytes) bytes")
                advertiser = nil
            }
        } catch {
            Diagnostics.warn("stream: \(request.role.failure): \(error)")
            throw ExitCode(1)
        }
    }

    func close() {
        advertiser?.stop()
        shareLink.close()
    }

    /// Where to join: the address given, or the one the advertised name resolves to on the local
    /// network (before any event loop runs: the lookup blocks until its answer or 5 s);
    /// `command` names the command in the line that says where.
    static func address(of role: ShareRequest.Role, command: String = "stream") throws -> ListenAddress {
        switch role {
        case .host(let address), .join(let address):
            return address
        case .joinAdvertised(let name):
            let service = try ServiceResolver.resolve(name: name)
            guard let address = ListenAddress(parsing: service.endpoint) else {
                throw ShareError.connection("'\(name)' resolved to \(service.endpoint), which is not an address")
            }
            Diagnostics.warn("\(command): '\(name)' is advertised at \(address) (host \(service.hostName))")
            return address
        }
    }

    /// Advertises the space as `_planekit._tcp` under the host's name. Without avahi-daemon the
    /// space still works by address: one line says why discovery is off. A space on loopback is
    /// not advertised: the address others would resolve it to does not reach it.
    private static func advertise(name: String, address: ListenAddress, port: Int) -> ServiceAdvertiser? {
        if address.host == "127.0.0.1" || address.host == "::1" || address.host == "localhost" {
            Diagnostics.warn("stream: not advertised on the local network: the space listens on loopback only (host on 0.0.0.0:\(port) to be found by name)")
            return nil
        }
        do {
            let advertiser = try ServiceAdvertiser(.planeKit(name: name, port: UInt16(port), protocolVersion: Int(ShareLimits.version)))
            Diagnostics.warn("stream: advertised on the local network as '\(advertiser.name)' (join with --join '\(advertiser.name)')")
            return advertiser
        } catch {
            Diagnostics.warn("stream: \(error.isDiscoveryOff ? error.description : "not advertised on the local network: \(error.description)")")
            return nil
        }
    }

    /// One `bench share` run.
    static func bench(peers: Int, rate: Double, seconds: Double, megabytes: Double) throws -> ShareBenchFigures {
        let r = try ShareBench.run(peers: peers, rate: rate, seconds: seconds, mapMegabytes: megabytes)
        let joins = r.joins.sorted()
        return ShareBenchFigures(poseP50: r.poses.percentile(0.5) ?? .nan, poseP99: r.poses.percentile(0.99) ?? .nan,
                                 objectP50: r.objects.percentile(0.5) ?? .nan, objectP99: r.objects.percentile(0.99) ?? .nan,
                                 pointerP50: r.attitudes.percentile(0.5) ?? .nan, pointerP99: r.attitudes.percentile(0.99) ?? .nan,
                                 mapSeconds: joins.isEmpty ? .nan : joins[joins.count / 2], mapBytes: r.mapBytes,
                                 poses: r.poses.count, objects: r.objects.count, attitudes: r.attitudes.count)
    }
}

/// The joiner's map progress bar, drawn from the network's thread.
private final class MapProgress: Sendable {
    let bar = Mutex(ProgressBar(total: 0, label: "stream: world map"))
}
