import StubHTTP

/// The engine's handler for a stub server: match, journal, answer.
struct StubRequestHandler: HTTPHandler {
    let store: StubStore
    let journal: RequestJournal
    let configuration: StubServer.Configuration
    /// Answers `/__admin/...` off the event loop (those calls are not journaled); `nil` when the admin
    /// API is off, and those paths are stub traffic.
    let admin: AdminEndpoint?
    /// The slow network every response goes through, if any.
    let network: NetworkProfile?
    /// Runs the synchronous closures of closure stubs.
    let closureWorkers: WorkerPool
    /// Renders templated responses too long for an event loop (see ``TemplateLimits/onEventLoop``).
    let renderWorkers: WorkerPool
    /// Matches requests with large bodies and makes near-miss reports, off the event loops.
    let matchWorkers: WorkerPool
    /// Opens and reads body files streamed from disk.
    let fileWorkers: WorkerPool
    /// The reports of recent unmatched requests, reused for their repeats.
    let nearMisses = NearMissReportCache()
    /// Reads the `.file` bodies closures return (on a closure worker), as a stub added in Swift would.
    let bodyFileResolver: BodyFileResolver
    /// Logs unmatched requests as ``StubServer/Configuration/unmatchedRequestLogging`` asks.
    let unmatchedLog: UnmatchedRequestLog
    /// `http://host:port` once listening: `request.baseUrl` in templates for requests without `Host`.
    let origin: ServerOrigin
    /// Forwards requests for proxy stubs and `--proxy-all`.
    let proxy: ProxyForwarding
    /// The recording in progress: while recording, every request is forwarded to its target.
    let recorder: Recorder
    /// The streamed responses open now, for ``StubServer/streams(matching:)``.
    let streams: StreamRegistry
    /// The WebSocket connections open now, for ``StubServer/webSockets(matching:)``.
    let webSocketRegistry: WebSocketRegistry

    /// Requests with a larger body are matched on ``matchWorkers``: matching may parse the body as JSON.
    static let inlineBodyLimit = 64 << 10

    func handle(_ request: StubHTTPRequest, responder: HTTPResponder) {
        if let admin, AdminAPI.isAdminTarget(request.target) { return admin.serve(request, responder: responder) }
        let started = ContinuousClock.now
        if let recording = recorder.proxy {
            return forward(request, via: recording, stub: nil, responder: responder, started: started)
        }
        guard request.body.count <= Self.inlineBodyLimit else {
            // Parsing a large body as JSON takes long enough to stall every connection of this loop.
            let queued = matchWorkers.submit { [self] in
                serve(request, responder: responder, started: started, onEventLoop: false)
            }
            if !queued {
                conclude(
                    request, answering: WorkerPool.busyResponse, stub: nil, responder: responder, started: started)
            }
            return
        }
        serve(request, responder: responder, started: started, onEventLoop: true)
    }

    /// Matches `request` and answers it.
    /// - Parameter onEventLoop: whether this runs on an event loop: an unmatched request's near-miss
    ///   report (which compares stubs) is then made on ``matchWorkers``.
    private func serve(
        _ request: StubHTTPRequest, responder: HTTPResponder, started: ContinuousClock.Instant, onEventLoop: Bool
    ) {
        let snapshot = store.snapshot
        // One context for matching and the near-miss report: the body is parsed at most once.
        let context = snapshot.table.context(for: request)
        if let (match, use) = find(context, in: snapshot) {
            store.markUsed(match, in: snapshot)
            let response = snapshot.response(at: match.index, use: use)
            if !snapshot.closures.isEmpty, let closure = snapshot.closures[match.index] {
                return answer(
                    request, with: closure, response: response, match: match, responder: responder, started: started)
            }
            deliver(
                response.answer, of: response, sending: response.prepared, ownsBody: false, for: request,
                match: match, responder: responder, started: started)
        } else if let definition = proxy.settings.proxyAll {
            forward(request, via: definition, stub: nil, responder: responder, started: started)
        } else if !snapshot.isStateful, let answer = nearMisses.report(for: request, in: snapshot) {
            answerUnmatched(request, answer, responder: responder, started: started)
        } else if onEventLoop {
            // The report is bounded work, but still too much for an event loop under a flood of misses.
            let queued = matchWorkers.submit { [self] in
                let snapshot = store.snapshot
                answerUnmatched(
                    request, explain(request, in: snapshot, context: snapshot.table.context(for: request)),
                    responder: responder, started: started)
            }
            if !queued {
                answerUnmatched(
                    request, UnmatchedAnswer(report: Self.skippedReport(request)), responder: responder,
                    started: started)
            }
        } else {
            answerUnmatched(
                request, explain(request, in: snapshot, context: context), responder: responder, started: started)
        }
    }

    /// The answer to unmatched `request` (its near-miss report), kept for its repeats.
    private func explain(_ request: StubHTTPRequest, in snapshot: StubSnapshot, context: RequestContext)
        -> UnmatchedAnswer
    {
        let rejection = snapshot.table.graphQLRejection(for: context)
        // Stateful stubs say why they do not answer; their report changes with the state, so it is not kept.
        guard snapshot.isStateful else {
            let answer = UnmatchedAnswer(
                report: snapshot.table.nearMissReport(for: context), graphQLRejection: rejection)
            nearMisses.keep(answer, for: request, in: snapshot)
            return answer
        }
        return UnmatchedAnswer(
            report: snapshot.table.nearMissReport(for: context, notAnswering: store.states.notAnswering),
            graphQLRejection: rejection)
    }

    /// Answers `answer` (404 with the near-miss report, or 400 for an unreadable GraphQL query), journals and
    /// logs it.
    private func answerUnmatched(
        _ request: StubHTTPRequest, _ answer: UnmatchedAnswer, responder: HTTPResponder,
        started: ContinuousClock.Instant
    ) {
        let response = HTTPResponse(
            status: HTTPStatus(code: answer.status), headers: ["Content-Type": "text/plain; charset=utf-8"],
            body: Array(answer.body.utf8))
        conclude(request, Conclusion(response: response, ownsBody: true), started: started) {
            // Queued (never written here) before the response goes out, so a client that got its 404
            // can flush the log and find the report.
            unmatchedLog.log(request, status: answer.status, report: answer.body)
            responder.respond(response)
        }
    }

    /// The 404 text when every match worker is busy: no stub is compared.
    static func skippedReport(_ request: StubHTTPRequest) -> String {
        "No stub matched \(request.method) \(Quoting.truncate(request.target, limit: NearMissReport.valueLimit))\n\n"
            + "(No near-miss report: too many unmatched requests are being explained at once.)\n"
    }

    func didReject(_ error: ParserError, remoteAddress: String) {
        let rejection = journal.recordRejection(
            remoteAddress: remoteAddress, status: error.status.code,
            reason: error.description)
        configuration.log.write("stubserver: \(rejection)")
    }
}

extension LoggedRequest.MatchedStub {
    init(_ mapping: StubMapping) {
        self.init(id: mapping.id, name: mapping.name, displayName: mapping.displayName)
    }
}

extension RouteMatch {
    /// How the journal names the stub, read in place.
    var matchedStub: LoggedRequest.MatchedStub {
        withMapping(LoggedRequest.MatchedStub.init)
    }
}
