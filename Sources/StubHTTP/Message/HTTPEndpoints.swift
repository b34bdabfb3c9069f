/// The two ends of the connection a request arrived on, formatted once per connection.
///
/// ```swift
/// request.endpoints?.remoteAddress   // "127.0.0.1"
/// request.endpoints?.localPort       // 8080
/// ```
///
/// `nil` on a request that was not read from a socket (one built in code or a test).
public struct HTTPEndpoints: Sendable, Hashable {
    /// The client's numeric address without its port: `127.0.0.1` or `::1` (no brackets).
    public var remoteAddress: String
    /// The server's numeric address the connection was accepted on, without brackets.
    public var localAddress: String
    /// The server's port the connection was accepted on.
    public var localPort: Int
    /// The label of the listener the connection was accepted on
    /// (``HTTPServerConfiguration/AdditionalListener/label``); `nil` for the primary listener.
    public var listenerLabel: String?
    /// Whether the connection is TLS: accepted on an HTTPS listener (``HTTPServerConfiguration/tls``), or a tunnel
    /// whose TLS the server ends (``HTTPTunnel/tls(_:)``).
    public var isSecure: Bool
    /// The target of the `CONNECT` request this connection became a tunnel for (`api.example.com:443`;
    /// ``HTTPResponder/acceptTunnel(_:as:)``): its requests came through the server as a forward proxy. `nil`
    /// otherwise.
    public var tunnel: String?

    /// Creates the endpoints of a connection; `listenerLabel` is `nil` for the primary listener.
    public init(
        remoteAddress: String, localAddress: String, localPort: Int, listenerLabel: String? = nil,
        isSecure: Bool = false, tunnel: String? = nil
    ) {
        self.isSecure = isSecure
        self.tunnel = tunnel
        self.remoteAddress = remoteAddress
        self.localAddress = localAddress
        self.localPort = localPort
        self.listenerLabel = listenerLabel
    }
}
