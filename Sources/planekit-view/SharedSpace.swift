import ArgumentParser
import PlaneKitDetection
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitInput
import PlaneKitStream
import PlaneKitSynthesis
import PlaneKitTracking
import PlaneKitCLI
import PlaneKitShare
import Synchronization

/// `stream --host/--join` as planekit-view runs it: the space's network on its own event loop,
/// the stream's link to it, and (for a joiner) the host's map to relocalize into.
final class SharedSpace: SharedSpaceSession {
    private let shareLink: ShareLink
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
            case .join(let address):
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
            }
        } catch {
            let verb: String
            if case .host(let address) = request.role { verb = "cannot host a space on \(address)" } else if case .join(let address) = request.role {
                verb = "cannot join the space at \(address)"
            } else { verb = "" }
            Diagnostics.warn("stream: \(verb): \(error)")
            throw ExitCode(1)
        }
    }

    func close() { shareLink.close() }

    /// One `bench share` run.
    static func bench(peers: Int, rate: Double, seconds: Double, megabytes: Double) throws -> ShareBenchFigures {
        let r = try ShareBench.run(peers: peers, rate: rate, seconds: seconds, mapMegabytes: megabytes)
        let joins = r.joins.sorted()
        return ShareBenchFigures(poseP50: r.poses.percentile(0.5) ?? .nan, poseP99: r.poses.percentile(0.99) ?? .nan,
                                 objectP50: r.objects.percentile(0.5) ?? .nan, objectP99: r.objects.percentile(0.99) ?? .nan,
                                 mapSeconds: joins.isEmpty ? .nan : joins[joins.count / 2], mapBytes: r.mapBytes,
                                 poses: r.poses.count, objects: r.objects.count)
    }
}

/// The joiner's map progress bar, drawn from the network's thread.
private final class MapProgress: Sendable {
    let bar = Mutex(ProgressBar(total: 0, label: "stream: world map"))
}
