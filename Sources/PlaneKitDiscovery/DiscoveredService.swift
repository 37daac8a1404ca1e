/// A service instance found on DNS-SD and resolved to an address.
public struct DiscoveredService: Equatable, Sendable {
    /// The instance name.
    public var name: String
    /// The service type it was found under.
    public var type: String
    /// The host's mDNS name, for example `kitchen.local`.
    public var hostName: String
    /// The host's numeric address (IPv4 dotted or IPv6, with `%interface` for a link-local IPv6).
    public var address: String
    /// The service's port.
    public var port: UInt16
    /// The TXT record's entries (a key without `=` maps to the empty string).
    public var txt: [String: String]

    /// Creates a resolved service.
    public init(name: String, type: String, hostName: String, address: String, port: UInt16, txt: [String: String]) {
        self.name = name
        self.type = type
        self.hostName = hostName
        self.address = address
        self.port = port
        self.txt = txt
    }

    /// The address and port as `ADDR:PORT` (`[ADDR]:PORT` for IPv6), the form `--join` takes.
    public var endpoint: String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    /// The shared-session protocol version from the TXT record, or `nil` when absent or not a number.
    public var protocolVersion: Int? {
        txt[ServiceAdvertisement.protocolVersionKey].flatMap { Int($0) }
    }
}
