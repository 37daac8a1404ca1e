import Crypto
import PlaneKitGeometry
import PlaneKitTracking

/// A camera pose on the unreliable channel: one UDP datagram, sealed with ChaCha20-Poly1305
/// under the space's pose key (made by the host, handed out over TLS).
///
/// Layout: a 12-byte header — version, kind (1), the sender's peer number (u16 big-endian) and
/// its sequence number (u64 big-endian) — authenticated as associated data; then the sealed
/// body (timestamp f64 and the 16 floats of the column-major transform, little-endian) and the
/// 16-byte tag. The nonce is the sender's number and sequence number, so no two datagrams of
/// one key share a nonce as long as each sender counts up, which it does.
public struct PoseDatagram: Sendable, Equatable {
    /// The sender's peer number.
    public var sender: UInt16
    /// The sender's sequence number (counts up from 1).
    public var sequence: UInt64
    /// The sender's frame timestamp (s).
    public var timestamp: Double
    /// World-from-camera in the space's world.
    public var transform: Transform

    /// A pose from its parts.
    public init(sender: UInt16, sequence: UInt64, timestamp: Double, transform: Transform) {
        self.sender = sender
        self.sequence = sequence
        self.timestamp = timestamp
        self.transform = transform
    }

    /// The header's length.
    static let headerLength = 12
    /// The whole datagram's length.
    public static let length = headerLength + 8 + 64 + 16

    /// The sealed datagram.
    public func sealed(with key: SymmetricKey) throws -> [UInt8] {
        let header = Self.header(sender: sender, sequence: sequence)
        var body = MapByteWriter()
        body.f64(timestamp)
        for x in transform.columnMajor { body.f32(x) }
        let box = try ChaChaPoly.seal(body.bytes, using: key, nonce: try Self.nonce(sender: sender, sequence: sequence),
                                      authenticating: header)
        return header + Array(box.ciphertext) + Array(box.tag)
    }

    /// What can be wrong with a datagram.
    public enum Problem: Error, Sendable, Equatable {
        /// Not this protocol's, or it failed authentication (tampered, another key, garbage).
        case unauthentic
        /// Authentic, but its body is not a finite rigid pose (a peer's bug).
        case invalid
    }

    /// Opens a datagram: checks its header, authenticates it and validates the pose.
    public static func open(_ bytes: [UInt8], with key: SymmetricKey) throws(Problem) -> PoseDatagram {
        guard bytes.count == length, bytes[0] == ShareLimits.version, bytes[1] == 1 else { throw .unauthentic }
        let sender = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        var sequence: UInt64 = 0
        for k in 4..<12 { sequence = sequence << 8 | UInt64(bytes[k]) }
        let plain: [UInt8]
        do {
            let box = try ChaChaPoly.SealedBox(nonce: try nonce(sender: sender, sequence: sequence),
                                               ciphertext: bytes[headerLength..<length - 16], tag: bytes[(length - 16)...])
            plain = Array(try ChaChaPoly.open(box, using: key, authenticating: bytes[0..<headerLength]))
        } catch {
            throw .unauthentic
        }
        var r = MapByteReader(plain)
        do {
            let timestamp = try r.f64("timestamp")
            var numbers: [Float] = []
            for _ in 0..<16 { numbers.append(try r.f32("transform")) }
            guard let transform = Transform(columnMajor: numbers) else { throw Problem.invalid }
            return PoseDatagram(sender: sender, sequence: sequence, timestamp: timestamp, transform: transform)
        } catch {
            throw .invalid
        }
    }

    /// The sender's number and sequence number of a datagram of the right size, unauthenticated
    /// (for relaying and counting only).
    static func header(sender: UInt16, sequence: UInt64) -> [UInt8] {
        var header: [UInt8] = [ShareLimits.version, 1, UInt8(sender >> 8), UInt8(truncatingIfNeeded: sender)]
        for k in stride(from: 56, through: 0, by: -8) { header.append(UInt8(truncatingIfNeeded: sequence >> UInt64(k))) }
        return header
    }

    /// The nonce of the sender's datagram `sequence`; `domain` keeps other kinds' nonces
    /// (``EndpointDatagram``) apart from poses' (0).
    static func nonce(sender: UInt16, sequence: UInt64, domain: UInt8 = 0) throws -> ChaChaPoly.Nonce {
        var bytes: [UInt8] = [UInt8(sender >> 8), UInt8(truncatingIfNeeded: sender), 0, domain]
        for k in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: sequence >> UInt64(k))) }
        return try ChaChaPoly.Nonce(data: bytes)
    }
}

/// Newest-wins acceptance of pose datagrams: per sender, only a sequence number above the
/// newest accepted one passes; replays and stale (reordered, older) datagrams are refused.
public struct ReplayGuard: Sendable {
    private var newest: [UInt16: UInt64] = [:]

    /// No sender seen yet.
    public init() {}

    /// Whether `sequence` from `sender` is new; if so it becomes that sender's newest.
    public mutating func accept(sender: UInt16, sequence: UInt64) -> Bool {
        if let last = newest[sender], sequence <= last { return false }
        newest[sender] = sequence
        return true
    }

    /// Forgets a sender (it left; a peer number is never given again).
    public mutating func forget(_ sender: UInt16) { newest[sender] = nil }
}
