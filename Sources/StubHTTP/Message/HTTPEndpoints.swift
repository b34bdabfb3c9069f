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
    /// Whether the connection is TLS: accepted on an HTTPS listener (``HTTPServerConfiguration/tls``).
    public var isSecure: Bool

    /// Creates the endpoints of a connection; `listenerLabel` is `nil` for the primary listener.
    public init(
        remoteAddress: String, localAddress: String, localPort: Int, listenerLabel: String? = nil,
        isSecure: Bool = false
    ) {
        self.isSecure = isSecure
        self.remoteAddress = remoteAddress
        self.localAddress = localAddress
        self.localPort = localPort
        self.listenerLabel = listenerLabel
    }
}
