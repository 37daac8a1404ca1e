import Foundation
import PlaneKitTestSupport
import Testing

/// Packet loss and delay without `tc netem`: a real joiner reaches the host through a
/// ``LossyRelay`` that drops 20 % of its pose datagrams (seeded) and delays the rest by 30 ms.
@Suite("A lossy, delayed pose channel", .serialized)
struct LossyPoseChannelTests {
    @Test func posesArriveInOrderAtTheRateTheRelayLetsThroughAndObjectsAllArrive() throws {
        let directory = try SharedSpaceTests.directory("lossy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (host, port) = try SharedSpaceTests.host(frames: 20, taps: 0, in: directory)
        let relay = try LossyRelay(target: port, lossPercent: 20, delay: .milliseconds(30), seed: 13)
        defer { relay.stop() }
        let joiner = try SpaceProcess(
            "\"$PK\" synth --seed 10 --frames 60 --taps 2 | exec \"$PK\" stream --join 127.0.0.1:\(relay.port) --secret '\(SharedSpaceTests.secret)' --name lossy --linger 1",
            name: "lossy", in: directory)
        #expect(joiner.wait(seconds: 60) == 0, "\(joiner.errorText)")
        #expect(host.waitForEvent(seconds: 10) { $0["event"] as? String == "peerLeft" && $0["peer"] as? String == "lossy" })
        host.interrupt()
        #expect(host.wait(seconds: 30) == 0, "\(host.errorText)")

        let counts = relay.counts, events = host.events
        let statistics = try #require(events.named("shareStatistics").last)
        let accepted = statistics["datagramsAccepted"] as? Int ?? -1, stale = statistics["datagramsStale"] as? Int ?? -1
        // The joiner sent a pose per frame once in the host's world; the relay passed on about 80 %.
        #expect(counts.received >= 20, "\(counts)")
        let passed = Double(counts.forwarded) / Double(max(1, counts.received))
        #expect(passed >= 0.65 && passed <= 0.95, "\(counts)")
        #expect(counts.dropped + counts.forwarded == counts.received)
        // Every datagram the relay passed on was accepted or dropped as stale at the host; none tampered.
        #expect(accepted + stale == counts.forwarded, "accepted \(accepted), stale \(stale), \(counts)")
        #expect(statistics["datagramsTampered"] as? Int == 0)
        // The host's participant events follow the joiner's camera in order: never an older pose after a newer one.
        let cameras = joiner.events.named("camera").compactMap(\.translation)
        let seen = events.named("participant").filter { $0["peer"] as? String == "lossy" }.compactMap(\.translation)
        #expect(!seen.isEmpty)
        let order = seen.compactMap { p in cameras.lastIndex { let d = $0 - p; return (d * d).sum() < 1e-8 } }
        #expect(order.count == seen.count, "a participant pose that is none of the joiner's cameras")
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 <= $1 }, "\(order)")
        // The reliable channel lost nothing: both of the joiner's objects are at the host.
        let objects = SharedSpaceTests.finalPositions(events.filter { $0["peer"] as? String == "lossy" })
        #expect(Set(objects.keys) == ["object-1000001", "object-1000002"], "\(objects.keys)")
        print("lossy relay: \(counts.received) poses sent, \(counts.dropped) dropped, \(counts.forwarded) passed (\(Int((passed * 100).rounded())) %), host accepted \(accepted), stale \(stale), \(seen.count) participant events")
    }
}
