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
    /// `Transfer-Encoding` in `head` is replaced. Call ``HTTPResponseStream/finish()`` at the end.
    public func startStreaming(_ head: HTTPResponse) -> HTTPResponseStream {
        let generation = generation
        deliver { $0.startStream(head, generation: generation) }
        return HTTPResponseStream(connection: connection, generation: generation)
    }

    func deliver(_ body: @escaping @Sendable (Connection) -> Void) {
        let connection = connection
        if connection.loop.inEventLoop {
            body(connection)
        } else {
            connection.loop.execute { body(connection) }
        }
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
/// Safe to use from any thread. There is no backpressure: written bytes are buffered until sent. For a big
/// body, pull it from an ``HTTPBodySource`` instead (``HTTPResponder/respond(streaming:contentLength:from:on:pacing:after:)``).
public final class HTTPResponseStream: Sendable {
    private let connection: Connection
    private let generation: UInt64

    init(connection: Connection, generation: UInt64) {
        self.connection = connection
        self.generation = generation
    }

    /// Sends `bytes` as the next part of the body (one chunk). Empty writes send nothing.
    public func write(_ bytes: [UInt8]) {
        let connection = connection, generation = generation
        if connection.loop.inEventLoop {
            connection.streamWrite(bytes, generation: generation)
        } else {
            connection.loop.execute { connection.streamWrite(bytes, generation: generation) }
        }
    }

    /// Ends the body.
    public func finish() {
        let connection = connection, generation = generation
        if connection.loop.inEventLoop {
            connection.streamFinish(generation: generation)
        } else {
            connection.loop.execute { connection.streamFinish(generation: generation) }
        }
    }
}
