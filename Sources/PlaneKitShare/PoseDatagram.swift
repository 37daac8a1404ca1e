import Crypto
import PlaneKitGeometry
import PlaneKitMaps

/// A camera pose on the unreliable channel: one UDP datagram, sealed with ChaCha20-Poly1305
/// under the space's pose key (made by the host, handed out over TLS).
///
/// Layout: `DatagramSeal`'s header with kind 1, then the sealed body (timestamp f64 and the
/// 16 floats of the column-major transform, little-endian) and the 16-byte tag.
public struct PoseDatagram: Sendable, Equatable {
    /// The datagram kind in the header.
    static let kind: UInt8 = 1
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

    /// The whole datagram's length.
    public static let length = DatagramSeal.headerLength + bodyLength + DatagramSeal.tagLength
    /// The sealed body's length: the timestamp and the 16 floats.
    static let bodyLength = 8 + 64

    /// The sealed datagram.
    public func sealed(with key: SymmetricKey) throws -> [UInt8] {
        var body = MapByteWriter()
        body.f64(timestamp)
        for x in transform.columnMajor { body.f32(x) }
        return try DatagramSeal.seal(kind: Self.kind, sender: sender, sequence: sequence, body: body.bytes, with: key)
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
        guard let (sender, sequence, plain) = DatagramSeal.open(bytes, kind: kind, bodyLength: bodyLength, with: key) else {
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
