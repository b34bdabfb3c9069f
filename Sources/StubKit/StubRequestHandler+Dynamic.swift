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
    func answer(_ request: HTTPRequest, with closure: StubClosure, match: RouteMatch, responder: HTTPResponder,
                started: ContinuousClock.Instant) {
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
            if let name = definition.bodyFileToLoad {
                definition = loadBodyFile(name, into: definition)
            }
            let response = StubResponse(definition, stubID: mapping.id, stubName: mapping.name)
            let delay = response.delay(network: network, globalDelay: store.fixedDelay)
            let entry = journal.record(request, matchedStub: LoggedRequest.MatchedStub(mapping), status: response.status,
                                       response: response.prepared.response,
                                       timing: ServeTiming(processTime: ContinuousClock.now - started, addedDelay: delay ?? .zero),
                                       ownsResponseBody: true)  // made by the closure for this request
            deliver(response.prepared, of: response, stub: mapping.displayName, via: responder, after: delay)
            configuration.onRequest?(entry, ContinuousClock.now - started)
        }
        switch closure {
        case .sync(let body):
            let submitted = closureWorkers.submit {
                finish(Result { try body(stubRequest) })
            }
            if !submitted { refuse(request, matchedStub: LoggedRequest.MatchedStub(mapping), responder: responder, started: started) }
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

    /// Answers 503 (``WorkerPool/busyResponse``) for a closure stub whose closure could not be queued,
    /// and journals it as such: the stub matched, its closure did not run.
    private func refuse(_ request: HTTPRequest, matchedStub: LoggedRequest.MatchedStub, responder: HTTPResponder,
                        started: ContinuousClock.Instant) {
        let busy = WorkerPool.busyResponse
        let entry = journal.record(request, matchedStub: matchedStub, status: busy.status.code, response: busy,
                                   timing: ServeTiming(processTime: ContinuousClock.now - started), ownsResponseBody: true)
        responder.respond(busy)
        configuration.onRequest?(entry, ContinuousClock.now - started)
    }

    /// `definition` with its `.file` body read from `__files` (on a worker thread), or a 500 saying why not.
    private func loadBodyFile(_ name: String, into definition: ResponseDefinition) -> ResponseDefinition {
        guard let bodyFiles else {
            return StubServer.failure(definition, "body file '\(name)' needs a stubs directory; start the server with stubs:",
                                      log: configuration.log)
        }
        do {
            return try definition.loadingBodyFile(from: bodyFiles, templated: definition.isTemplated(globally: false))
        } catch {
            return StubServer.failure(definition, "\(error)", log: configuration.log)
        }
    }
}
