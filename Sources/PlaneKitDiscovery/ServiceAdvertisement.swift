/// What a host publishes on DNS-SD: an instance name, a service type, a port and a TXT record.
public struct ServiceAdvertisement: Equatable, Sendable {
    /// PlaneKit's DNS-SD service type: shared spaces are found under it.
    public static let planeKitType = "_planekit._tcp"
    /// The TXT key that carries the shared-session protocol version.
    public static let protocolVersionKey = "protocol"

    /// The instance name people choose among (at most 63 UTF-8 bytes, DNS-SD's label limit).
    public var name: String
    /// The service type, `_name._tcp` or `_name._udp`.
    public var type: String
    /// The TCP or UDP port the service listens on.
    public var port: UInt16
    /// The TXT record's `key=value` entries (each at most 255 bytes).
    public var txt: [String: String]

    /// An advertisement of any service type.
    public init(name: String, type: String, port: UInt16, txt: [String: String] = [:]) {
        self.name = name
        self.type = type
        self.port = port
        self.txt = txt
    }

    /// A PlaneKit shared space: type `_planekit._tcp`, TXT `protocol=<version>`.
    public static func planeKit(name: String, port: UInt16, protocolVersion: Int) -> ServiceAdvertisement {
        ServiceAdvertisement(name: name, type: planeKitType, port: port, txt: [protocolVersionKey: String(protocolVersion)])
    }

    /// Why this cannot be published, or `nil` when it can.
    var problem: String? {
        if name.isEmpty { return "empty instance name" }
        if name.utf8.count > 63 { return "instance name \"\(name)\" longer than 63 bytes" }
        if port == 0 { return "port 0" }
        for (key, value) in txt {
            if key.isEmpty || key.contains("=") { return "TXT key \"\(key)\" empty or containing '='" }
            if key.utf8.count + 1 + value.utf8.count > 255 { return "TXT entry \"\(key)\" longer than 255 bytes" }
        }
        return nil
    }
}
