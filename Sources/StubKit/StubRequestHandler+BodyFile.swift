import StubHTTP

/// Streaming from disk body files over ``BodyFiles/cacheLimit`` and rendered bodies that spilled to a file
/// (``TemplateOutput``): the file is opened on ``StubRequestHandler/fileWorkers`` when the request is served, its
/// size becomes the `Content-Length`, and its bytes go out a bounded piece at a time as the client reads them.
extension StubRequestHandler {
    /// Opens the body with `open` on ``fileWorkers``, then concludes with `prepared`'s head, the body's size as its
    /// `Content-Length` and the body sent a bounded piece at a time; a body that cannot be opened is answered
    /// 500 naming the stub, and a full queue 503, both through ``conclude(_:_:started:send:)`` too.
    func stream(
        _ prepared: PreparedResponse, of response: StubResponse, ownsBody: Bool, for request: StubHTTPRequest,
        match: RouteMatch, responder: HTTPResponder, started: ContinuousClock.Instant,
        open: @escaping @Sendable () throws(BodyFiles.ReadError) -> BodyFileReader
    ) {
        let workers = fileWorkers
        let queued = workers.submit { [self] in
            let reader: BodyFileReader
            do throws(BodyFiles.ReadError) {
                reader = try open()
            } catch {
                // The file was there when the stub loaded: it has gone or cannot be read now.
                let reason = "stubserver: \(match.mapping.displayName): \(error.description)\n"
                configuration.log.write(reason.dropLast().description)
                return conclude(
                    request,
                    answering: HTTPResponse(
                        status: .internalServerError, headers: ["Content-Type": "text/plain; charset=utf-8"],
                        body: Array(reason.utf8)),
                    stub: match.matchedStub, responder: responder, started: started)
            }
            // Each piece is read by the same pool; at most one per response waits, and it is never refused.
            let executor = HTTPBodyExecutor { job in workers.submit(continuing: true, job) }
            let size = reader.size, source = BodyFileSource(reader)
            conclude(request, sending: prepared, of: response, ownsBody: ownsBody, match: match, started: started) {
                responder.respond(
                    .pulled(
                        prepared.response, contentLength: size, from: source, on: executor,
                        pacing: response.pacing(network: network)),
                    after: $0 ?? .zero)
            }
        }
        if !queued {
            conclude(
                request, answering: WorkerPool.busyResponse, stub: match.matchedStub, responder: responder,
                started: started)
        }
    }
}
