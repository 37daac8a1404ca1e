import Foundation
import PlaneKitGeometry
import PlaneKitHitTesting
import PlaneKitStream
import PlaneKitAnchors
import PlaneKitMaps
import Synchronization
import PlaneKitStreamFormat

/// `planekit bench share`: a space of `peers` peers in one process on loopback — each on its own
/// event loop, with real TLS connections and sealed UDP — measuring what the goals name:
/// a pose's latency from sealing at one peer to being taken from the inbox at another (relayed
/// through the host), an object change's latency from one joiner to every other peer, and the
/// time a joiner takes to get a world map of about 5 MB (connect, TLS, transfer, decode). A
/// pointer (`planekit pointer`'s link, one more peer) sends an attitude every tick too: its
/// latency from sealing to being taken by each device peer, where it would be cast.
///
/// Receivers poll their inboxes every 0.2 ms, as a stream takes them between records, so the
/// latencies include that wait. Poses and changes carry their send time (the bench's clock).
public enum ShareBench {
    /// What one run measured.
    public struct Result: Sendable {
        /// Pose latencies (ms), every receiver and sender pair.
        public var poses = LatencyHistogram()
        /// Object change latencies (ms), at every peer but the sender.
        public var objects = LatencyHistogram()
        /// Pointer attitude latencies (ms), at every device peer (the newest attitude each time
        /// a peer takes its inbox, as a stream casts only the newest).
        public var attitudes = LatencyHistogram()
        /// Seconds each joiner took to join with the map.
        public var joins: [Double] = []
        /// The map's size (bytes).
        public var mapBytes = 0
        /// Poses sent.
        public var posesSent = 0
    }

    /// Runs the space for `seconds` of poses at `rate` per second from every peer, with one object
    /// change per tick from the first joiner and one attitude per tick from a pointer.
    public static func run(peers: Int, rate: Double, seconds: Double, mapMegabytes: Double) throws -> Result {
        var result = Result()
        let secret = Array("planekit bench share".utf8)
        let credentials = try SpaceCredentials(secret: secret)
        let hostInbox = ShareInbox()
        // The pointer counts as a peer too.
        let host = try ShareHost(address: .loopback(port: 0), credentials: credentials, name: "host", maxPeers: peers + 1, inbox: hostInbox)
        defer { host.close() }
        // Random points deflate unevenly: size the map once from a first encoding.
        var mapBytes = WorldMapCoding.encode(benchMap(points: Int(mapMegabytes * 1_000_000 / 12)))
        let scaled = Int(mapMegabytes * 1_000_000 / 12 * mapMegabytes * 1_000_000 / Double(mapBytes.count))
        mapBytes = WorldMapCoding.encode(benchMap(points: scaled))
        result.mapBytes = mapBytes.count
        let clock = ContinuousClock()
        let origin = clock.now
        func now() -> Double { (clock.now - origin).milliseconds / 1000 }

        // The joiners connect one by one on another thread; this one serves them their map.
        let progress = JoinProgress()
        let joining = Thread {
            for i in 1..<peers {
                let inbox = ShareInbox()
                let start = ContinuousClock.now
                do {
                    let joiner = try ShareJoiner(address: .loopback(port: host.port), credentials: credentials, name: "peer-\(i)",
                                                 inbox: inbox, progress: { _, _ in }, timeout: 60)
                    let took = (ContinuousClock.now - start).milliseconds / 1000
                    // As `stream --join` does at once: the standby listener, whose port the host
                    // waits for before it welcomes the next peer.
                    let standby = try HostHandover(joiner: joiner, credentials: credentials).standby
                    progress.joined.withLock { $0.append((joiner, inbox, took, standby)) }
                } catch {
                    progress.failure.withLock { $0 = "\(error)" }
                    return
                }
            }
        }
        joining.start()
        let joinDeadline = clock.now + .seconds(120)
        while progress.joined.withLock({ $0.count }) < peers - 1, progress.failure.withLock({ $0 }) == nil, clock.now < joinDeadline {
            for input in hostInbox.take().inputs {
                if case .admitted(let entry) = input { host.sendMap(mapBytes, to: entry.id) }
            }
            usleep(200)
        }
        if let failure = progress.failure.withLock({ $0 }) { throw ShareError.connection("a bench peer could not join: \(failure)") }
        let joiners = progress.joined.withLock { $0 }
        guard joiners.count == peers - 1 else { throw ShareError.connection("the bench peers did not join within 120 s") }
        result.joins = joiners.map(\.2)
        let pointer = try PointerLink.join(.loopback(port: host.port), secret: secret, name: "pointer", origin: .zero,
                                           forward: SIMD3(0, 0, -1), timeout: 60)
        defer { pointer.close() }
        func takeAttitudes(_ inbox: ShareInbox) {
            let t = now()
            for attitude in inbox.takeAttitudes() { result.attitudes.add((t - attitude.timestamp) * 1000) }
        }

        // Poses and object changes at `rate` for `seconds`; every inbox polled in between.
        let period = 1 / rate
        var next = now(), sequence: UInt64 = 0
        let end = now() + seconds
        var sentAt: [UInt64: Double] = [:]
        let anchor = ObjectAnchor(identifier: PlacedObjectIdentifier(ShareLimits.objectRange + 1), anchorNumber: 0, name: "bench",
                                  size: SIMD3(0.3, 0.3, 0.3), transform: .identity, planeIdentifier: nil, alignment: .any)
        while now() < end + 0.5 {
            if now() >= next, now() < end {
                next += period
                sequence += 1
                let t = now()
                try host.sendPose(PoseDatagram(sender: 0, sequence: sequence, timestamp: t, transform: .identity).sealed(with: host.poseKey))
                for (joiner, _, _, _) in joiners {
                    joiner.sendPose(try PoseDatagram(sender: joiner.me.id, sequence: sequence, timestamp: t, transform: .identity)
                        .sealed(with: joiner.poseKey))
                }
                result.posesSent += peers
                try pointer.send(AttitudeRecord(orientation: Quaternion(angle: Float(sequence % 60) * .pi / 180, axis: SIMD3(0, 1, 0)),
                                                timestamp: t))
                sentAt[sequence] = t
                joiners[0].0.send(.object(SharedObject(anchor, version: sequence, author: joiners[0].0.me.name, removed: false)))
            }
            takeAttitudes(hostInbox)
            let (inputs, poses) = hostInbox.take()
            let t = now()
            for pose in poses { result.poses.add((t - pose.timestamp) * 1000) }
            for input in inputs {
                guard case .object(let state, let from) = input else { continue }
                host.broadcast(.object(state), except: from)
                if let sent = sentAt[state.version] { result.objects.add((t - sent) * 1000) }
            }
            for (_, inbox, _, _) in joiners { takeAttitudes(inbox) }
            for (_, inbox, _, _) in joiners.dropFirst() {
                let (inputs, poses) = inbox.take()
                let t = now()
                for pose in poses { result.poses.add((t - pose.timestamp) * 1000) }
                for case .object(let state, _) in inputs {
                    if let sent = sentAt[state.version] { result.objects.add((t - sent) * 1000) }
                }
            }
            for (_, inbox, _, _) in joiners.prefix(1) {
                for pose in inbox.take().poses { result.poses.add((now() - pose.timestamp) * 1000) }
            }
            usleep(200)
        }
        for (joiner, _, _, standby) in joiners {
            joiner.close()
            standby.close()
        }
        return result
    }

    /// A map of `count` random points (which deflate poorly) with upward normals, no anchors.
    static func benchMap(points count: Int) -> WorldMap {
        var random = SplitMix64(seed: 13)
        var points: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = []
        points.reserveCapacity(count)
        normals.reserveCapacity(count)
        for _ in 0..<count {
            points.append(SIMD3(Float.random(in: -5...5, using: &random), Float.random(in: 0...3, using: &random),
                                Float.random(in: -5...5, using: &random)))
            normals.append(SIMD3<Float>(0, 1, 0))
        }
        return WorldMap(anchors: [], objects: [], keyframes: [.identity], points: points, normals: normals,
                        mappingStatus: .mapped, nextPlaneNumber: 1, nextObjectNumber: 1)
    }
}

/// The bench's joiners as they come in, and the first failure.
private final class JoinProgress: Sendable {
    let joined = Mutex<[(ShareJoiner, ShareInbox, Double, ShareHost)]>([])
    let failure = Mutex<String?>(nil)
}
