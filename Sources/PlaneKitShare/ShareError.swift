/// Why a shared space could not be set up or a peer was refused.
public enum ShareError: Error, Sendable, CustomStringConvertible {
    /// The secret is shorter than ``SpaceCredentials/minimumSecretLength`` bytes.
    case weakSecret(Int)
    /// A message broke the protocol (docs/protocol.md): what was wrong.
    case malformed(String)
    /// A message longer than ``ShareLimits/maximumMessage``.
    case oversized(Int)
    /// The host refused to let this peer in, and why.
    case refused(String)
    /// The connection failed or closed before the space was joined.
    case connection(String)

    /// One line for stderr.
    public var description: String {
        switch self {
        case .weakSecret(let count):
            "the space secret has \(count) bytes; give at least \(SpaceCredentials.minimumSecretLength)"
        case .malformed(let problem): "malformed message: \(problem)"
        case .oversized(let size): "message of \(size) bytes, more than the \(ShareLimits.maximumMessage) allowed"
        case .refused(let reason): "refused by the host: \(reason)"
        case .connection(let problem): problem
        }
    }
}

/// The protocol's limits (docs/protocol.md): anything beyond them is refused, before it costs memory.
public enum ShareLimits {
    /// The protocol version every message and datagram carries.
    public static let version: UInt8 = 3
    /// The longest message on the reliable channel, its header included (bytes).
    public static let maximumMessage = 1 << 20
    /// The size of the world map's chunks (bytes).
    public static let mapChunk = 256 << 10
    /// The largest world map a joiner accepts (bytes).
    public static let maximumMap = 256 << 20
    /// The longest peer or object name (bytes of UTF-8).
    public static let maximumName = 256
    /// The most peers a welcome may list.
    public static let maximumPeers = 64
    /// The largest peer count `--max-peers` allows.
    public static let maximumMaxPeers = 64
    /// Seconds a new connection has to finish its handshake and say hello.
    public static let helloSeconds: Int64 = 10
    /// Objects a peer's range holds: peer slot `s` numbers its objects from `s × objectRange + 1`.
    public static let objectRange: UInt64 = 1_000_000
}
