import CLinuxIO
import Foundation
import Synchronization

/// Network conditions `tc netem` imposes on every packet a namespace sends.
public struct NetworkImpairment: Sendable, Equatable {
    /// The share of packets dropped, in percent (0–100).
    public var lossPercent: Double
    /// The delay added to every packet, in milliseconds.
    public var delayMilliseconds: Double

    /// Loss and delay on each namespace's way out.
    public init(lossPercent: Double = 0, delayMilliseconds: Double = 0) {
        self.lossPercent = lossPercent
        self.delayMilliseconds = delayMilliseconds
    }
}

/// Why the network namespaces cannot be made here.
public enum NetworkNamespaceError: Error, CustomStringConvertible {
    /// Not root, no `ip`, or the kernel refused a namespace: the reason in words.
    case unavailable(String)
    /// `tc netem` cannot run: the reason in words.
    case netemUnavailable(String)
    /// A set-up command failed.
    case commandFailed(command: String, status: Int32?, error: String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "network namespaces unavailable: \(reason)"
        case .netemUnavailable(let reason): "tc netem unavailable: \(reason)"
        case .commandFailed(let command, let status, let error):
            "`\(command)` failed (\(status.map { "exit \($0)" } ?? "killed")): \(error.trimmingCharacters(in: .whitespacesAndNewlines))"
        }
    }
}

/// N network namespaces, each with one interface `pk0` joined to a bridge in a hub namespace,
/// addressed 10.213.0.1 … 10.213.0.N/24, so a test has N hosts on one LAN that no other test
/// and nothing on the machine can see. Names are unique per instance (process identifier and a
/// counter), so tests may run in parallel. ``destroy()`` (or deinit) removes everything,
/// and deleting a namespace kills nothing the caller did not start but frees its interfaces.
///
/// Needs root, iproute2 (`ip`, `tc`) and, for an impairment, the kernel's `sch_netem`; the
/// static ``problem`` and ``netemProblem`` say what is missing.
public final class NetworkNamespaces: @unchecked Sendable {
    // Unchecked: the properties are immutable after init but for `destroyed`, an atomic.

    /// The namespaces' names, in order (the first has address ``address(_:)`` 0).
    public let names: [String]
    /// The hub namespace holding the bridge.
    public let hub: String
    /// The interface inside every namespace.
    public let interface = "pk0"
    /// A scratch directory for this instance's files (removed by ``destroy()``).
    public let directory: URL
    private let destroyed = Atomic(false)

    private static let counter = Atomic(0)

    /// Why namespaces cannot be made here, or `nil` when they can.
    public static let problem: String? = {
        if geteuid() != 0 { return "not root (ip netns needs CAP_SYS_ADMIN)" }
        guard TestProcess.locate("ip") != nil else { return "no `ip` (install iproute2)" }
        do {
            let probe = try NetworkNamespaces(count: 1)
            probe.destroy()
            return nil
        } catch {
            return "\(error)"
        }
    }()

    /// Why `tc netem` cannot impair traffic here, or `nil` when it can.
    public static let netemProblem: String? = {
        if let problem { return problem }
        guard TestProcess.locate("tc") != nil else { return "no `tc` (install iproute2)" }
        do {
            let probe = try NetworkNamespaces(count: 1, impairment: NetworkImpairment(delayMilliseconds: 1))
            probe.destroy()
            return nil
        } catch {
            return "\(error)"
        }
    }()

    /// Creates `count` namespaces on one bridge; with `impairment`, every namespace's interface
    /// delays and drops what it sends (so a packet between two namespaces is impaired once).
    public init(count: Int, impairment: NetworkImpairment? = nil) throws {
        precondition((1...200).contains(count), "1 to 200 namespaces")
        let serial = Self.counter.add(1, ordering: .relaxed).newValue
        let prefix = "pktest-\(getpid())-\(serial)"
        names = (0..<count).map { "\(prefix)-\($0)" }
        hub = "\(prefix)-hub"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(prefix)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try build(impairment: impairment)
        } catch {
            destroy()
            throw error
        }
    }

    /// The IPv4 address of namespace `index`.
    public func address(_ index: Int) -> String { "10.213.0.\(index + 1)" }

    private func build(impairment: NetworkImpairment?) throws {
        try ip(["netns", "add", hub])
        try ip(["-n", hub, "link", "add", "br0", "type", "bridge"])
        try ip(["-n", hub, "link", "set", "br0", "up"])
        for (index, name) in names.enumerated() {
            try ip(["netns", "add", name])
            try ip(["-n", name, "link", "set", "lo", "up"])
            try ip(["-n", hub, "link", "add", "v\(index)", "type", "veth", "peer", "name", interface, "netns", name])
            try ip(["-n", hub, "link", "set", "v\(index)", "master", "br0"])
            try ip(["-n", hub, "link", "set", "v\(index)", "up"])
            try ip(["-n", name, "addr", "add", "\(address(index))/24", "dev", interface])
            try ip(["-n", name, "link", "set", interface, "up"])
            if let impairment {
                try impair(name, impairment)
            }
        }
    }

    private func impair(_ name: String, _ impairment: NetworkImpairment) throws {
        let arguments = ["ip", "netns", "exec", name, "tc", "qdisc", "add", "dev", interface, "root", "netem",
                         "loss", "\(impairment.lossPercent)%", "delay", "\(impairment.delayMilliseconds)ms",
                         // Room for a burst of a few thousand packets in flight.
                         "limit", "10000"]
        let result = try TestProcess.run(arguments, directory: directory)
        guard result.status == 0 else {
            if result.error.contains("qdisc kind is unknown") {
                throw NetworkNamespaceError.netemUnavailable(
                    "the kernel has no sch_netem (CONFIG_NET_SCH_NETEM off or module not loaded)")
            }
            throw NetworkNamespaceError.commandFailed(
                command: arguments.joined(separator: " "), status: result.status, error: result.error)
        }
    }

    /// Runs `ip arguments…`, throwing its stderr on failure.
    private func ip(_ arguments: [String]) throws {
        let result = try TestProcess.run(["ip"] + arguments, directory: directory)
        guard result.status == 0 else {
            throw NetworkNamespaceError.commandFailed(
                command: (["ip"] + arguments).joined(separator: " "), status: result.status, error: result.error)
        }
    }

    /// Starts `arguments` inside namespace `index` (through `ip netns exec`).
    public func start(in index: Int, _ arguments: [String], environment: [String: String] = [:]) throws -> TestProcess {
        try TestProcess(["ip", "netns", "exec", names[index]] + arguments, environment: environment, directory: directory)
    }

    /// Runs `body` with the calling thread inside namespace `index`: sockets it opens belong to
    /// that namespace and keep to it afterwards. The thread returns to its own namespace before
    /// this returns; `body` must not suspend (it is synchronous, so it cannot).
    public func withNamespace<Result>(_ index: Int, _ body: () throws -> Result) throws -> Result {
        let own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        guard own >= 0 else { throw NetworkNamespaceError.unavailable("cannot open this thread's namespace") }
        defer { close(own) }
        let target = open("/run/netns/\(names[index])", O_RDONLY | O_CLOEXEC)
        guard target >= 0 else { throw NetworkNamespaceError.unavailable("namespace \(names[index]) is gone") }
        defer { close(target) }
        guard clinuxio_enter_network_namespace(target) == 0 else {
            throw NetworkNamespaceError.unavailable("setns: \(String(cString: strerror(errno)))")
        }
        defer { precondition(clinuxio_enter_network_namespace(own) == 0, "could not return to the thread's own namespace") }
        return try body()
    }

    /// Deletes the namespaces (their interfaces and the bridge go with them) and the scratch
    /// directory. Idempotent.
    public func destroy() {
        guard !destroyed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for name in names + [hub] {
            _ = try? TestProcess.run(["ip", "netns", "del", name], directory: directory)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { destroy() }
}
