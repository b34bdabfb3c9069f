import StubHTTP

/// Finding the stub for a request when stubs carry state, and answering from Swift closures.
extension StubRequestHandler {
    /// The stub answering `request` and its use number. A snapshot with scenarios, use limits or
    /// sequences matches under the state lock (read and move on atomically); others need no lock.
    func find(_ context: RequestContext, in snapshot: StubSnapshot) -> (match: RouteMatch, use: Int)? {
        if snapshot.isStateful { return store.states.match(context, in: snapshot) }
        return snapshot.table.match(context).map { ($0, 0) }
    }

    /// Runs `closure` off the event loop, then answers with what it returned (delays, pacing and
    /// faults included), or with a 500 naming the error it threw, or with a 503 when the closure
    /// workers' queue is full. Journals the request when answered.
    func answer(
        _ request: StubHTTPRequest, with closure: StubClosure, match: RouteMatch, responder: HTTPResponder,
        started: ContinuousClock.Instant
    ) {
        let stubRequest = StubRequest(request, pathParameters: match.pathParameters)
        let mapping = match.mapping
        let finish: @Sendable (Result<ResponseDefinition, any Error>) -> Void = { [self] result in
            var definition: ResponseDefinition
            switch result {
            case .success(let returned):
                definition = returned
            case .failure(let error):
                let failure = StubClosureFailure(stubName: mapping.displayName, error: error)
                configuration.log.write(failure.description)
                definition = failure.response
            }
            let resolved = bodyFileResolver.resolve(definition, stub: mapping.displayName)
            if let warning = resolved.warning { configuration.log.write(warning) }
            definition = resolved.response
            let response = StubResponse(definition, stubID: mapping.id, stubName: mapping.name)
            // Made by the closure for this request: the journal keeps its body.
            conclude(
                request, sending: response.prepared, of: response, stub: LoggedRequest.MatchedStub(mapping),
                displayName: mapping.displayName, ownsBody: true, responder: responder, started: started)
        }
        switch closure {
        case .events(let head, let produce):
            let definition = head.streaming(ResponseStream(.events([]), end: .open))
            let response = StubResponse(
                definition, stubID: mapping.id, stubName: mapping.name,
                eventProducer: { sink in try await produce(stubRequest, sink) })
            conclude(
                request, sending: response.prepared, of: response, stub: LoggedRequest.MatchedStub(mapping),
                displayName: mapping.displayName, ownsBody: true, responder: responder, started: started)
        case .webSocket(let body):
            let registry = webSocketRegistry
            let response = StubResponse(
                .webSocket(WebSocketScript()), stubID: mapping.id, stubName: mapping.name,
                webSocketHandler: { ClosureWebSocket(request: stubRequest, registry: registry, body: body) })
            conclude(
                request, sending: response.prepared, of: response, stub: LoggedRequest.MatchedStub(mapping),
                displayName: mapping.displayName, ownsBody: true, responder: responder, started: started)
        case .sync(let body):
            let submitted = closureWorkers.submit {
                finish(Result { try body(stubRequest) })
            }
            if !submitted {
                // The stub matched; its closure did not run.
                conclude(
                    request, answering: WorkerPool.busyResponse, stub: LoggedRequest.MatchedStub(mapping),
                    responder: responder, started: started)
            }
        case .async(let body):
            Task {
                do {
                    finish(.success(try await body(stubRequest)))
                } catch {
                    finish(.failure(error))
                }
            }
        }
    }
}
