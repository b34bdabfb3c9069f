/// Answers from ``HTTPResponder`` and ``HTTPResponseStream``: complete responses, delayed ones, and
/// streams the handler writes. Loop thread only.
extension Connection {
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

    func startStream(_ head: HTTPResponse, generation: UInt64) {
        guard let inFlight = awaitedRequest(generation) else { return }
        var context = ResponseContext(isHead: inFlight.isHead, requestVersion: inFlight.version, close: false)
        let requestedClose = head.headers.containsToken("close", in: "Connection")
        context.close = requestedClose || inFlight.version == .http1_0 || machine.draining || machine.inputClosed
        let dateLine = loop.dateCache.currentLine()
        let (framing, closes) = enqueue {
            ResponseSerializer.serializeStreamingHead(head, context: context, dateLine: dateLine, into: &$0)
        }
        guard startStreamResponse(requestedClose: requestedClose, framingCloses: closes) != nil else { return }
        startBody(.written(framing))
        flush()
    }

    func streamWrite(_ bytes: [UInt8], generation: UInt64) {
        guard !isClosed, generation == self.generation, case .streaming = machine.state,
            case .written(let framing)? = bodyInProgress
        else { return }
        switch framing {
        case .chunked: enqueue { ResponseSerializer.appendChunk(bytes, into: &$0) }
        case .closeDelimited: enqueue(bytes)
        case .none: return
        }
        flush()
    }

    func streamFinish(generation: UInt64) {
        guard !isClosed, generation == self.generation, case .streaming = machine.state,
            case .written(let framing)? = bodyInProgress
        else { return }
        if framing == .chunked { enqueue(ResponseSerializer.chunkedTerminator) }
        finishStreamResponse()
    }
}
