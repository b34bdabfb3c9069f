/// Answers one request, exactly once, from any thread, now or later.
///
/// Every way to answer takes `after delay:` (`.zero` by default): the answer waits on a timer of the
/// connection's event loop (no thread waits; the client leaving cancels it), so a caller with a delay and one
/// without make the same call. A handler that answers on the event-loop thread it was called on writes
/// straight to the socket; from other threads the answer hops to that loop. Answers after the first, or
/// after the connection closed, are ignored.
///
/// ```swift
/// func handle(_ request: HTTPRequest, responder: HTTPResponder) {
///     responder.respond(.text("slow"), after: .milliseconds(200))
/// }
/// ```
///
/// - ``respond(_:after:)-(Answer,_)``: any ``Answer``: a response, a prepared one (paced or not), a body
///   pulled from an ``HTTPBodySource``, or a failure of the connection. ``respond(_:after:)-(HTTPResponse,_)`` and
///   ``respond(_:pacing:after:)`` spell the first two shorter.
/// - ``startStreaming(_:after:playing:then:probe:onEnd:)``: a body the handler writes over time.
/// - ``acceptWebSocket(_:subprotocols:headers:configuration:handler:after:)``: the connection becomes a WebSocket.
/// - ``acceptTunnel(_:as:)``: a `CONNECT` becomes a tunnel whose requests the server answers itself.
/// - ``hang()``: no answer at all.
public struct HTTPResponder: Sendable {
    let connection: Connection
    let generation: UInt64

    /// What a request is answered with (see ``HTTPResponder/respond(_:after:)-(Answer,_)``).
    public enum Answer: Sendable {
        /// A complete response, serialized when it is sent.
        case response(HTTPResponse)
        /// A response serialized in advance: only `Date` and `Connection` are added per request. With
        /// `pacing`, its bytes are spread out over time (timers on the event loop; no thread waits); the
        /// response keeps its `Content-Length`, so a client can show progress.
        case prepared(PreparedResponse, pacing: WritePacing? = nil)
        /// `head`, then a body pulled piece by piece from `source` (its `next` calls run on `executor`)
        /// while the client reads: at most ``HTTPBodyStreaming/highWater`` bytes of it wait in the
        /// connection, however big the body and however slow the client. Closing the connection (the client
        /// left, the idle timeout, the server stopped) calls ``HTTPBodySource/cancel()``.
        ///
        /// With `contentLength` the body is sent as exactly that many bytes: a source that ends short of it
        /// or gives more closes the connection instead, so a client never takes a cut body for a whole one.
        /// Without it the body is chunked (close-delimited for HTTP/1.0). `head`'s body and any
        /// `Content-Length` or `Transfer-Encoding` in it are ignored; `HEAD` requests get the head only.
        /// With `pacing`, the source is asked for at most one slice per interval, so the body goes out no
        /// faster than a paced prepared response would; the head goes at once.
        case pulled(
            HTTPResponse, contentLength: Int?, from: any HTTPBodySource, on: HTTPBodyExecutor,
            pacing: WritePacing? = nil)
        /// No response: the connection ends as the ``ConnectionFailure`` says (a reset, an empty reply,
        /// garbage), for clients that must cope with a broken network or server.
        case failure(ConnectionFailure)
    }

    /// Answers with `answer` once `delay` has passed (at once for `.zero`).
    ///
    /// ```swift
    /// let executor = HTTPBodyExecutor { job in workers.submit(job) }
    /// responder.respond(.pulled(HTTPResponse(headers: ["Content-Type": "application/json"]),
    ///                           contentLength: length, from: JournalBody(snapshot), on: executor))
    /// responder.respond(.failure(.reset), after: .milliseconds(50))
    /// ```
    public func respond(_ answer: Answer, after delay: Duration = .zero) {
        // Taken apart here, so that each closure carries only what its case needs: copying the whole enum into
        // the closure and out again cost a prepared response about 5% more instructions (callgrind, engine-bench).
        switch answer {
        case .response(let response):
            respond(response, after: delay)
        case .prepared(let prepared, let pacing):
            respond(prepared, pacing: pacing, after: delay)
        case .pulled(let head, let contentLength, let source, let executor, let pacing):
            let generation = generation
            onLoop(after: delay) {
                PulledBody.start(
                    head, contentLength: contentLength, source: source, executor: executor, pacing: pacing, on: $0,
                    generation: generation)
            }
        case .failure(let failure):
            let generation = generation
            onLoop(after: delay) { $0.fail(failure, generation: generation) }
        }
    }

    /// Sends a complete response once `delay` has passed (at once for `.zero`): ``Answer/response(_:)``.
    public func respond(_ response: HTTPResponse, after delay: Duration = .zero) {
        let generation = generation
        onLoop(after: delay) { $0.complete(response, generation: generation) }
    }

    /// Sends a response serialized in advance once `delay` has passed (at once for `.zero`), its bytes
    /// spread out as `pacing` says, if given: ``Answer/prepared(_:pacing:)``.
    ///
    /// ```swift
    /// responder.respond(PreparedResponse(.text(big)), pacing: .bytesPerSecond(30_000), after: .milliseconds(400))
    /// ```
    public func respond(_ prepared: PreparedResponse, pacing: WritePacing? = nil, after delay: Duration = .zero) {
        let generation = generation
        onLoop(after: delay) { $0.complete(prepared, pacing: pacing, generation: generation) }
    }

    /// Never answers: the request is held, with no thread and no timeout, until the client gives up
    /// (its connection is then closed and forgotten at once), the listener goes offline or the server stops
    /// (which closes it without waiting for ``HTTPServerConfiguration/shutdownGracePeriod``). Simulates a
    /// server that accepted the request and hangs. Ignored after an answer or a scheduled one.
    public func hang() {
        let generation = generation
        connection.onLoop { $0.holdUntilClientLeaves(generation: generation) }
    }

    /// Sends `head` and the body in pieces through the returned stream: chunked for HTTP/1.1
    /// requests, delimited by closing the connection for HTTP/1.0. Any `Content-Length` or
    /// `Transfer-Encoding` in `head` is replaced. Call ``HTTPResponseStream/finish()`` at the end, or
    /// script the writes with ``HTTPResponseStream/play(_:then:)``. An open stream holds no thread.
    ///
    /// `probe`: bytes the client ignores (for server-sent events, the comment line `:\n\n`), written when the
    /// client's EOF arrives while the stream is open: a client that closed the connection answers with a
    /// reset, and its stream ends at once. Without one, such a stream ends at its next write that fails, or
    /// when the server stops (TCP tells a closed client from a half-closed one only by data sent to it).
    ///
    /// `onEnd` is told once how the stream ended (finished, or the connection closed first), on the
    /// event loop: keep it short and never block in it. A registry of open streams forgets them there.
    ///
    /// `delay`: the head waits that long (on a timer; closing the connection cancels it). `steps` and `end`:
    /// a script begun with the stream, as ``HTTPResponseStream/play(_:then:)`` (a `play` call before a
    /// delayed stream starts is ignored; put the script here).
    public func startStreaming(
        _ head: HTTPResponse, after delay: Duration = .zero, playing steps: [HTTPStreamStep] = [],
        then end: HTTPStreamEnd = .stayOpen, probe: [UInt8]? = nil,
        onEnd: (@Sendable (HTTPStreamOutcome) -> Void)? = nil
    ) -> HTTPResponseStream {
        let generation = generation
        onLoop(after: delay) {
            WrittenStream.start(
                head, playing: steps, then: end, probe: probe, onEnd: onEnd, on: $0, generation: generation)
        }
        return HTTPResponseStream(connection: connection, generation: generation)
    }

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
        onLoop(after: delay) {
            WebSocketSession.start(
                request, subprotocols: subprotocols, headers: headers, configuration: configuration, handler: handler,
                on: $0, generation: generation)
        }
    }

    /// Answers a `CONNECT` request with `200 Connection Established` and makes the connection the tunnel it asked
    /// for: the server itself is the far end. With ``HTTPTunnel/tls(_:)`` it ends the client's TLS presenting the
    /// identity (a certificate for the host the client asked for) and reads requests from inside; with
    /// ``HTTPTunnel/http`` it reads them in plain text. Either way they come to the handler like any others, their
    /// ``HTTPEndpoints/tunnel`` set to the `CONNECT` target. Bytes are never relayed elsewhere.
    ///
    /// ```swift
    /// guard request.method == .connect else { ... }
    /// responder.acceptTunnel(request, as: .tls(identityFor(host)))
    /// ```
    ///
    /// After the `200` the connection stays open whatever the request's HTTP version said. A client silent after
    /// it is closed after ``HTTPServerConfiguration/idleTimeout``; a handshake or request begun counts against the
    /// header read timeout. A TLS tunnel inside a connection that is TLS already is answered `501`. Like the other
    /// answers, ignored after the first one or once the client has left.
    public func acceptTunnel(_ request: HTTPRequest, as tunnel: HTTPTunnel) {
        let generation = generation, target = request.target
        connection.onLoop { $0.acceptTunnel(tunnel, target: target, generation: generation) }
    }

    /// Runs `body` on the connection's loop: at once (or as the loop's next task) for `.zero`; otherwise once
    /// `delay` has passed, counted from this call, on the connection's response timer, which closing the
    /// connection (the client left, the server stopped) cancels. The one place an answer waits.
    @inline(__always)
    private func onLoop(after delay: Duration, _ body: @escaping @Sendable (Connection) -> Void) {
        let connection = connection, loop = connection.loop
        guard delay > .zero else {
            if loop.inEventLoop { return body(connection) }  // the handler answers on the loop: write at once
            return loop.execute { body(connection) }
        }
        let generation = generation
        if loop.inEventLoop {
            loop.refreshNow()
            connection.scheduleAnswer(at: loop.now + delay, generation: generation) { body(connection) }
        } else {
            let start = Instant.now()
            loop.execute {
                connection.scheduleAnswer(at: start + delay, generation: generation) { body(connection) }
            }
        }
    }
}
