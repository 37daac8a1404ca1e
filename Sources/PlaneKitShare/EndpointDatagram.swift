import Crypto

/// "Send the space's poses here": a datagram on the pose channel that carries no pose. The host
/// learns where a peer's poses go from the peer's authentic datagrams; a peer that sends no
/// poses of its own (an observer) sends this instead, and again every second or so, as UDP may
/// lose it. The host takes its source address as the sender's endpoint and relays nothing.
///
/// Layout: the 12-byte header of ``PoseDatagram`` with kind 2 — version, kind, the sender's peer
/// number (u16 big-endian), its sequence number (u64 big-endian) — authenticated as associated
/// data with an empty sealed body, so the datagram is the header and the 16-byte tag. The nonce
/// is the sender's number, the kind and the sequence number: it never meets a pose's nonce.
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
    static let kind: UInt8 = 2
    /// The whole datagram's length.
    public static let length = PoseDatagram.headerLength + 16

    /// The sealed datagram.
    public func sealed(with key: SymmetricKey) throws -> [UInt8] {
        var header = PoseDatagram.header(sender: sender, sequence: sequence)
        header[1] = Self.kind
        let box = try ChaChaPoly.seal([UInt8](), using: key, nonce: try PoseDatagram.nonce(sender: sender, sequence: sequence, domain: Self.kind),
                                      authenticating: header)
        return header + Array(box.tag)
    }

    /// Whether `bytes` claims to be one (its length and kind; not yet authenticated).
    static func claims(_ bytes: [UInt8]) -> Bool {
        bytes.count == length && bytes[0] == ShareLimits.version && bytes[1] == kind
    }

    /// Opens a datagram: checks its header and authenticates it; `nil` when it is not authentic.
    public static func open(_ bytes: [UInt8], with key: SymmetricKey) -> EndpointDatagram? {
        guard claims(bytes) else { return nil }
        let sender = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        var sequence: UInt64 = 0
        for k in 4..<PoseDatagram.headerLength { sequence = sequence << 8 | UInt64(bytes[k]) }
        do {
            let box = try ChaChaPoly.SealedBox(nonce: try PoseDatagram.nonce(sender: sender, sequence: sequence, domain: kind),
                                               ciphertext: [UInt8](), tag: bytes[PoseDatagram.headerLength...])
            _ = try ChaChaPoly.open(box, using: key, authenticating: bytes[0..<PoseDatagram.headerLength])
        } catch {
            return nil
        }
        return EndpointDatagram(sender: sender, sequence: sequence)
    }
}
