import StubHTTP

/// Sending a stub's response, and streaming body files over ``BodyFiles/cacheLimit`` from disk: the file
/// is opened on ``StubRequestHandler/fileWorkers`` when the request is served, its size becomes the
/// `Content-Length`, and its bytes go out a bounded piece at a time as the client reads them.
extension StubRequestHandler {
    /// Sends `prepared` (the response of `response` for this request) after `delay`, as
    /// ``StubResponse/send(_:via:after:network:)`` does, or streams its body file.
    /// - Parameter stub: names the stub in the 500 for a body file that cannot be read any more (only
    ///   evaluated for a streamed file: the hot path builds no name).
    func deliver(_ prepared: PreparedResponse, of response: StubResponse, stub: @autoclosure () -> String,
                 via responder: HTTPResponder, after delay: Duration?) {
        guard let file = response.streamedFile, response.fault == nil else {
            return response.send(prepared, via: responder, after: delay, network: network)
        }
        let stub = stub()
        let head = prepared.response
        let pacing = response.pacing(network: network)
        let workers = fileWorkers, log = configuration.log
        let queued = workers.submit {
            let reader: BodyFileReader
            do throws(BodyFiles.ReadError) {
                reader = try file.open()
            } catch {
                // The file was there when the stub loaded: it has gone or cannot be read now.
                let reason = "stubserver: \(stub): \(error.description)\n"
                log.write(reason.dropLast().description)
                return responder.respond(HTTPResponse(status: .internalServerError,
                                                      headers: ["Content-Type": "text/plain; charset=utf-8"],
                                                      body: Array(reason.utf8)))
            }
            // Each piece is read by the same pool; at most one per response waits, and it is never refused.
            let executor = HTTPBodyExecutor { job in workers.submit(continuing: true, job) }
            responder.respond(streaming: head, contentLength: reader.size, from: BodyFileSource(reader), on: executor,
                              pacing: pacing, after: delay ?? .zero)
        }
        if !queued { responder.respond(WorkerPool.busyResponse) }
    }
}
