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

    /// Sends `prepared` (the response of `response` for this request, from `match`'s stub) after the
    /// stub's delay, through ``conclude``.
    /// - Parameters:
    ///   - spilledBody: the body, when its render spilled it to a file (`prepared` then has the head).
    ///   - renderedStream: the events or lines, when a template rendered them for this request.
    ///   - ownsBody: the body was made for this request (rendered, from a closure).
    func conclude(
        _ request: StubHTTPRequest, sending prepared: PreparedResponse, of response: StubResponse,
        spilledBody: TemplateSpillFile? = nil, renderedStream: PreparedStream? = nil, stub: LoggedRequest.MatchedStub,
        displayName: @autoclosure () -> String, ownsBody: Bool,
        responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        let delay = response.delay(network: network, globalDelay: store.fixedDelay)
        conclude(
            request,
            Conclusion(
                response: prepared.response, stub: stub, addedDelay: delay, ownsBody: ownsBody,
                fault: response.fault),
            started: started
        ) {
            deliver(
                prepared, of: response, for: request, spilledBody: spilledBody, renderedStream: renderedStream,
                stub: displayName(), via: responder, after: delay)
        }
    }
}
