/// Where the view listens: a host (an IPv4 or IPv6 address or a name) and a TCP port.
///
/// Parsed from `ADDR:PORT`, `[IPv6]:PORT` or a bare `PORT` (loopback, 127.0.0.1). Port 0 lets
/// the system pick a free port (the view prints the one it got).
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The host to bind.
    public var host: String
    /// The TCP port (0: any free port).
    public var port: Int

    /// Loopback only: the default, so nothing is exposed unless asked for.
    public static func loopback(port: Int) -> ListenAddress { ListenAddress(host: "127.0.0.1", port: port) }

    /// An address from its parts.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `ADDR:PORT`, `[IPv6]:PORT` or `PORT`; `nil` when the port is not a number from 0
    /// to 65535 or the host is empty.
    public init?(parsing text: String) {
        let host: Substring, portText: Substring
        if let colon = text.lastIndex(of: ":") {
            var h = text[..<colon]
            if h.hasPrefix("["), h.hasSuffix("]") { h = h.dropFirst().dropLast() }
            host = h
            portText = text[text.index(after: colon)...]
        } else {
            host = "127.0.0.1"
            portText = Substring(text)
        }
        guard !host.isEmpty, !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText),
              (0...65535).contains(port) else { return nil }
        self.init(host: String(host), port: port)
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
