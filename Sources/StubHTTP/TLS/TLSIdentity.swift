/// Credentials loaded into the TLS library once, to be presented by any number of connections: what a tunnel
/// whose TLS the server ends presents (``HTTPTunnel/tls(_:)``). Making one costs a key and certificate load;
/// keep and reuse it (a forward proxy keeps one per host).
///
/// ```swift
/// let identity = try TLSIdentity(credentials)
/// responder.acceptTunnel(request, as: .tls(identity))
/// ```
public final class TLSIdentity: Sendable {
    /// The credentials, loaded (Linux: an OpenSSL `SSL_CTX`).
    let context: TLSContext

    /// Loads `credentials` into the TLS library.
    /// - Throws: ``ServerError`` `.tlsUnavailable` when no TLS library can end a tunnel's TLS here
    ///   (``HTTPTunnel/endsTLS``), or when the credentials are refused, saying why.
    public init(_ credentials: TLSCredentials) throws(ServerError) {
        guard HTTPTunnel.endsTLS else {
            throw ServerError(.tlsUnavailable, "cannot end TLS inside a tunnel: \(HTTPTunnel.unavailableReason)")
        }
        context = try TLSContext(credentials: credentials)
    }

    /// A new session presenting these credentials, or nil when the TLS library could not make one.
    func makeSession() -> TLSSession? { TLSSession(context: context) }
}

/// What a connection becomes once the `200` to its `CONNECT` is written (``HTTPResponder/acceptTunnel(_:as:)``).
public enum HTTPTunnel: Sendable {
    /// The client's bytes are TLS for the tunnel's host: the server ends it presenting `identity`, then reads
    /// requests from it as on an HTTPS listener. Only where ``endsTLS`` is true.
    case tls(TLSIdentity)
    /// The client's bytes are plain HTTP (a `CONNECT host:80`, say, for a WebSocket): read as requests.
    case http

    /// Whether this build can end TLS inside a tunnel: on Linux with OpenSSL 3, which it loads when first asked.
    /// Not on Apple platforms, whose TLS (Network.framework) runs on its own connections only, nor in the static
    /// Slim build.
    public static var endsTLS: Bool {
        #if canImport(Glibc) && !Slim
            true
        #else
            false
        #endif
    }

    /// Why ``endsTLS`` is false here, for an error message.
    public static var unavailableReason: String {
        #if Slim
            "this is the static Slim build, which cannot load OpenSSL"
        #elseif canImport(Glibc)
            ""
        #else
            "this platform's TLS (Network.framework) cannot run over a proxy connection's bytes; run the stubserver "
                + "command on Linux (or its Docker image) to stub HTTPS hosts through a proxy"
        #endif
    }
}
