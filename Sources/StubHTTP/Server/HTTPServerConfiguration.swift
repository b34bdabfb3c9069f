/// How an ``HTTPServer`` listens, and the limits and timeouts it enforces.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0, headerReadTimeout: .seconds(2)), handler: handler)
/// ```
public struct HTTPServerConfiguration: Sendable {
    /// The address to listen on: an IPv4 or IPv6 literal (`::1`, optionally `[::1]`) or a name such as
    /// `localhost`. Default `127.0.0.1`.
    public var host: String
    /// The port; `0` lets the kernel pick one (read it from ``HTTPServer/port`` after start). Default `0`.
    public var port: Int
    /// The number of event-loop threads. Default `1`.
    public var eventLoopCount: Int
    /// Request parser limits. Default ``ParserLimits/init()``.
    public var limits: ParserLimits
    /// How long a client has, from the first byte of a request, to send its head (request line and
    /// header fields). Exceeded → `408` and close. Default 10 s.
    public var headerReadTimeout: Duration
    /// How long a connection may make no progress: sit idle between requests, send no byte of a request
    /// body, or take no byte of its response. Each read or write that makes progress restarts it, so a
    /// slow but steady client is never cut off. Default 60 s.
    public var idleTimeout: Duration
    /// The most connections open at once; more are answered `503` and closed. Default 4096.
    public var maxConnections: Int
    /// How long ``HTTPServer/stop()`` lets in-flight responses finish before closing everything.
    /// Default 5 s.
    public var shutdownGracePeriod: Duration
    /// The listen(2) backlog. Default 1024.
    public var backlog: Int32
    /// More sockets to listen on, each with a label its requests carry (``HTTPEndpoints/listenerLabel``), all
    /// served by the same event loops and handler. ``HTTPServer/start()`` binds them all or none. Default none.
    public var additionalListeners: [AdditionalListener] = []
    /// The most bytes a response written over time (``HTTPResponseStream``) may have waiting for a client
    /// that does not read them; a write past it closes the connection (as a server's full buffers would cut a
    /// stalled reader), and the stream ends ``HTTPStreamOutcome/closed``. The same bound applies to what a
    /// ``WebSocketConnection`` sends (its handler hears 1006). Default 1 MiB.
    public var maxStreamBacklog = 1 << 20
    /// HTTPS on every listener (see ``TLS``); `nil`, the default, serves plain HTTP only.
    public var tls: TLS?
    /// The readiness backend (epoll on Linux, poll elsewhere); tests also run the poll backend on Linux.
    var selectorBackend: SelectorBackend = .platformDefault

    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        eventLoopCount: Int = 1,
        limits: ParserLimits = ParserLimits(),
        headerReadTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        maxConnections: Int = 4096,
        shutdownGracePeriod: Duration = .seconds(5),
        backlog: Int32 = 1024
    ) {
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.limits = limits
        self.headerReadTimeout = headerReadTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.shutdownGracePeriod = shutdownGracePeriod
        self.backlog = backlog
    }
}
