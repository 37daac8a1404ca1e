import Crypto

/// The sealing shared by the unreliable channel's datagrams (poses, attitudes): a 12-byte
/// header — version, kind, the sender's peer number (u16 big-endian), its sequence number (u64
/// big-endian) — authenticated as associated data, then the ChaCha20-Poly1305 sealed body and
/// its 16-byte tag. The nonce is the sender's number, the kind and the sequence number, so no
/// two datagrams of one key share a nonce while each sender counts up per kind.
enum DatagramSeal {
    /// The header's length.
    static let headerLength = 12
    /// The tag's length.
    static let tagLength = 16

    /// The datagram of `kind` carrying `body`.
    static func seal(kind: UInt8, sender: UInt16, sequence: UInt64, body: [UInt8], with key: SymmetricKey) throws -> [UInt8] {
        let header = header(kind: kind, sender: sender, sequence: sequence)
        let box = try ChaChaPoly.seal(body, using: key, nonce: try nonce(kind: kind, sender: sender, sequence: sequence),
                                      authenticating: header)
        return header + Array(box.ciphertext) + Array(box.tag)
    }

    /// The sender, sequence number and opened body of a datagram of `kind` whose body has
    /// `bodyLength` bytes; `nil` when it is not one (wrong size, version or kind) or fails authentication.
    static func open(_ bytes: [UInt8], kind: UInt8, bodyLength: Int, with key: SymmetricKey) -> (sender: UInt16, sequence: UInt64, body: [UInt8])? {
        let length = headerLength + bodyLength + tagLength
        guard bytes.count == length, let (found, sender, sequence) = header(of: bytes), found == kind else { return nil }
        do {
            let box = try ChaChaPoly.SealedBox(nonce: try nonce(kind: kind, sender: sender, sequence: sequence),
                                               ciphertext: bytes[headerLength..<length - tagLength], tag: bytes[(length - tagLength)...])
            return (sender, sequence, Array(try ChaChaPoly.open(box, using: key, authenticating: bytes[0..<headerLength])))
        } catch {
            return nil
        }
    }

    /// The kind, sender and sequence number of a datagram's header, unauthenticated; `nil` when
    /// it is too short or of another version.
    static func header(of bytes: [UInt8]) -> (kind: UInt8, sender: UInt16, sequence: UInt64)? {
        guard bytes.count >= headerLength, bytes[0] == ShareLimits.version else { return nil }
        var sequence: UInt64 = 0
        for k in 4..<headerLength { sequence = sequence << 8 | UInt64(bytes[k]) }
        return (bytes[1], UInt16(bytes[2]) << 8 | UInt16(bytes[3]), sequence)
    }

    /// The kind byte of a datagram, unauthenticated (for choosing how to open it).
    static func kind(of bytes: [UInt8]) -> UInt8? { bytes.count > headerLength ? bytes[1] : nil }

    static func header(kind: UInt8, sender: UInt16, sequence: UInt64) -> [UInt8] {
        var header: [UInt8] = [ShareLimits.version, kind, UInt8(sender >> 8), UInt8(truncatingIfNeeded: sender)]
        for k in stride(from: 56, through: 0, by: -8) { header.append(UInt8(truncatingIfNeeded: sequence >> UInt64(k))) }
        return header
    }

    /// Poses (kind 1) keep the nonce they always had (a zero third byte); other kinds put their
    /// kind there, so a sender's poses and attitudes never share a nonce.
    private static func nonce(kind: UInt8, sender: UInt16, sequence: UInt64) throws -> ChaChaPoly.Nonce {
        var bytes: [UInt8] = [UInt8(sender >> 8), UInt8(truncatingIfNeeded: sender), kind == 1 ? 0 : kind, 0]
        for k in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: sequence >> UInt64(k))) }
        return try ChaChaPoly.Nonce(data: bytes)
    }
}
