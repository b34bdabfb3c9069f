extension HTTPResponder {
    /// Answers a WebSocket upgrade request (RFC 6455 §4.2): checks it with ``WebSocketHandshake``, then either
    /// writes the `101 Switching Protocols` head and turns the connection into a WebSocket run by `handler` on the
    /// event loop, or, for a malformed request, answers its `400` (or `426` for a version other than 13) as an
    /// ordinary HTTP response, after which the connection stays an HTTP one.
    ///
    /// ```swift
    /// func handle(_ request: HTTPRequest, responder: HTTPResponder) {
    ///     guard WebSocketHandshake.isUpgradeRequest(request) else { return responder.respond(.text("hi")) }
    ///     responder.acceptWebSocket(request, subprotocols: ["chat"], handler: EchoHandler())
    /// }
    /// ```
    ///
    /// Compression (`permessage-deflate`) is never negotiated. An open WebSocket holds no thread; the server's stop
    /// sends it a close with 1001 (going away) and waits at most a second for the client's answer, whatever
    /// ``HTTPServerConfiguration/shutdownGracePeriod`` is.
    /// Like the other answers, ignored after the first one or once the client has left (the handler is then told
    /// nothing).
    /// - Parameters:
    ///   - request: the request this responder answers.
    ///   - subprotocols: the subprotocols the server speaks, preferred first; the first the client offers in
    ///     `Sec-WebSocket-Protocol` is selected (``WebSocketConnection/subprotocol``).
    ///   - headers: more fields for the `101` head (a cookie, say). The handshake's own fields, `Content-Length`
    ///     and `Transfer-Encoding` are ignored here.
    ///   - configuration: limits and timeouts of the connection.
    ///   - handler: told, on the event loop, that the connection opened, each message, and that it closed.
    ///   - delay: how long the handshake's answer waits, on the connection's timer (no thread waits); the client
    ///     leaving meanwhile cancels it.
    public func acceptWebSocket(
        _ request: HTTPRequest, subprotocols: [String] = [], headers: HTTPHeaders = [:],
        configuration: WebSocketConfiguration = WebSocketConfiguration(), handler: any WebSocketHandler,
        after delay: Duration = .zero
    ) {
        let generation = generation
        let start: @Sendable (Connection) -> Void = {
            $0.startWebSocket(
                request, subprotocols: subprotocols, headers: headers, configuration: configuration, handler: handler,
                generation: generation)
        }
        if delay > .zero { deliver(after: delay, start) } else { deliver(start) }
    }
}
