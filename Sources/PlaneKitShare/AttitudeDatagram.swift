import Crypto
import PlaneKitGeometry
import PlaneKitMaps

/// A pointer's attitude on the unreliable channel (`planekit pointer`): one UDP datagram, sealed
/// as poses are (`DatagramSeal`) but of kind 2: the timestamp (f64) and the unit quaternion
/// `[x, y, z, w]` (4 × f32), little-endian.
public struct AttitudeDatagram: Sendable, Equatable {
    /// The datagram kind in the header.
    static let kind: UInt8 = 2
    /// The sealed body's length.
    static let bodyLength = 8 + 16
    /// The whole datagram's length.
    public static let length = DatagramSeal.headerLength + bodyLength + DatagramSeal.tagLength

    /// The pointer's peer number.
    public var sender: UInt16
    /// The pointer's sequence number (counts up from 1).
    public var sequence: UInt64
    /// The sensor's timestamp (s).
    public var timestamp: Double
    /// The device-to-reference rotation (unit length; see `AttitudePointer`).
    public var orientation: Quaternion

    /// An attitude from its parts.
    public init(sender: UInt16, sequence: UInt64, timestamp: Double, orientation: Quaternion) {
        self.sender = sender
        self.sequence = sequence
        self.timestamp = timestamp
        self.orientation = orientation
    }

    /// The sealed datagram.
    public func sealed(with key: SymmetricKey) throws -> [UInt8] {
        var body = MapByteWriter()
        body.f64(timestamp)
        let q = orientation.vector
        for k in 0..<4 { body.f32(q[k]) }
        return try DatagramSeal.seal(kind: Self.kind, sender: sender, sequence: sequence, body: body.bytes, with: key)
    }

    /// Opens a datagram: checks its header, authenticates it and checks that the body is a
    /// finite timestamp and a unit quaternion (within `AttitudeRecord`'s tolerance).
    public static func open(_ bytes: [UInt8], with key: SymmetricKey) throws(PoseDatagram.Problem) -> AttitudeDatagram {
        guard let (sender, sequence, plain) = DatagramSeal.open(bytes, kind: kind, bodyLength: bodyLength, with: key) else {
            throw .unauthentic
        }
        var r = MapByteReader(plain)
        guard let timestamp = try? r.f64("timestamp"), timestamp.isFinite,
              let x = try? r.f32("x"), let y = try? r.f32("y"), let z = try? r.f32("z"), let w = try? r.f32("w") else {
            throw .invalid
        }
        let length = (x * x + y * y + z * z + w * w).squareRoot()
        guard length.isFinite, abs(length - 1) <= 0.01 else { throw .invalid }
        return AttitudeDatagram(sender: sender, sequence: sequence, timestamp: timestamp,
                                orientation: Quaternion(x: x, y: y, z: z, w: w).normalized)
    }
}
