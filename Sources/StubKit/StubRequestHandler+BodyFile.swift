import StubHTTP

/// Sending a stub's response, and streaming from disk body files over ``BodyFiles/cacheLimit`` and rendered
/// bodies that spilled to a file (``TemplateOutput``): the file is opened on
/// ``StubRequestHandler/fileWorkers`` when the request is served, its size becomes the `Content-Length`, and
/// its bytes go out a bounded piece at a time as the client reads them.
extension StubRequestHandler {
    /// Sends `prepared` (the response of `response` for this request) after `delay`, as
    /// ``StubResponse/send(_:via:after:network:)`` does, or streams its body file, or the body its template
    /// rendered to a file (`spilledBody`).
    /// - Parameter stub: names the stub in the 500 for a body file that cannot be read any more (only
    ///   evaluated for a streamed file: the hot path builds no name).
    func deliver(
        _ prepared: PreparedResponse, of response: StubResponse, for request: StubHTTPRequest,
        spilledBody: TemplateSpillFile? = nil, renderedStream: PreparedStream? = nil,
        stub: @autoclosure () -> String, via responder: HTTPResponder, after delay: Duration?
    ) {
        guard response.fault == nil, !response.hangs else {
            return response.send(prepared, via: responder, after: delay, network: network)
        }
        if let script = response.webSocket {
            return accept(
                script, of: response, head: prepared.response, for: request, stub: stub(), via: responder, after: delay)
        }
        // A template's stream is the one it rendered for this request (none when its render failed: the 500).
        if let stream = response.template == nil ? response.stream : renderedStream {
            return send(stream, head: prepared.response, of: response, for: request, via: responder, after: delay)
        }
        if let spilledBody {
            return stream(prepared.response, of: response, stub: stub(), via: responder, after: delay) {
                () throws(BodyFiles.ReadError) in
                try BodyFileReader(spilled: spilledBody)
            }
        }
        guard let file = response.streamedFile else {
            return response.send(prepared, via: responder, after: delay, network: network)
        }
        stream(prepared.response, of: response, stub: stub(), via: responder, after: delay) {
            () throws(BodyFiles.ReadError) in
            try file.open()
        }
    }

    /// Opens the body with `open` on ``fileWorkers``, then sends `head` with the body's size as its
    /// `Content-Length` and the body a bounded piece at a time; a body that cannot be opened gets a 500
    /// naming `stub`.
    private func stream(
        _ head: HTTPResponse, of response: StubResponse, stub: String, via responder: HTTPResponder,
        after delay: Duration?, open: @escaping @Sendable () throws(BodyFiles.ReadError) -> BodyFileReader
    ) {
        let pacing = response.pacing(network: network)
        let workers = fileWorkers, log = configuration.log
        let queued = workers.submit {
            let reader: BodyFileReader
            do throws(BodyFiles.ReadError) {
                reader = try open()
            } catch {
                // The file was there when the stub loaded: it has gone or cannot be read now.
                let reason = "stubserver: \(stub): \(error.description)\n"
                log.write(reason.dropLast().description)
                return responder.respond(
                    HTTPResponse(
                        status: .internalServerError,
                        headers: ["Content-Type": "text/plain; charset=utf-8"],
                        body: Array(reason.utf8)))
            }
            // Each piece is read by the same pool; at most one per response waits, and it is never refused.
            let executor = HTTPBodyExecutor { job in workers.submit(continuing: true, job) }
            responder.respond(
                .pulled(head, contentLength: reader.size, from: BodyFileSource(reader), on: executor, pacing: pacing),
                after: delay ?? .zero)
        }
        if !queued { responder.respond(WorkerPool.busyResponse) }
    }
}
