/// The engine's handler for a stub server: match, journal, answer.
struct StubRequestHandler: HTTPHandler {
    let store: StubStore
    let journal: RequestJournal
    let configuration: StubServer.Configuration
    /// Answers `/__admin/...`; those calls are not journaled.
    let admin: AdminAPI

    func handle(_ request: HTTPRequest, responder: HTTPResponder) {
        if AdminAPI.isAdminTarget(request.target) { return responder.respond(admin.handle(request)) }
        let started = ContinuousClock.now
        let snapshot = store.snapshot
        let entry: LoggedRequest
        if let match = snapshot.table.match(request) {
            let response = snapshot.responses[match.index]
            entry = journal.record(request, matchedStub: LoggedRequest.MatchedStub(match.mapping), status: response.status)
            if let delay = response.delay {
                responder.respond(response.prepared, after: delay)
            } else {
                responder.respond(response.prepared)
            }
        } else {
            let report = NearMissReport.render(request: request, nearMisses: snapshot.table.nearMisses(for: request),
                                              stubCount: snapshot.table.count)
            entry = journal.record(request, matchedStub: nil, status: 404)
            responder.respond(HTTPResponse(status: .notFound, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                           body: Array(report.utf8)))
            if configuration.logsUnmatchedRequests { StandardError.write(report + "\n") }
        }
        configuration.onRequest?(entry, ContinuousClock.now - started)
    }

    func didReject(_ error: ParserError, remoteAddress: String) {
        let rejection = journal.recordRejection(remoteAddress: remoteAddress, status: error.status.code,
                                                reason: error.description)
        StandardError.write("stubserver: \(rejection)\n")
    }
}

extension LoggedRequest.MatchedStub {
    init(_ mapping: StubMapping) {
        self.init(id: mapping.id, name: mapping.name, displayName: mapping.displayName)
    }
}
