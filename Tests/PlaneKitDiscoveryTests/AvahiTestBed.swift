import Foundation
import PlaneKitTestSupport

/// Two hosts for DNS-SD tests: two network namespaces on one bridge, each with its own D-Bus
/// system bus (a private `dbus-daemon`, socket in a scratch directory) and its own avahi-daemon
/// listening on the namespace's interface only. Nothing reaches the machine's own bus or LAN.
///
/// A process talks to host `i`'s daemon by setting `DBUS_SYSTEM_BUS_ADDRESS` to
/// ``busAddresses``[i]; mDNS then really crosses the bridge between the daemons.
final class AvahiTestBed {
    /// What the bed needs and what is missing, or `nil` when everything is there.
    static let problem: String? = {
        if let problem = NetworkNamespaces.problem { return problem }
        for program in ["dbus-daemon", "avahi-daemon", "avahi-browse", "avahi-publish", "unshare"]
        where TestProcess.locate(program) == nil {
            return "\(program) not installed (scripts/install-deps.sh installs dbus-daemon, avahi-daemon, avahi-utils)"
        }
        return nil
    }()

    let namespaces: NetworkNamespaces
    /// Each host's D-Bus address.
    let busAddresses: [String]
    /// Each host's mDNS host name (without `.local`).
    let hostNames: [String]
    private var buses: [TestProcess] = []
    private var daemons: [TestProcess] = []

    /// Creates the namespaces and starts both buses (not the daemons: see ``startDaemons()``).
    init() throws {
        namespaces = try NetworkNamespaces(count: 2)
        let directory = namespaces.directory.path
        busAddresses = (0..<2).map { "unix:path=\(directory)/bus\($0).socket" }
        hostNames = (0..<2).map { "pkhost\($0)-\(getpid())" }
        do {
            for index in 0..<2 {
                let configuration = "\(directory)/bus\(index).conf"
                try Self.busConfiguration(socket: "\(directory)/bus\(index).socket")
                    .write(toFile: configuration, atomically: true, encoding: .utf8)
                let bus = try TestProcess(["dbus-daemon", "--config-file=\(configuration)", "--nofork", "--print-address"],
                                          directory: namespaces.directory)
                buses.append(bus)
                guard bus.waitForOutput(containing: "unix:path=", timeout: .seconds(10)) else {
                    throw TestBedError("dbus-daemon \(index) did not start within 10 s: \(bus.errorOutput)")
                }
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Starts avahi-daemon in each namespace on its bus and waits (at most 10 s each) until it
    /// has finished starting up.
    func startDaemons() throws {
        let directory = namespaces.directory.path
        for index in 0..<2 {
            let configuration = "\(directory)/avahi\(index).conf"
            try """
                [server]
                host-name=\(hostNames[index])
                use-ipv4=yes
                use-ipv6=no
                allow-interfaces=\(namespaces.interface)
                enable-dbus=yes
                ratelimit-interval-usec=1000000
                ratelimit-burst=1000
                [wide-area]
                enable-wide-area=no
                [publish]
                publish-hinfo=no
                publish-workstation=no

                """.write(toFile: configuration, atomically: true, encoding: .utf8)
            // A private /run (in the mount namespace `ip netns exec` made), so that two daemons
            // and the machine's own never share /run/avahi-daemon/pid.
            let daemon = try namespaces.start(
                in: index,
                ["unshare", "-m", "sh", "-c",
                 "mount -t tmpfs tmpfs /run && mkdir -p /run/avahi-daemon && exec avahi-daemon -f \(configuration) "
                    + "--no-drop-root --no-chroot --no-rlimits --no-proc-title"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddresses[index]])
            daemons.append(daemon)
            guard daemon.waitForOutput(containing: "Server startup complete", timeout: .seconds(10)) else {
                throw TestBedError("avahi-daemon \(index) did not start within 10 s: \(daemon.errorOutput)")
            }
        }
    }

    /// Starts `arguments` as a client of host `index`'s daemon.
    func client(of index: Int, _ arguments: [String]) throws -> TestProcess {
        try TestProcess(arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddresses[index]], directory: namespaces.directory)
    }

    /// The services of `type` host `index`'s daemon resolves, from `avahi-browse` (another
    /// process, another client library): one `=;…` line each, or what it printed on failure.
    func browse(from index: Int, type: String) throws -> [BrowsedService] {
        let result = try TestProcess.run(
            ["avahi-browse", "--resolve", "--parsable", "--terminate", "--no-db-lookup", type],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": busAddresses[index]], directory: namespaces.directory,
            timeout: .seconds(10))
        return result.output.split(separator: "\n").compactMap { BrowsedService(parsableLine: String($0)) }
    }

    /// Stops the daemons and buses and removes the namespaces. Idempotent.
    func stop() {
        for process in daemons + buses { process.stop() }
        daemons = []
        buses = []
        namespaces.destroy()
    }

    deinit { stop() }

    /// A system bus that lets anyone own any name: these buses serve only the test's daemons.
    private static func busConfiguration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>

        """
    }
}

/// One resolved line of `avahi-browse --parsable --resolve`:
/// `=;interface;IPv4;name;type;domain;host;address;port;"txt" …`.
struct BrowsedService: Equatable {
    var name: String
    var hostName: String
    var address: String
    var port: UInt16
    var txt: [String]

    init?(parsableLine line: String) {
        let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 10, fields[0] == "=", let port = UInt16(fields[8]) else { return nil }
        name = Self.unescape(fields[3])
        hostName = fields[6]
        address = fields[7]
        self.port = port
        txt = fields[9...].joined(separator: ";").split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }

    /// avahi-browse writes some bytes of a name as `\DDD` (three decimal digits).
    private static func unescape(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var position = 0
        while position < utf8.count {
            if utf8[position] == UInt8(ascii: "\\"), position + 3 < utf8.count,
               let value = UInt8(String(decoding: utf8[(position + 1)...(position + 3)], as: UTF8.self)) {
                bytes.append(value)
                position += 4
            } else {
                bytes.append(utf8[position])
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A test bed that would not come up, with what it printed.
struct TestBedError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
