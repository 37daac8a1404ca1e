import Foundation
import PlaneKitDiscovery
import PlaneKitTestSupport
import Testing

/// DNS-SD through real avahi-daemons: this process advertises and resolves with
/// PlaneKitDiscovery on host 0; `avahi-browse` and `avahi-publish` (other processes, Avahi's own
/// tools) do the same on host 1, so every answer crossed the bridge as mDNS.
///
/// libdbus reads `DBUS_SYSTEM_BUS_ADDRESS` once per process, so one test does the whole story in
/// order, and the fallback test below runs only when the bed cannot.
@Suite(.serialized) struct DiscoveryTests {
    @Test(.enabled(if: AvahiTestBed.problem == nil, Comment(rawValue: AvahiTestBed.problem ?? "")), .timeLimit(.minutes(1)))
    func advertiseAndResolveAcrossNamespaces() throws {
        let bed = try AvahiTestBed()
        defer { bed.stop() }
        setenv("DBUS_SYSTEM_BUS_ADDRESS", bed.busAddresses[0], 1)
        let ownName = "PlaneKit Kitchen \(getpid())"

        // A bus without avahi-daemon: discovery is off, and the error says so and why.
        #expect(throws: DiscoveryError.daemonNotRunning) {
            try ServiceAdvertiser(.planeKit(name: ownName, port: 7400, protocolVersion: 1))
        }
        #expect(DiscoveryError.daemonNotRunning.description.contains("AVAHI_ERR_NO_DAEMON"))
        #expect(throws: DiscoveryError.daemonNotRunning) {
            try ServiceResolver.resolve(name: ownName, timeout: .seconds(1))
        }

        try bed.startDaemons()
        let advertiser = try ServiceAdvertiser(.planeKit(name: ownName, port: 7400, protocolVersion: 1))
        defer { advertiser.stop() }
        #expect(advertiser.name == ownName)

        // Host 1 sees it through Avahi's own tool, at host 0's address.
        let seen = try eventually { try bed.browse(from: 1, type: ServiceAdvertisement.planeKitType).first { $0.name == ownName } }
        #expect(seen?.address == bed.namespaces.address(0))
        #expect(seen?.port == 7400)
        #expect(seen?.hostName == "\(bed.hostNames[0]).local")
        #expect(seen?.txt == ["protocol=1"])

        // Host 1 publishes with avahi-publish; this process resolves it by name through host 0.
        let otherName = "PlaneKit Garage \(getpid())"
        let publisher = try bed.client(
            of: 1, ["avahi-publish", "--service", otherName, ServiceAdvertisement.planeKitType, "7401", "protocol=2", "peer=garage"])
        defer { publisher.stop() }
        #expect(publisher.waitForOutput(containing: "Established", timeout: .seconds(10)), "\(publisher.errorOutput)")
        let other = try ServiceResolver.resolve(name: otherName, timeout: .seconds(5))
        #expect(other.address == bed.namespaces.address(1))
        #expect(other.port == 7401)
        #expect(other.endpoint == "\(bed.namespaces.address(1)):7401")
        #expect(other.hostName == "\(bed.hostNames[1]).local")
        #expect(other.protocolVersion == 2)
        #expect(other.txt == ["protocol": "2", "peer": "garage"])
        let names = try ServiceResolver.instanceNames(timeout: .seconds(5))
        #expect(names.contains(otherName) && names.contains(ownName), "\(names)")

        // The same name from a second advertiser on the network: Avahi's alternative is taken.
        let twin = try bed.client(of: 1, ["avahi-publish", "--service", ownName + " twin", ServiceAdvertisement.planeKitType, "7402"])
        defer { twin.stop() }
        #expect(twin.waitForOutput(containing: "Established", timeout: .seconds(10)))
        let clash = try ServiceAdvertiser(.planeKit(name: ownName + " twin", port: 7403, protocolVersion: 1))
        #expect(clash.name != ownName + " twin")
        #expect(clash.name.hasPrefix(ownName + " twin"))
        clash.stop()

        // A name nobody has: a bounded wait, then a typed error.
        let start = ContinuousClock.now
        #expect(throws: DiscoveryError.notFound(name: "nobody \(getpid())", type: ServiceAdvertisement.planeKitType,
                                                  timeout: .seconds(1))) {
            try ServiceResolver.resolve(name: "nobody \(getpid())", timeout: .seconds(1))
        }
        #expect(ContinuousClock.now - start < .seconds(3))

        // Stopping withdraws it: host 1 stops listing it (goodbye packets).
        advertiser.stop()
        let gone = try eventually {
            try bed.browse(from: 1, type: ServiceAdvertisement.planeKitType).contains { $0.name == ownName } ? nil : true
        }
        #expect(gone == true)
    }

    @Test(.enabled(if: AvahiTestBed.problem != nil, "runs when the Avahi test bed cannot"))
    func missingBusTurnsDiscoveryOff() throws {
        // A bus address with nothing behind it, as on a machine without D-Bus.
        setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/planekit-test-bus", 1)
        do throws(DiscoveryError) {
            _ = try ServiceAdvertiser(.planeKit(name: "PlaneKit", port: 7400, protocolVersion: 1))
            Issue.record("advertised without a bus")
        } catch {
            #expect(error.isDiscoveryOff)
            #expect(error.description.hasPrefix("DNS-SD discovery is off"))
        }
    }

    @Test func invalidAdvertisementsAreRefusedBeforeAvahi() {
        #expect(throws: DiscoveryError.invalidAdvertisement("empty instance name")) {
            try ServiceAdvertiser(.planeKit(name: "", port: 7400, protocolVersion: 1))
        }
        #expect(throws: DiscoveryError.invalidAdvertisement("port 0")) {
            try ServiceAdvertiser(.planeKit(name: "x", port: 0, protocolVersion: 1))
        }
        let long = String(repeating: "n", count: 64)
        #expect(throws: DiscoveryError.invalidAdvertisement("instance name \"\(long)\" longer than 63 bytes")) {
            try ServiceAdvertiser(.planeKit(name: long, port: 7400, protocolVersion: 1))
        }
    }

    @Test func endpointsAndVersions() {
        let v4 = DiscoveredService(name: "a", type: "_planekit._tcp", hostName: "a.local", address: "10.0.0.2", port: 7400,
                                   txt: ["protocol": "3"])
        #expect(v4.endpoint == "10.0.0.2:7400")
        #expect(v4.protocolVersion == 3)
        let v6 = DiscoveredService(name: "b", type: "_planekit._tcp", hostName: "b.local", address: "fe80::1%pk0", port: 7401,
                                   txt: ["protocol": "x"])
        #expect(v6.endpoint == "[fe80::1%pk0]:7401")
        #expect(v6.protocolVersion == nil)
        #expect(DiscoveryError.notFound(name: "n", type: "_planekit._tcp", timeout: .milliseconds(1500)).description
                == "no DNS-SD service \"n\" of type _planekit._tcp answered within 1.5 s")
    }
}

/// Retries `attempt` (each bounded by its own timeout) until it gives a value, for at most 10 tries.
private func eventually<Value>(_ attempt: () throws -> Value?) throws -> Value? {
    for _ in 0..<10 {
        if let value = try attempt() { return value }
        usleep(300_000)
    }
    return nil
}
