import CAvahi

/// Why DNS-SD discovery could not advertise or find a service.
///
/// Every case's ``description`` is one line fit for stderr; ``daemonNotRunning`` says that
/// discovery is off and what to do instead, since a machine without avahi-daemon is normal.
public enum DiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No avahi-daemon answers on the D-Bus system bus, or there is no system bus at all
    /// (Avahi reports both as `AVAHI_ERR_NO_DAEMON`): discovery is off, addresses must be given
    /// by hand.
    case daemonNotRunning
    /// Avahi refused an operation; `code` is its `AVAHI_ERR_…` number, `message` its text.
    case avahi(operation: String, code: Int32, message: String)
    /// No instance of that name and type answered within the timeout.
    case notFound(name: String, type: String, timeout: Duration)
    /// The advertisement was not established (probed and announced) within the timeout.
    case notEstablished(name: String, timeout: Duration)
    /// The advertisement cannot be published as given (empty or over-long name, bad TXT entry).
    case invalidAdvertisement(String)

    /// Maps an Avahi error code from `operation` to a case.
    init(avahiCode code: Int32, operation: String) {
        if code == Int32(AVAHI_ERR_NO_DAEMON) {
            self = .daemonNotRunning
        } else {
            self = .avahi(operation: operation, code: code, message: String(cString: avahi_strerror(code)))
        }
    }

    /// Whether this means discovery is off on this machine (no daemon or no bus), so a caller
    /// should fall back to an address given by hand rather than fail.
    public var isDiscoveryOff: Bool { self == .daemonNotRunning }

    /// The error as one line for stderr.
    public var description: String {
        switch self {
        case .daemonNotRunning:
            "DNS-SD discovery is off: Avahi daemon not running (AVAHI_ERR_NO_DAEMON); use --join ADDR:PORT"
        case .avahi(let operation, let code, let message):
            "DNS-SD discovery failed while \(operation): \(message) (Avahi error \(code))"
        case .notFound(let name, let type, let timeout):
            "no DNS-SD service \"\(name)\" of type \(type) answered within \(Self.seconds(timeout)) s"
        case .notEstablished(let name, let timeout):
            "the DNS-SD service \"\(name)\" was not established within \(Self.seconds(timeout)) s"
        case .invalidAdvertisement(let reason):
            "cannot advertise on DNS-SD: \(reason)"
        }
    }

    /// A timeout in seconds with up to three decimals, without Foundation's formatting.
    private static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(milliseconds / 1000)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(milliseconds / 1000).\(digits)"
    }
}
