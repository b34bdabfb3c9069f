/// Answers requests. The server calls it on an event-loop thread, so it must not block: answer
/// through the responder now, or later from any thread.
///
/// ```swift
/// struct Hello: HTTPHandler {
///     func handle(_ request: HTTPRequest, responder: HTTPResponder) {
///         responder.respond(.text("hello \(request.path)"))
///     }
/// }
/// ```
public protocol HTTPHandler: Sendable {
    /// Called on an event-loop thread. Must not block. Answer via `responder` now or later, from any
    /// thread, exactly once.
    func handle(_ request: HTTPRequest, responder: HTTPResponder)

    /// A request was rejected by the parser; the server answers it with `error.status` and closes the
    /// connection. Lets upper layers journal bad requests. Called on an event-loop thread.
    func didReject(_ error: ParserError, remoteAddress: String)

    /// A connection to an HTTPS listener failed before or between requests: its handshake failed (a client that
    /// does not trust the certificate, garbage bytes), a record was bad, or it sent plain HTTP to the TLS port.
    /// The server closed it. `reason` says which, for a log line. Called on an event-loop thread.
    func didFailTLS(_ reason: String, remoteAddress: String)
}

extension HTTPHandler {
    /// Does nothing.
    public func didReject(_ error: ParserError, remoteAddress: String) {}

    /// Does nothing.
    public func didFailTLS(_ reason: String, remoteAddress: String) {}
}

/// Adapts a closure to ``HTTPHandler``.
struct ClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest, HTTPResponder) -> Void

    func handle(_ request: HTTPRequest, responder: HTTPResponder) { body(request, responder) }
}
