import CAvahi
import Glibc

/// Finds DNS-SD services through avahi-daemon: lists the instances of a type, and resolves an
/// instance by name to a host address, port and TXT record.
///
/// Each call connects to the daemon, runs Avahi's event loop on its own thread and blocks the
/// caller until the answer or the timeout, whichever comes first: call it off any event loop
/// (for example before starting one, or from a dedicated thread).
public enum ServiceResolver {
    /// Which address family a resolved address may have.
    public enum AddressFamily: Sendable {
        /// IPv4 only: the address works without naming an interface.
        case ipv4
        /// IPv6 only.
        case ipv6
        /// Whichever the daemon finds first.
        case any

        /// Avahi's protocol constant.
        var avahiProtocol: AvahiProtocol {
            switch self {
            case .ipv4: AvahiProtocol(AVAHI_PROTO_INET)
            case .ipv6: AvahiProtocol(AVAHI_PROTO_INET6)
            case .any: AvahiProtocol(AVAHI_PROTO_UNSPEC)
            }
        }
    }

    /// Resolves the instance called `name` of `type` to its address, port and TXT record.
    ///
    /// - Throws: ``DiscoveryError/daemonNotRunning`` without avahi-daemon,
    ///   ``DiscoveryError/notFound(name:type:timeout:)`` when no such instance answered in time.
    public static func resolve(
        name: String, type: String = ServiceAdvertisement.planeKitType, addressFamily: AddressFamily = .ipv4,
        timeout: Duration = .seconds(5)
    ) throws(DiscoveryError) -> DiscoveredService {
        let loop = try AvahiLoop()
        defer { loop.close() }
        let lookup = Lookup<ResolveOutcome>(.pending)
        let context = Unmanaged.passUnretained(lookup).toOpaque()
        try loop.locked { () throws(DiscoveryError) in
            // The resolver is freed with the client when the loop closes.
            guard avahi_service_resolver_new(
                loop.client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), name, type, nil,
                addressFamily.avahiProtocol, AvahiLookupFlags(0), resolved, context) != nil
            else { throw loop.lastError("resolving \"\(name)\"") }
        }
        switch lookup.state.wait(timeout: timeout, until: { $0.isSettled }) {
        case .found(let service): return service
        case .pending, .missing: throw .notFound(name: name, type: type, timeout: timeout)
        }
    }

    /// The instance names of `type` on the network, sorted and without repeats (an instance
    /// seen on several interfaces or protocols is listed once).
    ///
    /// Returns when the daemon reports that no more answers are likely soon (mDNS waits about a
    /// second for them) or at the timeout, with what was found by then.
    public static func instanceNames(
        type: String = ServiceAdvertisement.planeKitType, timeout: Duration = .seconds(3)
    ) throws(DiscoveryError) -> [String] {
        let loop = try AvahiLoop()
        defer { loop.close() }
        let lookup = Lookup(BrowseState())
        let context = Unmanaged.passUnretained(lookup).toOpaque()
        try loop.locked { () throws(DiscoveryError) in
            guard avahi_service_browser_new(
                loop.client, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), type, nil,
                AvahiLookupFlags(0), browsed, context) != nil
            else { throw loop.lastError("browsing \(type)") }
        }
        let state = lookup.state.wait(timeout: timeout) { $0.isComplete }
        if let error = state.failure { throw error }
        return state.names.sorted()
    }
}

/// The state of one lookup, handed to Avahi's callbacks as their context. The caller keeps it
/// alive until the loop is closed, which ends the callbacks.
private final class Lookup<State: Sendable>: Sendable {
    let state: WaitableState<State>
    init(_ initial: State) { state = WaitableState(initial) }
}

/// A name resolution's outcome.
private enum ResolveOutcome: Sendable {
    case pending
    case found(DiscoveredService)
    /// Avahi gave up (its own timeout): no such instance.
    case missing

    var isSettled: Bool {
        if case .pending = self { return false }
        return true
    }
}

/// What a browse has seen.
private struct BrowseState: Sendable {
    var names: Set<String> = []
    var isComplete = false
    var failure: DiscoveryError?
}

/// The service resolver's callback, on the loop's thread.
private func resolved(
    _ resolver: OpaquePointer?, _ interface: AvahiIfIndex, _ protocol: AvahiProtocol, _ event: AvahiResolverEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ hostName: UnsafePointer<CChar>?, _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16,
    _ txt: UnsafeMutablePointer<AvahiStringList>?, _ flags: AvahiLookupResultFlags, _ context: UnsafeMutableRawPointer?
) {
    guard let context else { return }
    let lookup = Unmanaged<Lookup<ResolveOutcome>>.fromOpaque(context).takeUnretainedValue()
    guard event == AVAHI_RESOLVER_FOUND, let name, let type, let address else {
        lookup.state.update { if case .pending = $0 { $0 = .missing } }
        return
    }
    let service = DiscoveredService(
        name: String(cString: name), type: String(cString: type), hostName: hostName.map { String(cString: $0) } ?? "",
        address: addressText(address, interface: interface), port: port, txt: txtEntries(txt))
    lookup.state.update { $0 = .found(service) }
}

/// The service browser's callback, on the loop's thread.
private func browsed(
    _ browser: OpaquePointer?, _ interface: AvahiIfIndex, _ protocol: AvahiProtocol, _ event: AvahiBrowserEvent,
    _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?,
    _ flags: AvahiLookupResultFlags, _ context: UnsafeMutableRawPointer?
) {
    guard let context else { return }
    let lookup = Unmanaged<Lookup<BrowseState>>.fromOpaque(context).takeUnretainedValue()
    switch event {
    case AVAHI_BROWSER_NEW:
        if let name { lookup.state.update { _ = $0.names.insert(String(cString: name)) } }
    case AVAHI_BROWSER_ALL_FOR_NOW:
        lookup.state.update { $0.isComplete = true }
    case AVAHI_BROWSER_FAILURE:
        let error = DiscoveryError(avahiCode: avahi_client_errno(avahi_service_browser_get_client(browser)),
                                   operation: "browsing")
        lookup.state.update {
            $0.failure = error
            $0.isComplete = true
        }
    default:
        break
    }
}

/// An Avahi address as text; a link-local IPv6 address gets its interface (`fe80::1%eth0`),
/// without which it cannot be dialled.
private func addressText(_ address: UnsafePointer<AvahiAddress>, interface: AvahiIfIndex) -> String {
    var buffer = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
    avahi_address_snprint(&buffer, buffer.count, address)
    let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    guard address.pointee.proto == AvahiProtocol(AVAHI_PROTO_INET6), text.lowercased().hasPrefix("fe80:"),
          interface >= 0
    else { return text }
    var interfaceName = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
    guard if_indextoname(UInt32(interface), &interfaceName) != nil else { return text }
    return text + "%" + interfaceName.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

/// A TXT record's `key=value` entries; a bare key maps to the empty string.
private func txtEntries(_ list: UnsafeMutablePointer<AvahiStringList>?) -> [String: String] {
    var entries: [String: String] = [:]
    var item = list
    while let current = item {
        var key: UnsafeMutablePointer<CChar>? = nil
        var value: UnsafeMutablePointer<CChar>? = nil
        if avahi_string_list_get_pair(current, &key, &value, nil) == 0, let key {
            entries[String(cString: key)] = value.map { String(cString: $0) } ?? ""
            avahi_free(key)
            avahi_free(value)
        }
        item = avahi_string_list_get_next(current)
    }
    return entries
}
