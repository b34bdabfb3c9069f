/// Answers from ``HTTPResponder``: complete responses and delayed ones (streams the handler writes are in
/// `Connection+WrittenStream.swift`). Loop thread only.
extension Connection {
    /// Hands request `generation`, in flight, to the handler.
    func callHandler(_ request: HTTPRequest) {
        server.handler.handle(request, responder: HTTPResponder(connection: self, generation: generation))
        loop.refreshNow()  // the handler may have taken a while: later deadlines count from now
        if inputDone { probePeerIfWaiting() }  // a pipelined request answered later, after the client's EOF
    }

    /// Whether request `generation` awaits its response on this open connection.
    func awaitsResponse(_ generation: UInt64) -> Bool {
        !isClosed && generation == self.generation && machine.awaitsResponse
    }

    /// Prepared bodies from this size on are written from the response's own storage (a shared body of
    /// ``OutputBuffer``), not copied.
    static let sharedBodyThreshold = 64 << 10

    /// A complete response for request `generation`: a plain one or a prepared one.
    enum Answer {
        case response(HTTPResponse)
        case prepared(PreparedResponse)
    }

    func complete(_ answer: Answer, generation: UInt64) {
        guard let inFlight = awaitedRequest(generation) else { return }
        let requestedClose: Bool
        switch answer {
        case .response(let response): requestedClose = response.headers.containsToken("close", in: "Connection")
        case .prepared(let prepared): requestedClose = prepared.closesConnection
        }
        guard let close = startResponse(requestedClose: requestedClose) else { return }
        let context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: close)
        let dateLine = loop.dateCache.currentLine()
        switch answer {
        case .response(let response):
            enqueue { ResponseSerializer.serialize(response, context: context, dateLine: dateLine, into: &$0) }
        case .prepared(let prepared)
        where prepared.body.count >= Self.sharedBodyThreshold && !context.isHead && !prepared.forbidsBody:
            enqueue { ResponseSerializer.serializeHead(prepared, context: context, dateLine: dateLine, into: &$0) }
            enqueueSharedBody(prepared.body)
        case .prepared(let prepared):
            enqueue { ResponseSerializer.serialize(prepared, context: context, dateLine: dateLine, into: &$0) }
        }
        flush()
    }

    /// Runs `body` at `deadline` for request `generation` on the response timer, unless the connection
    /// closes first. Nothing happens when that request was answered (or scheduled) already or the
    /// connection is closed: the first answer wins.
    func scheduleAnswer(at deadline: Instant, generation: UInt64, _ body: @escaping () -> Void) {
        guard awaitsResponse(generation), !hasResponseTimer else { return }
        scheduleResponseTimer(at: deadline, body)
    }

    /// Runs `body` on this connection's loop: at once when called there, else as the loop's next task. The way
    /// in for ``HTTPResponder``, ``HTTPResponseStream`` and ``WebSocketConnection``, which may be used anywhere.
    func onLoop(_ body: @escaping @Sendable (Connection) -> Void) {
        if loop.inEventLoop {
            body(self)
        } else {
            loop.execute { body(self) }
        }
    }
}
