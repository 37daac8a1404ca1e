import Crypto
import FoundationEssentials
import NIOCore
import NIOSSL
import SwiftASN1
import X509

/// What a space's secret makes of every peer: one P-256 signing key derived from the secret
/// with HKDF-SHA256, and a self-signed certificate of that key. Both sides of a TLS 1.3
/// connection present it and accept only a peer whose certificate carries that same public key,
/// so a handshake succeeds exactly when both know the secret (a pre-shared key turned into a
/// pinned certificate: no home-made cryptography, TLS does the rest).
public struct SpaceCredentials: Sendable {
    /// The key every peer of the space derives.
    let signingKey: P256.Signing.PrivateKey
    /// The space's certificate (DER).
    let certificateDER: [UInt8]
    /// The certificate's public key as SubjectPublicKeyInfo (DER), the pin peers are held to.
    let pinnedKey: [UInt8]

    /// The HKDF salt and info: fixed, so that the same secret gives the same key on every peer.
    static let salt = Array("planekit-share salt v1".utf8)
    static let info = "planekit-share TLS identity P-256 v1"

    /// Credentials for the space whose secret is `secret` (at least ``minimumSecretLength`` bytes).
    public init(secret: [UInt8]) throws {
        guard secret.count >= Self.minimumSecretLength else { throw ShareError.weakSecret(secret.count) }
        signingKey = try Self.deriveKey(secret)
        let name = try DistinguishedName { CommonName("planekit space") }
        // Fixed dates and serial: the certificate is a carrier for the key, compared by key only.
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: [1]),
            publicKey: Certificate.PublicKey(signingKey.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_577_836_800), notValidAfter: Date(timeIntervalSince1970: 4_102_444_800),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: Certificate.Extensions(),
            issuerPrivateKey: Certificate.PrivateKey(signingKey))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        certificateDER = serializer.serializedBytes
        pinnedKey = try NIOSSLCertificate(bytes: certificateDER, format: .der).extractPublicKey().toSPKIBytes()
    }

    /// The shortest secret accepted (bytes): a space is only as private as its secret.
    public static let minimumSecretLength = 8

    /// HKDF-SHA256 of the secret to a valid P-256 scalar (the rare 32 bytes at or above the
    /// group order are skipped by counting up in the info).
    static func deriveKey(_ secret: [UInt8]) throws -> P256.Signing.PrivateKey {
        for attempt in 0..<16 {
            let bytes = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), salt: salt,
                                               info: Array("\(info) \(attempt)".utf8), outputByteCount: 32)
            if let key = try? bytes.withUnsafeBytes({ try P256.Signing.PrivateKey(rawRepresentation: $0) }) { return key }
        }
        throw ShareError.weakSecret(secret.count)
    }

    /// A TLS 1.3-only context presenting the space's certificate and requiring the peer's.
    func context(server: Bool) throws -> NIOSSLContext {
        let chain = [NIOSSLCertificateSource.certificate(try NIOSSLCertificate(bytes: certificateDER, format: .der))]
        let key = NIOSSLPrivateKeySource.privateKey(try NIOSSLPrivateKey(bytes: Array(signingKey.derRepresentation), format: .der))
        var configuration = server
            ? TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: key)
            : TLSConfiguration.makeClientConfiguration()
        if !server {
            configuration.certificateChain = chain
            configuration.privateKey = key
        }
        configuration.minimumTLSVersion = .tlsv13
        configuration.maximumTLSVersion = .tlsv13
        // Verification is the pin below; no host names (peers are addresses on a local network).
        configuration.certificateVerification = .noHostnameVerification
        return try NIOSSLContext(configuration: configuration)
    }

    /// The verification both sides use: the peer's leaf certificate must carry the space's key.
    func verify(_ chain: [NIOSSLCertificate], _ promise: EventLoopPromise<NIOSSLVerificationResult>) {
        let pinned = pinnedKey
        guard let leaf = chain.first, let spki = try? leaf.extractPublicKey().toSPKIBytes(), spki == pinned else {
            promise.succeed(.failed)
            return
        }
        promise.succeed(.certificateVerified)
    }
}
