import Foundation
import PlaneKitTestSupport
import Testing

/// `planekit stream --host` advertises its space and `--join NAME` finds it: two real streams in
/// two network namespaces, each talking to its own avahi-daemon, so the name crosses the bridge
/// as multicast DNS before the joiner connects to the address it resolved to.
@Suite(.serialized) struct StreamDiscoveryTests {
    /// The `planekit` binary beside the test bundle (or `PLANEKIT_BINARY`).
    private static var planekit: String {
        if let path = ProcessInfo.processInfo.environment["PLANEKIT_BINARY"] { return path }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("planekit").path
    }

    @Test(.enabled(if: AvahiTestBed.problem == nil, Comment(rawValue: AvahiTestBed.problem ?? "")), .timeLimit(.minutes(1)))
    func joinerFindsTheHostByName() throws {
        let bed = try AvahiTestBed()
        defer { bed.stop() }
        try bed.startDaemons()
        let pk = Self.planekit
        let name = "kitchen-\(getpid())"
        let secret = "--secret 'discovery test 42'"
        // The host listens on every address of its namespace: a loopback-only space is not advertised.
        let host = try bed.namespaces.start(
            in: 0,
            ["/bin/sh", "-c", "\(pk) synth --seed 10 --frames 120 --taps 1 | \(pk) stream --host 0.0.0.0:7000 \(secret) --name \(name) --linger 2"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bed.busAddresses[0]])
        defer { host.stop() }
        #expect(host.waitForOutput(containing: "advertised on the local network as '\(name)'", timeout: .seconds(20)),
                "\(host.errorOutput)")

        let joiner = try bed.namespaces.start(
            in: 1,
            ["/bin/sh", "-c", "\(pk) synth --seed 10 --frames 60 --taps 2 --world-offset 90,2,0,-1 | \(pk) stream --join \(name) \(secret) --name phone --linger 1"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bed.busAddresses[1]])
        defer { joiner.stop() }
        #expect(joiner.waitForExit(timeout: .seconds(40)) == 0, "\(joiner.errorOutput)")
        #expect(joiner.errorOutput.contains("'\(name)' is advertised at \(bed.namespaces.address(0)):7000"), "\(joiner.errorOutput)")
        #expect(joiner.output.contains(#""event":"mapLoaded""#))
        #expect(joiner.output.contains(#""event":"relocalized""#))
        // The host saw the phone join and leave, then closed its empty space after --linger.
        #expect(host.waitForExit(timeout: .seconds(20)) == 0, "\(host.errorOutput)")
        #expect(host.output.contains(#""event":"peerJoined""#) && host.output.contains(#""peer":"phone""#))
    }
}
