import StubHTTP
import StubMatching

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
    /// The server as a forward proxy: `CONNECT` tunnels, the hosts allowed, unmatched requests passed on.
    let forwardProxy: ForwardProxying
    /// The recording in progress: while recording, every request is forwarded to its target.
    let recorder: Recorder
    /// The streamed responses open now, for ``StubServer/streams(matching:)``.
    let streams: StreamRegistry
    /// The WebSocket connections open now, for ``StubServer/webSockets(matching:)``.
    let webSocketRegistry: WebSocketRegistry
    /// The OpenAPI documents requests are checked against, if any.
    let contracts: OpenAPIContracts

    /// Requests with a larger body are matched on ``matchWorkers``: matching may parse the body as JSON.
    static let inlineBodyLimit = 64 << 10

    /// Whether `target` is `/__admin` or below it. One prefix comparison that fails at the second
    /// byte for ordinary paths, so stub traffic pays next to nothing.
    @inline(__always)
    static func isAdminTarget(_ target: String) -> Bool {
        var bytes = target.utf8.makeIterator()
        for expected in AdminAPI.prefix.utf8 {
            guard bytes.next() == expected else { return false }
        }
        switch bytes.next() {
        case nil, UInt8(ascii: "/")?, UInt8(ascii: "?")?: return true
        default: return false
        }
    }

    func handle(_ request: StubHTTPRequest, responder: HTTPResponder) {
        if let admin, Self.isAdminTarget(request.target) { return admin.serve(request, responder: responder) }
        if request.method == .connect {
            return forwardProxy.connect(request, responder: responder, workers: matchWorkers, log: configuration.log)
        }
        let started = ContinuousClock.now
        if forwardProxy.checksRequests, RequestContext.isProxied(request),
            let refusal = forwardProxy.refusal(of: request, host: RequestContext.authority(of: request).host ?? "")
        {
            return conclude(request, answering: refusal, stub: nil, responder: responder, started: started)
        }
        // The store's flag spares stub traffic the recorder's lock while nothing is recorded.
        let traffic = store.traffic
        if traffic.isRecording, let route = recorder.route {
            // Recording as a forward proxy: a proxied request goes to its own host, and its stub matches that host.
            if route.forwardProxy, RequestContext.isProxied(request), let origin = ForwardProxying.origin(of: request) {
                return forward(request, via: origin, stub: nil, responder: responder, started: started)
            }
            if let target = route.target {
                return forward(request, via: target, stub: nil, responder: responder, started: started)
            }
        }
        let data = traffic.dataRoutes?.route(request.rawPath)
        guard request.body.count <= Self.inlineBodyLimit, !(data?.listsLarge(request.method) ?? false) else {
            // Parsing a large body as JSON, or listing a large collection, takes long enough to stall every
            // connection of this loop.
            let queued = matchWorkers.submit { [self] in
                serve(request, data: data, responder: responder, started: started, onEventLoop: false)
            }
            if !queued {
                conclude(
                    request, answering: WorkerPool.busyResponse, stub: nil, responder: responder, started: started)
            }
            return
        }
        serve(request, data: data, responder: responder, started: started, onEventLoop: true)
    }

    /// Matches `request` and answers it.
    /// - Parameter onEventLoop: whether this runs on an event loop: an unmatched request's near-miss
    ///   report (which compares stubs) is then made on ``matchWorkers``.
    /// - Parameter data: the data collection whose endpoints `request`'s path is, if any: it answers unless a stub
    ///   of its priority or a better one matches.
    private func serve(
        _ request: StubHTTPRequest, data: DataRoute?, responder: HTTPResponder, started: ContinuousClock.Instant,
        onEventLoop: Bool
    ) {
        if contracts.isActive, let (document, finding) = contracts.check(request) {
            switch contracts.mode {
            case .reject:
                let response = OpenAPIContracts.problem(finding, document: document)
                return conclude(request, Conclusion(response: response, ownsBody: true), started: started) {
                    unmatchedLog.log(request, status: 400, report: "stubserver: OpenAPI: \(finding)\n")
                    responder.respond(response)
                }
            case .log:
                configuration.log.write("stubserver: OpenAPI: \(finding)")
            case .off:
                break
            }
        }
        let snapshot = store.snapshot
        // One context for matching and the near-miss report: the body is parsed at most once.
        let context = snapshot.table.context(for: request)
        if let (match, use) = find(context, in: snapshot),
            data.map({ match.mapping.priority <= $0.store.collection.priority }) ?? true
        {
            store.markUsed(match, in: snapshot)
            let response = snapshot.response(at: match.index, use: use)
            if !snapshot.closures.isEmpty, let closure = snapshot.closures[match.index] {
                return answer(
                    request, with: closure, response: response, match: match, responder: responder, started: started)
            }
            deliver(
                response.answer, of: response, sending: response.prepared, ownsBody: false, for: request,
                match: match, responder: responder, started: started)
        } else if let data {
            let response = data.store.serve(request, key: data.key)
            conclude(
                request, Conclusion(response: response, stub: data.store.matchedStub, ownsBody: true),
                started: started
            ) {
                responder.respond(response)
            }
        } else if let definition = proxy.settings.proxyAll ?? forwardProxy.passThrough(for: request) {
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

    /// A TLS connection failed (a handshake a client gave up on, plain HTTP on the HTTPS port): one log line.
    func didFailTLS(_ reason: String, remoteAddress: String) {
        let untrusted = ["unknown ca", "bad certificate", "certificate unknown"].contains { reason.contains($0) }
        let hint = untrusted ? " (the client does not trust the certificate: give it the CA, `stubserver ca path`)" : ""
        configuration.log.write("stubserver: HTTPS connection from \(remoteAddress) closed: \(reason)\(hint)")
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
                processTime: started.duration(to: ContinuousClock.now),
                addedDelay: conclusion.addedDelay ?? .zero),
            ownsResponseBody: conclusion.ownsBody, proxiedTo: conclusion.proxiedTo,
            fault: conclusion.fault)
        send()
        configuration.onRequest?(entry, started.duration(to: ContinuousClock.now))
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
                response: prepared.response, stub: response.stub ?? match.matchedStub, addedDelay: delay,
                ownsBody: ownsBody, fault: fault),
            started: started
        ) {
            send(delay)
        }
    }
}

/// What a stub's response is sent with: its delay, its pacing (dribble, bandwidth, network profile) and how a
/// fault ends the connection, all carried out by timers on the event loop.
extension StubResponse {
    /// What WireMock sends for `MALFORMED_RESPONSE_CHUNK` and `RANDOM_DATA_THEN_CLOSE`: not a valid chunk
    /// size, not an HTTP status line.
    static let garbage = Array("lskdu018973t09sylgasjkfg1][]'./.sdlv".utf8)
    static let malformedChunk = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + garbage

    /// The delay for this request: the stub's fixed delay, a draw from its distribution, the global
    /// delay and the network's latency, added up; `nil` for none.
    func delay(network: NetworkProfile?, globalDelay: Duration?) -> Duration? {
        var total = delay ?? .zero
        if let delayDistribution {
            var generator = SystemRandomNumberGenerator()
            total += .milliseconds(delayDistribution.sampleMilliseconds(using: &generator))
        }
        if let globalDelay { total += globalDelay }
        if let network { total += network.latency }
        return total > .zero ? total : nil
    }

    /// How the engine ends the connection for `fault`.
    static func failure(for fault: ResponseFault) -> ConnectionFailure {
        switch fault {
        case .connectionReset: .reset
        case .emptyResponse: .closeWithoutResponse
        case .malformedResponseChunk: .rawBytesThenClose(malformedChunk)
        case .randomDataThenClose: .rawBytesThenClose(garbage)
        }
    }

    /// The dribble, else the lower of the stub's and the network's rate.
    func pacing(network: NetworkProfile?) -> WritePacing? {
        if let dribble {
            return .chunks(dribble.numberOfChunks, over: .milliseconds(dribble.totalDuration))
        }
        // Without building an array of the two: this runs for every response.
        switch (bytesPerSecond, network?.bytesPerSecond) {
        case (nil, nil): return nil
        case let (stub?, nil): return .bytesPerSecond(stub)
        case let (nil, network?): return .bytesPerSecond(network)
        case let (stub?, network?): return .bytesPerSecond(min(stub, network))
        }
    }
}
