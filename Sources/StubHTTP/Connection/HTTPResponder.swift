/// Answers one request, exactly once, from any thread, now or later.
///
/// A handler that answers on the event-loop thread it was called on writes straight to the socket;
/// from other threads the answer hops to that loop. Answers after the first, or after the connection
/// closed, are ignored.
///
/// ```swift
/// func handle(_ request: HTTPRequest, responder: HTTPResponder) {
///     responder.respond(.text("slow"), after: .milliseconds(200))
/// }
/// ```
public struct HTTPResponder: Sendable {
    let connection: Connection
    let generation: UInt64

    /// Sends a complete response.
    public func respond(_ response: HTTPResponse) {
        deliver { $0.complete(.response(response), generation: generation) }
    }

    /// Sends a response serialized in advance: only `Date` and `Connection` are added per request.
    public func respond(_ prepared: PreparedResponse) {
        deliver { $0.complete(.prepared(prepared), generation: generation) }
    }

    /// Sends `response` once `delay` has passed, using a timer on the event loop (no thread waits).
    public func respond(_ response: HTTPResponse, after delay: Duration) {
        deliver(after: delay) { $0.complete(.response(response), generation: generation) }
    }

    /// Sends `prepared` once `delay` has passed, using a timer on the event loop (no thread waits).
    public func respond(_ prepared: PreparedResponse, after delay: Duration) {
        deliver(after: delay) { $0.complete(.prepared(prepared), generation: generation) }
    }

    /// Never answers: the request is held, with no thread and no timeout, until the client gives up
    /// (its connection is then closed and forgotten at once), the listener goes offline or the server stops
    /// (which closes it without waiting for ``HTTPServerConfiguration/shutdownGracePeriod``). Simulates a
    /// server that accepted the request and hangs. Ignored after an answer or a scheduled one.
    public func hang() {
        deliver { $0.holdUntilClientLeaves(generation: generation) }
    }

    /// Sends `head` now and the body in pieces through the returned stream: chunked for HTTP/1.1
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
        let start: @Sendable (Connection) -> Void = {
            $0.startStream(head, generation: generation, probe: probe, onEnd: onEnd)
            if !steps.isEmpty || end != .stayOpen { $0.streamPlay(steps, then: end, generation: generation) }
        }
        if delay > .zero { deliver(after: delay, start) } else { deliver(start) }
        return HTTPResponseStream(connection: connection, generation: generation)
    }

    func deliver(_ body: @escaping @Sendable (Connection) -> Void) {
        connection.onLoop(body)
    }

    /// Runs `body` once `delay` has passed, counted from this call, on the connection's response timer:
    /// closing the connection (the client left, the server stopped) cancels it.
    func deliver(after delay: Duration, _ body: @escaping @Sendable (Connection) -> Void) {
        let connection = connection, generation = generation
        let loop = connection.loop
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

/// The body of a streamed response. Writes are sent in order; nothing is sent after ``finish()``.
/// Safe to use from any thread. Written bytes wait in the connection's buffer until the client takes them,
/// at most ``HTTPServerConfiguration/maxStreamBacklog`` of them: a write past that closes the connection.
/// For a big body, pull it from an ``HTTPBodySource`` instead
/// (``HTTPResponder/respond(streaming:contentLength:from:on:pacing:after:)``), which waits for the client.
public final class HTTPResponseStream: Sendable {
    private let connection: Connection
    private let generation: UInt64

    init(connection: Connection, generation: UInt64) {
        self.connection = connection
        self.generation = generation
    }

    /// Sends `bytes` as the next part of the body (one chunk). Empty writes send nothing.
    public func write(_ bytes: [UInt8]) {
        onLoop { $0.streamWrite(bytes, generation: $1) }
    }

    /// Writes `steps`, each after its delay, from timers on the event loop (no thread waits), after any
    /// steps still to come from an earlier call; then does `end` (this call's replaces an earlier one's).
    /// Writes with ``write(_:)`` go out at once, between the steps.
    public func play(_ steps: [HTTPStreamStep], then end: HTTPStreamEnd) {
        onLoop { $0.streamPlay(steps, then: end, generation: $1) }
    }

    /// Closes the connection without ending the body: the client sees a cut response.
    public func abort() {
        onLoop { $0.streamAbort(generation: $1) }
    }

    func onLoop(_ body: @escaping @Sendable (Connection, UInt64) -> Void) {
        let generation = generation
        connection.onLoop { body($0, generation) }
    }

    /// Ends the body.
    public func finish() {
        onLoop { $0.streamFinish(generation: $1) }
    }
}
