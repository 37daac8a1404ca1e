import Foundation
@testable import PlaneKitShare
import PlaneKitStream
import PlaneKitMaps
import Synchronization
import Testing

/// The order of succession reaches every peer with its admission, so a host that goes right
/// after letting a peer in does not split the space (hosts and joiners in this process).
@Suite("The order of succession", .serialized)
struct SuccessionTests {
    /// What one thread hands another.
    final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?
        var value: Value? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    static let emptyMap = WorldMapCoding.encode(WorldMap(anchors: [], objects: [], keyframes: [], points: [], normals: [],
                                                         mappingStatus: .notAvailable, nextPlaneNumber: 1, nextObjectNumber: 1))

    /// `name` joins `host` as a device (at `port`, the host's unless given); the test plays the
    /// host's stream (the map to each admitted peer).
    static func join(_ name: String, host: ShareHost, inbox: ShareInbox, credentials: SpaceCredentials, port: Int? = nil) throws -> ShareJoiner {
        let joined = Box<Result<ShareJoiner, any Error>>()
        let port = port ?? host.port
        Thread.detachNewThread {
            joined.value = Result { try ShareJoiner(address: .loopback(port: port), credentials: credentials, name: name,
                                                    inbox: ShareInbox(), progress: { _, _ in }, timeout: 10) }
        }
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            for case .admitted(let entry) in inbox.take().inputs { host.sendMap(emptyMap, to: entry.id) }
            if let result = joined.value { return try result.get() }
            usleep(2_000)
        }
        throw ShareError.connection("\(name) did not join within 15 s")
    }

    /// The latest order of succession in `joiner`'s inbox.
    static func succession(_ joiner: ShareJoiner) -> [Successor] {
        var latest: [Successor] = []
        for case .succession(let successors) in joiner.inbox.take().inputs { latest = successors }
        return latest
    }

    @Test func aPeerLetInJustBeforeTheHostGoesRejoinsTheEarliestJoiner() throws {
        let credentials = try SpaceCredentials(secret: DepartureTests.secret)
        let inbox = ShareInbox()
        let host = try ShareHost(address: .loopback(port: 0), credentials: credentials, name: "host", maxPeers: 8, inbox: inbox)
        let anna = try Self.join("anna", host: host, inbox: inbox, credentials: credentials)
        let annaHandover = try HostHandover(joiner: anna, credentials: credentials)
        let bert = try Self.join("bert", host: host, inbox: inbox, credentials: credentials)
        let bertHandover = try HostHandover(joiner: bert, credentials: credentials)
        let known = ContinuousClock.now + .seconds(10)
        while host.successorsInOrder.count < 2, ContinuousClock.now < known { usleep(2_000) }
        #expect(host.successorsInOrder.map(\.entry.name) == ["anna", "bert"])
        // Carl is let in, and the host goes before anything else happens (Carl's standby port never reaches it).
        let carl = try Self.join("carl", host: host, inbox: inbox, credentials: credentials)
        // What each knows when the host goes: nothing it says while closing counts (a killed host says nothing).
        let orders = [anna, bert, carl].map(Self.succession)
        host.close()
        let carlHandover = try HostHandover(joiner: carl, credentials: credentials)

        let peers = [(anna, annaHandover), (bert, bertHandover), (carl, carlHandover)]
        for ((_, handover), order) in zip(peers, orders) { handover.successors = order }
        // Carl knows the order from his admission alone.
        #expect(carlHandover.successors.map(\.entry.name) == ["anna", "bert"])

        // Each walks the order at once, in parallel (as three processes would).
        let hosts = (0..<3).map { _ in Box<String>() }
        let nodes = (0..<3).map { _ in Box<ShareLink.Node>() }
        let lines = Box<[String]>()
        lines.value = []
        let work = Box<[(ShareJoiner, HostHandover)]>()
        work.value = peers
        let threads = (0..<3).map { k in
            Thread {
                guard let (joiner, handover) = work.value?[k] else { return }
                let (node, newHost) = handover.succeed(joiner, highestPeer: 3) { line in lines.value?.append(line) }
                nodes[k].value = node
                hosts[k].value = newHost.name
            }
        }
        for thread in threads { thread.start() }
        let deadline = ContinuousClock.now + .seconds(20)
        while hosts.contains(where: { $0.value == nil }), ContinuousClock.now < deadline { usleep(5_000) }
        #expect(hosts.map(\.value) == ["anna", "anna", "anna"], "\(lines.value ?? [])")
        // Anna's standby listener is the host now: each listener is closed once.
        for node in nodes { if case .joiner(let joiner)? = node.value { joiner.close() } }
        for (_, handover) in peers { handover.standby.close() }
    }

    /// A host with anna in (her standby port not sent: no ``HostHandover`` yet) and bert's join
    /// started on a thread of its own right after: the host, anna, bert's outcome (with when it
    /// came), and when his join started.
    static func bertJoinsAfterAnna(credentials: SpaceCredentials) throws
        -> (host: ShareHost, anna: ShareJoiner, bert: Box<(Result<ShareJoiner, any Error>, ContinuousClock.Instant)>,
            asked: ContinuousClock.Instant) {
        let inbox = ShareInbox()
        let host = try ShareHost(address: .loopback(port: 0), credentials: credentials, name: "host", maxPeers: 8, inbox: inbox)
        let anna = try Self.join("anna", host: host, inbox: inbox, credentials: credentials)
        let bert = Box<(Result<ShareJoiner, any Error>, ContinuousClock.Instant)>()
        let asked = ContinuousClock.now
        Thread.detachNewThread {
            let result = Result { try Self.join("bert", host: host, inbox: inbox, credentials: credentials) }
            bert.value = (result, ContinuousClock.now)
        }
        return (host, anna, bert, asked)
    }

    /// Bert, once his join is through (at most 15 s), and when it was.
    static func joined(_ bert: Box<(Result<ShareJoiner, any Error>, ContinuousClock.Instant)>) throws
        -> (joiner: ShareJoiner, at: ContinuousClock.Instant) {
        let deadline = ContinuousClock.now + .seconds(15)
        while bert.value == nil, ContinuousClock.now < deadline { usleep(2_000) }
        let (result, at) = try #require(bert.value)
        return (try result.get(), at)
    }

    @Test func aPeerIsWelcomedOnceTheDevicesBeforeItCanTakeOver() throws {
        let credentials = try SpaceCredentials(secret: DepartureTests.secret)
        let (host, anna, bert, _) = try Self.bertJoinsAfterAnna(credentials: credentials)
        defer {
            anna.close()
            host.close()
        }
        usleep(300_000)
        // Bert's welcome waits: a host gone now would leave him no way to anna.
        #expect(bert.value == nil)
        let annaHandover = try HostHandover(joiner: anna, credentials: credentials)
        defer { annaHandover.standby.close() }
        let bertJoiner = try Self.joined(bert).joiner
        defer { bertJoiner.close() }
        // The order of succession he was welcomed with names anna.
        let first = bertJoiner.inbox.take().inputs.first { if case .succession = $0 { true } else { false } }
        guard case .succession(let order)? = first else {
            Issue.record("bert got no order of succession")
            return
        }
        #expect(order.map(\.entry.name) == ["anna"])
        #expect(order.first?.port == UInt16(annaHandover.standby.port))
    }

    @Test func aHeldWelcomeComesWithinTheHoldWhenTheStandbyPortNeverDoes() throws {
        // Anna never opens a standby listener (as a device whose listener could not open).
        let (host, anna, bert, asked) = try Self.bertJoinsAfterAnna(credentials: try SpaceCredentials(secret: DepartureTests.secret))
        defer {
            anna.close()
            host.close()
        }
        let (bertJoiner, at) = try Self.joined(bert)
        defer { bertJoiner.close() }
        // Let in after the hold (1 s), not before, and not refused.
        let waited = Double((at - asked).components.seconds) + Double((at - asked).components.attoseconds) * 1e-18
        #expect(waited >= 0.95, "bert joined after \(waited) s")
        #expect(host.state.withLock { $0.heldWelcomes.isEmpty && $0.peers.count == 2 })
    }
}
