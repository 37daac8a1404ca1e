import Foundation
import NIOCore
import PlaneKitGeometry
@testable import PlaneKitShare
import PlaneKitStream
import PlaneKitTestSupport
import Testing
import PlaneKitStreamFormat

/// A pointer's last attitudes travel over UDP and its goodbye over TLS: the goodbye may come
/// first. The host (in this process) keeps the pointer until the attitudes its goodbye names
/// came, or its grace period passed. The pointer's datagrams go through a ``LossyRelay`` that
/// loses none and holds each 100 ms, so the goodbye always overtakes them.
@Suite("A departing peer's last datagrams", .serialized)
struct DepartureTests {
    static let secret = Array("kitchen table 42".utf8)

    /// What the host saw of a pointer that sent `count` attitudes and said goodbye at once.
    struct Burst {
        /// Attitudes the host accepted (and passed to its stream).
        var accepted: Int
        /// The newest attitude the host's stream had taken when the pointer's departure came.
        var newestBeforeLeaving: UInt64
        /// Whether the departure came (within 5 s).
        var left: Bool
        /// Datagrams the relay passed on to the host.
        var forwarded: Int
    }

    /// Runs the burst against a host with `grace`.
    static func burst(count: Int, grace: TimeAmount) throws -> Burst {
        let inbox = ShareInbox()
        let host = try ShareHost(address: .loopback(port: 0), credentials: try SpaceCredentials(secret: secret), name: "host",
                                 maxPeers: 8, inbox: inbox, grace: grace)
        defer { host.close() }
        let relay = try LossyRelay(target: host.port, lossPercent: 0, delay: .milliseconds(100), seed: 1)
        defer { relay.stop() }
        let pointer = try PointerLink.join(.loopback(port: relay.port), secret: secret, name: "phone", origin: .zero,
                                           forward: SIMD3(0, 0, -1), timeout: 10)
        for k in 1...count {
            try pointer.send(AttitudeRecord(orientation: Quaternion(angle: Float(k) * 0.01, axis: SIMD3(1, 0, 0)), timestamp: Double(k) / 60))
        }
        pointer.close()
        // As the stream takes them in: inputs first, then the attitudes posted before them.
        var newest: UInt64 = 0, left = false
        let deadline = ContinuousClock.now + .seconds(5)
        while !left, ContinuousClock.now < deadline {
            left = inbox.take().inputs.contains {
                if case .left(let entry, _, _) = $0 { return entry.name == "phone" }
                return false
            }
            for attitude in inbox.takeAttitudes() { newest = max(newest, attitude.sequence) }
            usleep(2_000)
        }
        // Every datagram through the relay (at most 2 s more), whatever the host made of it.
        let relayed = ContinuousClock.now + .seconds(2)
        while relay.counts.forwarded < count, ContinuousClock.now < relayed { usleep(10_000) }
        usleep(50_000)
        return Burst(accepted: inbox.counts.datagramsAccepted, newestBeforeLeaving: newest, left: left, forwarded: relay.counts.forwarded)
    }

    @Test func aPointersLastAttitudesArriveAfterItsGoodbyeAndAreAllTaken() throws {
        let burst = try Self.burst(count: 20, grace: DepartingPeers.grace)
        print("departure with a \(DepartingPeers.grace) grace: \(burst)")
        #expect(burst.left)
        #expect(burst.forwarded == 20)
        #expect(burst.accepted == 20, "\(burst)")
        // The stream had the last attitude before (or with) the departure: a peer casts it before it forgets the pointer.
        #expect(burst.newestBeforeLeaving == 20, "\(burst)")
    }

    @Test func withoutTheGracePeriodTheyAreLost() throws {
        // The same with no grace: what the goodbye alone did before (the reason for the fix).
        let burst = try Self.burst(count: 20, grace: .zero)
        print("departure without a grace: \(burst)")
        #expect(burst.left)
        #expect(burst.forwarded == 20)
        #expect(burst.accepted < 20, "\(burst)")
        #expect(burst.newestBeforeLeaving < 20, "\(burst)")
    }

    @Test func aDevicesLastPoseArrivesAfterItsGoodbyeAndIsTaken() throws {
        let credentials = try SpaceCredentials(secret: Self.secret)
        let inbox = ShareInbox()
        let host = try ShareHost(address: .loopback(port: 0), credentials: credentials, name: "host", maxPeers: 8, inbox: inbox)
        defer { host.close() }
        let relay = try LossyRelay(target: host.port, lossPercent: 0, delay: .milliseconds(100), seed: 2)
        defer { relay.stop() }
        let device = try SuccessionTests.join("tablet", host: host, inbox: inbox, credentials: credentials, port: relay.port)
        for k in 1...10 {
            let pose = PoseDatagram(sender: device.me.id, sequence: UInt64(k), timestamp: Double(k) / 30,
                                    transform: Transform(translation: SIMD3(Float(k), 0, 0)))
            device.sendPose(try pose.sealed(with: device.poseKey))
        }
        device.close()
        // The stream's view: the newest pose taken before (or with) the departure.
        var newest: UInt64 = 0, left = false
        let deadline = ContinuousClock.now + .seconds(5)
        while !left, ContinuousClock.now < deadline {
            let (inputs, poses) = inbox.take()
            left = inputs.contains {
                if case .left(let entry, _, let last) = $0 { return entry.name == "tablet" && last == [LastDatagram(kind: 1, sequence: 10)] }
                return false
            }
            for pose in poses { newest = max(newest, pose.sequence) }
            usleep(2_000)
        }
        #expect(left)
        #expect(newest == 10)
        #expect(inbox.counts.datagramsAccepted == 10)
    }
}
