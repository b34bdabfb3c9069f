#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server as a forward proxy: an app (or a browser, or curl) that uses it as its HTTP proxy has its requests
/// for any host answered from the stubs, `https://` ones included.
///
/// ```swift
/// let server = try StubServer.start()
/// // In the app under test (iOS 17+, macOS 14+), from its launch environment:
/// // configuration.proxyConfigurations = [ProxyConfiguration(httpCONNECTProxy: .hostPort(host: "127.0.0.1", port: 8080))]
/// server.stub(.get("/v1/events").host("analytics.example.com"), .json(["ok": true]))
/// ```
///
/// A request in absolute form (`GET http://api.example.com/x`, what a client sends its proxy for `http://`) is
/// matched as sent to that host. A `CONNECT api.example.com:443` (for `https://`) is answered `200`, and the
/// server ends the client's TLS itself, presenting a certificate for `api.example.com` made by the local
/// certificate authority (the one `stubserver ca` manages, which the client must trust); the requests inside are
/// matched with their real `Host`, and journaled with it. `CONNECT host:80` carries plain HTTP. A request no stub
/// matches gets the usual 404 with its near-miss report, so a test never reaches the internet by surprise, unless
/// ``passUnmatched`` sends it to the real host.
///
/// Ending TLS inside a tunnel needs OpenSSL 3, so it works on Linux (the command or its Docker image); on Apple
/// platforms a `CONNECT` to a TLS port is answered `501` saying so, and plain `http://` proxying works.
extension StubServer.Configuration {
    /// How the server answers as a forward proxy (``StubServer/Configuration/forwardProxy``).
    public struct ForwardProxy: Sendable, Hashable {
        /// The ports a `CONNECT` may name (`--proxy-connect-port` adds one); a `CONNECT` to another is refused
        /// with `403`. Port 80 carries plain HTTP, the others TLS. Empty: every `CONNECT` is refused. Default
        /// 443 and 80.
        public var connectPorts: [Int]
        /// The only hosts proxied requests may be for (`--proxy-allow-host`; `*.example.com` for any name below
        /// it, any case): a `CONNECT`, or a request in absolute form or inside a tunnel, for another host is
        /// refused with `403`. Empty (the default): any host.
        public var allowedHosts: [String]
        /// Whether a proxied request no stub matches goes on to its real host (`--proxy-unmatched`), its answer
        /// passed back and journaled as forwarded. Default `false`: it gets a 404 with the near-miss report.
        public var passUnmatched: Bool
        /// The most hosts whose certificates are kept made; the one used longest ago is dropped for a new one.
        /// Default 256.
        public var maxCertificates: Int
        /// The certificate authority that signs the hosts' certificates: `nil` (the default) for the HTTPS
        /// configuration's local one if it has one (``HTTPS/Certificate/localAuthority(directory:)``), else the
        /// default folder (`CertificateAuthority.defaultDirectory(environment:)`, `--ca-dir`). Made on first use.
        public var certificateAuthorityDirectory: URL?

        /// Creates a forward-proxy configuration.
        public init(
            connectPorts: [Int] = [443, 80], allowedHosts: [String] = [], passUnmatched: Bool = false,
            maxCertificates: Int = 256, certificateAuthorityDirectory: URL? = nil
        ) {
            self.connectPorts = connectPorts
            self.allowedHosts = allowedHosts
            self.passUnmatched = passUnmatched
            self.maxCertificates = maxCertificates
            self.certificateAuthorityDirectory = certificateAuthorityDirectory
        }
    }
}
