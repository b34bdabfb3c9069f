import StubCertificates
import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// HTTPS: the same stubs, admin API and dashboard over TLS, beside plain HTTP or instead of it.
///
/// ```swift
/// var configuration = StubServer.Configuration()
/// configuration.https = .init()                        // a free port, a leaf from the local CA
/// let server = try StubServer(stubs: stubsURL, configuration: configuration)
/// try server.start()
/// app.launchEnvironment["BASEURL"] = server.httpsBaseURL!.absoluteString   // https://127.0.0.1:53128
/// ```
///
/// The certificate is made at start by a certificate authority local to this machine and user
/// (`CertificateAuthority`), made on first use; trust it once per simulator with
/// `stubserver ca trust --simulator booted`. Or give your own (``Configuration/HTTPS/Certificate``).
extension StubServer.Configuration {
    /// How the server serves HTTPS (``StubServer/Configuration/https``).
    public struct HTTPS: Sendable, Hashable {
        /// Where the server's certificate comes from.
        public enum Certificate: Sendable, Hashable {
            /// A certificate made at start for `localhost`, `127.0.0.1`, `::1`, the server's address and every
            /// virtual host, valid for days, signed by the local certificate authority in `directory` (`nil`:
            /// `CertificateAuthority.defaultDirectory(environment:)`), which is made there on
            /// first use (`--ca-dir`).
            case localAuthority(directory: URL? = nil)
            /// A PEM certificate chain (leaf first) and its PEM private key (`--https-cert`, `--https-key`).
            case files(certificate: URL, key: URL)
            /// A PKCS#12 file and its password (`--https-pkcs12`, `--https-pkcs12-password`).
            case pkcs12(URL, password: String)
        }

        /// The primary HTTPS port (`--https-port`); 0 picks a free one. Virtual hosts' HTTPS ports are always
        /// picked. Default 0.
        public var port: Int
        /// Close plain HTTP (`--https-only`): ``StubServer/baseURL`` and ``StubServer/port`` are then HTTPS's.
        /// Default `false`.
        public var only: Bool
        /// Where the certificate comes from. Default: the local certificate authority.
        public var certificate: Certificate

        /// Creates an HTTPS configuration.
        public init(port: Int = 0, only: Bool = false, certificate: Certificate = .localAuthority()) {
            self.port = port
            self.only = only
            self.certificate = certificate
        }
    }
}

extension StubServer {
    /// The certificate and key the server presents, and the authority that signed them when it is the local one.
    struct TLSSetup: Sendable {
        let configuration: HTTPServerConfiguration.TLS
        let authority: CertificateAuthority?
    }

    /// Makes or loads the certificate of ``Configuration/https``; `nil` without HTTPS.
    /// - Throws: ``StubServerError/cannotListen(_:)`` (`.tlsUnavailable`) saying which file or folder is at fault.
    static func tlsSetup(_ configuration: Configuration) throws(StubServerError) -> TLSSetup? {
        guard let https = configuration.https else { return nil }
        let credentials: TLSCredentials
        var authority: CertificateAuthority?
        do {
            switch https.certificate {
            case .localAuthority(let directory):
                let local = try CertificateAuthority.loadOrCreate(
                    in: directory ?? CertificateAuthority.defaultDirectory())
                credentials = try local.issueServerCredentials(for: serverNames(configuration))
                authority = local
            case .files(let certificate, let key):
                credentials = try ServerCertificate.load(certificate: certificate, key: key)
            case .pkcs12(let file, let password):
                credentials = try ServerCertificate.load(pkcs12: file, password: password)
            }
        } catch {
            throw .cannotListen(ServerError(.tlsUnavailable, "cannot serve HTTPS: \(error)"))
        }
        return TLSSetup(
            configuration: .init(credentials: credentials, port: https.port, servesPlainHTTP: !https.only),
            authority: authority)
    }

    /// The names a made certificate carries besides `localhost`, `127.0.0.1` and `::1`, which it always carries
    /// (each name once): the server's own address unless it is a wildcard, and every virtual host.
    static func serverNames(_ configuration: Configuration) -> [String] {
        let host = String(configuration.host.filter { $0 != "[" && $0 != "]" })
        return (["0.0.0.0", "::", ""].contains(host) ? [] : [host]) + configuration.virtualHosts
    }

    /// The primary HTTPS port (``Configuration/https``): the kernel's pick when configured with 0; `nil` without
    /// HTTPS.
    public var httpsPort: Int? { http.tlsPort }

    /// `https://HOST:PORT` of the primary HTTPS port; `nil` without HTTPS. The certificate names `localhost` too,
    /// for clients that check names against `localhost` rather than the address.
    public var httpsBaseURL: URL? { httpsPort.map { Self.url(host: host, port: $0, scheme: "https") } }

    /// `https://HOST:PORT` of virtual host `name`'s HTTPS port; `nil` without HTTPS or such a host.
    public func httpsBaseURL(for name: String) -> URL? {
        http.tlsPort(ofListener: name.lowercased()).map { Self.url(host: host, port: $0, scheme: "https") }
    }

    /// The certificate authority that signed the server's certificate, when it is the local one
    /// (``Configuration/HTTPS/Certificate/localAuthority(directory:)``): what a client must trust. Its
    /// certificate is also served at `GET /__admin/certs/ca.crt`.
    public var certificateAuthority: CertificateAuthority? { tlsAuthority }
}
