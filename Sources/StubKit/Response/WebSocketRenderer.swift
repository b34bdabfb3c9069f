import StubHTTP

/// Renders a templated WebSocket stub's messages (``WebSocketTemplate``) without holding the event loop, as a
/// templated response is: on the loop within ``TemplateLimits/onEventLoop``, else (or for a message from
/// 64 KiB on) on a render thread within the server's limits. A render that fails is logged, naming the stub,
/// and the connection is closed with 1011 (internal error).
struct WebSocketRenderer: Sendable {
    let serverOrigin: String
    let limits: TemplateLimits
    let workers: WorkerPool
    let log: LogSink
    /// The stub's name, or id, for the log.
    let stub: String

    /// Renders `template` for the connection's upgrade request and `message` (a reply's), then calls `deliver`
    /// with the messages to send, on the loop or on a render thread (in that case, messages sent meanwhile may
    /// go first).
    func render(
        _ template: WebSocketTemplate, message: String?, on connection: WebSocketConnection,
        then deliver: @escaping @Sendable ([WebSocketOutgoing]) -> Void
    ) {
        let request = connection.request
        if (message?.utf8.count ?? 0) < TemplateLimits.largestBodyRenderedOnLoop {
            let result = template.render(
                for: request, message: message, serverOrigin: serverOrigin, limits: limits.capped(by: .onEventLoop))
            switch result {
            case .success(let messages): return deliver(messages)
            case .failure(.limit(let exceeded)) where exceeded.isBelow(limits): break  // on a render thread
            case .failure(let failure): return fail(failure.description, connection)
            }
        }
        let queued = workers.submit { [self] in
            switch template.render(for: request, message: message, serverOrigin: serverOrigin, limits: limits) {
            case .success(let messages): deliver(messages)
            case .failure(let failure): fail(failure.description, connection)
            }
        }
        if !queued { fail("every render thread is busy", connection) }
    }

    private func fail(_ reason: String, _ connection: WebSocketConnection) {
        log.write("stubserver: \(stub): a WebSocket message could not be rendered: \(reason)")
        connection.close(code: .internalError, reason: "stubserver: the message could not be rendered")
    }
}
