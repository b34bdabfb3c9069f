import StubHTTP

/// The one way a request of stub traffic ends, whatever answered it (a stub's prepared or rendered
/// response, a closure, an upstream, a refusal, the 404 with its near-miss report): the journal records
/// the answer, it is sent, and ``StubServer/Configuration/onRequest`` hears of it, in that order.
extension StubRequestHandler {
    /// What a request is answered with, as the journal keeps it.
    struct Conclusion {
        /// The response as journaled (for a streamed body file: its head).
        var response: HTTPResponse
        /// The stub that answered, if one did.
        var stub: LoggedRequest.MatchedStub?
        /// The delay added before the answer (the stub's, the settings', the network profile's).
        var addedDelay: Duration?
        /// The body was made for this request (rendered, returned by a closure, from an upstream): the
        /// journal may keep it without counting it as shared with a stub.
        var ownsBody = false
        /// The upstream URL the request was forwarded to.
        var proxiedTo: String?
        /// The fault sent instead of the response.
        var fault: ResponseFault?
    }

    /// Journals `conclusion`, runs `send` (which hands the answer to the responder), then reports the
    /// request to `onRequest`.
    func conclude(
        _ request: StubHTTPRequest, _ conclusion: Conclusion, started: ContinuousClock.Instant, send: () -> Void
    ) {
        let entry = journal.record(
            request, matchedStub: conclusion.stub, status: conclusion.response.status.code,
            response: conclusion.response,
            timing: ServeTiming(
                processTime: ContinuousClock.now - started,
                addedDelay: conclusion.addedDelay ?? .zero),
            ownsResponseBody: conclusion.ownsBody, proxiedTo: conclusion.proxiedTo,
            fault: conclusion.fault)
        send()
        configuration.onRequest?(entry, ContinuousClock.now - started)
    }

    /// Answers `response` at once (a refusal, a loop, a `503` when workers are busy), through ``conclude``.
    func conclude(
        _ request: StubHTTPRequest, answering response: HTTPResponse, stub: LoggedRequest.MatchedStub?,
        proxiedTo: String? = nil, responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        conclude(
            request, Conclusion(response: response, stub: stub, ownsBody: true, proxiedTo: proxiedTo),
            started: started
        ) {
            responder.respond(response)
        }
    }

    /// Answers `request` with `answer`, the answer of `response` (the stub `match` found, or the one a closure
    /// stub returned): at once, or once the work it needs is done (a render, a body file opened, an upstream
    /// asked), and always through ``conclude(_:_:started:send:)``.
    /// - Parameters:
    ///   - prepared: the response as sent: `response`'s own, or what its template rendered for this request.
    ///   - ownsBody: the body was made for this request (rendered, from a closure).
    func deliver(
        _ answer: StubResponse.Answer, of response: StubResponse, sending prepared: PreparedResponse, ownsBody: Bool,
        for request: StubHTTPRequest, match: RouteMatch, responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        switch answer {
        case .prepared:
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                responder.respond(prepared, pacing: response.pacing(network: network), after: $0 ?? .zero)
            }
        case .stream(let stream):
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                send(stream, head: prepared.response, producing: nil, for: request, via: responder, after: $0)
            }
        case .producedStream(let stream, let produce):
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                send(stream, head: prepared.response, producing: produce, for: request, via: responder, after: $0)
            }
        case .webSocket(let script):
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                accept(
                    script, head: prepared.response, for: request, stub: match.mapping.displayName, via: responder,
                    after: $0)
            }
        case .closureWebSocket(let makeHandler):
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                accept(makeHandler(), head: prepared.response, for: request, via: responder, after: $0)
            }
        case .fault(let fault):
            conclude(
                request, sending: prepared, of: response, fault: fault, ownsBody: ownsBody, match: match,
                started: started
            ) {
                responder.respond(.failure(StubResponse.failure(for: fault)), after: $0 ?? .zero)
            }
        case .hang:
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                _ in responder.hang()
            }
        case .streamedFile(let file):
            stream(
                prepared, of: response, ownsBody: ownsBody, for: request, match: match, responder: responder,
                started: started
            ) { () throws(BodyFiles.ReadError) in
                try file.open()
            }
        case .spilledBody(let file):
            stream(
                prepared, of: response, ownsBody: ownsBody, for: request, match: match, responder: responder,
                started: started
            ) { () throws(BodyFiles.ReadError) in
                try BodyFileReader(spilled: file)
            }
        case .template(let template, let then):
            self.answer(
                request, with: template, then: then, response: response, match: match, responder: responder,
                started: started)
        case .proxy(let definition, let headers):
            forward(
                request, via: definition, stub: (response, headers, match.mapping), responder: responder,
                started: started)
        }
    }

    /// Journals `prepared` (the head, for a body sent from a file or a stream) as `match`'s stub's answer with the
    /// stub's delay for this request, then runs `send` with that delay, through ``conclude(_:_:started:send:)``.
    func conclude(
        _ request: StubHTTPRequest, sending prepared: PreparedResponse, of response: StubResponse,
        fault: ResponseFault? = nil, ownsBody: Bool, match: RouteMatch, started: ContinuousClock.Instant,
        send: (Duration?) -> Void
    ) {
        let delay = response.delay(network: network, globalDelay: store.fixedDelay)
        conclude(
            request,
            Conclusion(
                response: prepared.response, stub: match.matchedStub, addedDelay: delay, ownsBody: ownsBody,
                fault: fault),
            started: started
        ) {
            send(delay)
        }
    }
}
