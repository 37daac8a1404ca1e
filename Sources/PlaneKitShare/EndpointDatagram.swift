import Crypto

/// "Send the space's poses here": a datagram on the pose channel that carries no pose. The host
/// learns where a peer's poses go from the peer's authentic datagrams; a peer that sends no
/// poses of its own (an observer) sends this instead, and again every second or so, as UDP may
/// lose it. The host takes its source address as the sender's endpoint and relays nothing.
///
/// Sealed as every datagram of the channel is (`DatagramSeal`), of kind 3 with an empty body:
/// the 12-byte header, authenticated, and the 16-byte tag.
public struct EndpointDatagram: Sendable, Equatable {
    /// The sender's peer number.
    public var sender: UInt16
    /// The sender's sequence number (counts up from 1): an older or replayed one is refused, so
    /// a recorded datagram cannot move the sender's endpoint elsewhere.
    public var sequence: UInt64

    /// A datagram from its parts.
    public init(sender: UInt16, sequence: UInt64) {
        self.sender = sender
        self.sequence = sequence
    }

    /// The header's kind byte.
    static let kind: UInt8 = 3
    /// The whole datagram's length.
    public static let length = DatagramSeal.headerLength + DatagramSeal.tagLength

    /// The sealed datagram.
    public func sealed(with key: SymmetricKey) throws -> [UInt8] {
        try DatagramSeal.seal(kind: Self.kind, sender: sender, sequence: sequence, body: [], with: key)
    }

    /// Opens a datagram: checks its header and authenticates it; `nil` when it is not authentic.
    public static func open(_ bytes: [UInt8], with key: SymmetricKey) -> EndpointDatagram? {
        guard let (sender, sequence, _) = DatagramSeal.open(bytes, kind: kind, bodyLength: 0, with: key) else { return nil }
        return EndpointDatagram(sender: sender, sequence: sequence)
    }
}
