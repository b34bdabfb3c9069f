/// Responses whose body is pulled from an ``HTTPBodySource`` as the client reads it.
extension HTTPResponder {
    /// Sends `head`, then a body pulled piece by piece from `source` (its `next` calls run on `executor`)
    /// while the client reads: at most ``HTTPBodyStreaming/highWater`` bytes of it wait in the connection,
    /// however big the body and however slow the client. Closing the connection (the client left, the
    /// idle timeout, the server stopped) calls ``HTTPBodySource/cancel()``.
    ///
    /// With `contentLength` the body is sent as exactly that many bytes: a source that ends short of it
    /// or gives more closes the connection instead, so a client never takes a cut body for a whole one.
    /// Without it the body is chunked (close-delimited for HTTP/1.0). `head`'s body and any
    /// `Content-Length` or `Transfer-Encoding` in it are ignored; `HEAD` requests get the head only.
    ///
    /// With `pacing`, the source is asked for at most one slice per interval (timers on the event loop),
    /// so the body goes out no faster than a paced ``PreparedResponse`` would; the head goes at once.
    /// With a `delay`, nothing is sent before it has passed.
    ///
    /// ```swift
    /// let executor = HTTPBodyExecutor { job in workers.submit(job) }
    /// responder.respond(streaming: HTTPResponse(headers: ["Content-Type": "application/json"]),
    ///                   contentLength: length, from: JournalBody(snapshot), on: executor)
    /// ```
    public func respond(
        streaming head: HTTPResponse, contentLength: Int?, from source: any HTTPBodySource,
        on executor: HTTPBodyExecutor, pacing: WritePacing? = nil, after delay: Duration = .zero
    ) {
        let generation = generation
        let start: @Sendable (Connection) -> Void = { connection in
            connection.startBodyStream(
                head, contentLength: contentLength, source: source, executor: executor,
                pacing: pacing, generation: generation)
        }
        if delay > .zero { deliver(after: delay, start) } else { deliver(start) }
    }
}
