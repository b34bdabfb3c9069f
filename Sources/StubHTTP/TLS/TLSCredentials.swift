/// A server certificate chain and its private key: what an HTTPS listener presents
/// (``HTTPServerConfiguration/TLS``).
///
/// ```swift
/// let credentials = TLSCredentials(certificateChain: [leafDER, intermediateDER], privateKey: pkcs8DER)
/// ```
///
/// Made by the certificate layer (a local authority's leaf, or the user's PEM or PKCS#12 files); the engine only
/// presents them.
public struct TLSCredentials: Sendable, Hashable {
    /// DER certificates: the server's first, then any intermediates (the root is not sent).
    public var certificateChain: [[UInt8]]
    /// The first certificate's private key as unencrypted PKCS#8 DER (`PRIVATE KEY`): EC P-256 or P-384, or RSA.
    public var privateKey: [UInt8]

    /// Creates credentials from DER certificates (leaf first) and the leaf's PKCS#8 DER private key.
    public init(certificateChain: [[UInt8]], privateKey: [UInt8]) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
