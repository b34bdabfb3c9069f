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
    /// workers' queue is full. An event stream or a WebSocket is answered with `response`, the head its stub
    /// prepared when it was added. Journals the request when answered.
    func answer(
        _ request: StubHTTPRequest, with closure: StubClosure, response: StubResponse, match: RouteMatch,
        responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        let stubRequest = StubRequest(request, pathParameters: match.pathParameters)
        let finish: @Sendable (Result<ResponseDefinition, any Error>) -> Void = { [self] result in
            let mapping = match.mapping
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
            // Made by the closure for this request: the journal keeps its body.
            let response = StubResponse(definition, stubID: mapping.id, stubName: mapping.name)
            deliver(
                response.answer, of: response, sending: response.prepared, ownsBody: true, for: request,
                match: match, responder: responder, started: started)
        }
        switch closure {
        case .events(_, let produce):
            deliver(
                .producedStream(Self.producedEvents, produce: { sink in try await produce(stubRequest, sink) }),
                of: response, sending: response.prepared, ownsBody: true, for: request, match: match,
                responder: responder, started: started)
        case .webSocket(let body):
            let registry = webSocketRegistry
            deliver(
                .closureWebSocket({ ClosureWebSocket(request: stubRequest, registry: registry, body: body) }),
                of: response, sending: response.prepared, ownsBody: true, for: request, match: match,
                responder: responder, started: started)
        case .sync(let body):
            let submitted = closureWorkers.submit {
                finish(Result { try body(stubRequest) })
            }
            if !submitted {
                // The stub matched; its closure did not run.
                conclude(
                    request, answering: WorkerPool.busyResponse, stub: match.matchedStub, responder: responder,
                    started: started)
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
