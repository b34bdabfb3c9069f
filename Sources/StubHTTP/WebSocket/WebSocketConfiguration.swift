/// How the server runs one WebSocket connection: the bounds on what the client sends and the timeouts.
///
/// ```swift
/// var configuration = WebSocketConfiguration()
/// configuration.pingInterval = .seconds(20)    // keep a quiet connection's NAT mapping alive
/// configuration.idleTimeout = .seconds(120)    // close (1001) a client that sent nothing for two minutes
/// responder.acceptWebSocket(request, configuration: configuration, handler: EchoHandler())
/// ```
///
/// Compression (`permessage-deflate`) is never negotiated: frames carry their payload as is.
public struct WebSocketConfiguration: Sendable, Hashable {
    /// The largest frame and message the client may send (a larger one closes the connection with 1009), and
    /// whether its frames must be masked (a client's must: an unmasked one closes with 1002).
    public var limits: WebSocketLimits
    /// How long a close the server sends waits for the client's close before the TCP connection is closed
    /// anyway. Also how long the server waits for the client to close its side after the closing handshake.
    /// Default 5 seconds.
    public var closeHandshakeTimeout: Duration
    /// The interval of the pings the server sends on its own, or nil (the default) for none. Pongs are answers
    /// the server only notes as activity (see ``idleTimeout``).
    public var pingInterval: Duration?
    /// How long the client may send nothing (no frame, no pong) before the server closes with 1001, or nil (the
    /// default) for never: a test's socket may sit quiet for long, and the server's stop closes it anyway. The
    /// HTTP ``HTTPServerConfiguration/idleTimeout`` does not apply to an open WebSocket. With a
    /// ``pingInterval`` shorter than this, a client that still answers pings is never idle. (A client that takes
    /// none of the bytes waiting for it for the HTTP idle timeout is still closed, as for any response.)
    public var idleTimeout: Duration?

    /// A configuration; the defaults bound frames and messages to 16 MiB, wait 5 seconds for a close, send no
    /// pings and never close an idle connection.
    public init(
        limits: WebSocketLimits = WebSocketLimits(), closeHandshakeTimeout: Duration = .seconds(5),
        pingInterval: Duration? = nil, idleTimeout: Duration? = nil
    ) {
        self.limits = limits
        self.closeHandshakeTimeout = closeHandshakeTimeout
        self.pingInterval = pingInterval
        self.idleTimeout = idleTimeout
    }
}
