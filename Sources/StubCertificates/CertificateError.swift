/// Why a certificate authority or a certificate could not be loaded, made or used: a ``Kind`` to switch on and a
/// message that names the file and says what to do.
///
/// ```swift
/// do {
///     let authority = try CertificateAuthority.loadOrCreate(in: CertificateAuthority.defaultDirectory())
/// } catch {
///     print(error)  // "/home/me/.local/share/stubserver/ca/ca.key is readable by others: run chmod 600 …"
/// }
/// ```
public struct CertificateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A file or folder could not be read (missing, no permission).
        case unreadable
        /// A file or folder could not be written or created.
        case unwritable
        /// A file's contents are not what they should be: bad PEM, DER, certificate or key.
        case corrupt
        /// The certificate authority's folder or key can be read by other users.
        case insecurePermissions
        /// The private key is not the certificate's.
        case keyMismatch
        /// A PKCS#12 file could not be opened with the password given (or is not PKCS#12).
        case pkcs12
        /// This build or system has no cryptography library: on Linux, libcrypto.so.3 is missing, or the build is
        /// the static Slim one.
        case cryptoUnavailable
        /// The cryptography library refused an operation.
        case cryptoFailure
        /// A name for a server certificate is neither a DNS name nor an IP address.
        case invalidName
    }

    /// What went wrong.
    public let kind: Kind
    /// The whole explanation: the file, what is wrong with it, and what to do.
    public let message: String

    /// Creates an error of `kind` with `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
