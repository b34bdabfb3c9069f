extension HTTPServerConfiguration {
    /// HTTPS beside (or instead of) plain HTTP: every listener, the primary one and each
    /// ``HTTPServerConfiguration/additionalListeners`` entry, gets a TLS twin with the same label, whose requests
    /// say ``HTTPEndpoints/isSecure``. HTTP/1.1 only: ALPN offers `http/1.1` and nothing else; TLS 1.2 and 1.3.
    ///
    /// ```swift
    /// var configuration = HTTPServerConfiguration()
    /// configuration.tls = .init(credentials: credentials)     // port 0: a free one
    /// let server = HTTPServer(configuration: configuration) { request, responder in
    ///     responder.respond(.text(request.endpoints?.isSecure == true ? "https" : "http"))
    /// }
    /// try server.start()
    /// print(server.tlsPort!)
    /// ```
    ///
    /// A handshake must complete within ``HTTPServerConfiguration/headerReadTimeout``, as a request head must.
    /// On Linux the system's OpenSSL 3 (`libssl.so.3`) is loaded at start; without it ``HTTPServer/start()``
    /// throws ``ServerError/Kind-swift.enum/tlsUnavailable``.
    public struct TLS: Sendable, Hashable {
        /// The certificate chain and key every TLS listener presents.
        public var credentials: TLSCredentials
        /// The primary listener's HTTPS port; `0` lets the kernel pick one (read it from ``HTTPServer/tlsPort``).
        /// The additional listeners' HTTPS ports are always picked. Default `0`.
        public var port: Int
        /// Whether the plain-HTTP listeners stay open beside the TLS ones. `false`: HTTPS only, and
        /// ``HTTPServer/port`` is the HTTPS port. Default `true`.
        public var servesPlainHTTP: Bool

        /// Creates a TLS configuration.
        public init(credentials: TLSCredentials, port: Int = 0, servesPlainHTTP: Bool = true) {
            self.credentials = credentials
            self.port = port
            self.servesPlainHTTP = servesPlainHTTP
        }
    }
}
