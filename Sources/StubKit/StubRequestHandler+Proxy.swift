import StubHTTP

/// Answering by forwarding: proxy stubs (`proxyBaseUrl`) and `--proxy-all`.
extension StubRequestHandler {
    /// Forwards `request` off the event loop and answers with the upstream's response (with the
    /// stub's headers and delay), or a 502/504 naming the upstream and the reason. Journals the
    /// request when answered, and keeps the exchange for a recording in progress. The completion runs
    /// on the proxy client's thread, never an event loop.
    func forward(
        _ request: StubHTTPRequest, via definition: ProxyDefinition,
        stub: (response: StubResponse, headers: StubHTTPHeaders, mapping: StubMapping)?, responder: HTTPResponder,
        started: ContinuousClock.Instant
    ) {
        let client = proxy.client
        let upstreamURL = definition.upstreamURL(for: request)
        if let reason = proxy.loopGuard.loop(in: request) {
            return answerLoop(
                request, upstreamURL: upstreamURL, reason: reason, stub: stub?.mapping, responder: responder,
                started: started)
        }
        let finish: ProxyCompletion = { [self] result in
            var response: HTTPResponse
            switch result {
            case .success(let upstream):
                // A loop answer (this recording pointed at itself, or at a server forwarding back) is
                // passed on, never recorded as the API's answer.
                if !ProxyLoopGuard.isLoopAnswer(upstream) { recorder.capture(request, upstream) }
                response = upstream
                for field in stub?.headers ?? [:] {
                    response.headers.add(name: field.name, value: field.value)
                }
            case .failure(let failure):
                configuration.log.write(failure.description)
                response = failure.response
            }
            let delay = stub?.response.delay(network: network, globalDelay: store.fixedDelay)
            let conclusion = Conclusion(
                response: response, stub: stub.map { LoggedRequest.MatchedStub($0.mapping) },
                addedDelay: delay, ownsBody: true, proxiedTo: upstreamURL)
            conclude(request, conclusion, started: started) { responder.respond(response, after: delay ?? .zero) }
        }
        let via = proxy.loopGuard.viaEntry
        let queued = proxy.workers.submit {
            // This server's `Via` entry, so that the request is recognised if it comes back.
            var forwarded = request
            forwarded.headers.add(name: "Via", value: via)
            client.forward(forwarded, via: definition, completion: finish)
        }
        if !queued {
            conclude(
                request, answering: WorkerPool.busyResponse, stub: stub.map { LoggedRequest.MatchedStub($0.mapping) },
                responder: responder, started: started)
        }
    }

    /// Answers `508 Loop Detected` to a request that would be forwarded round a loop, at once, and
    /// journals it (as forwarded by `stub`, if a stub forwards it).
    private func answerLoop(
        _ request: StubHTTPRequest, upstreamURL: String, reason: String, stub: StubMapping?,
        responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        let forwarder =
            if let stub { "the stub \(stub.displayName) (id \(stub.id))" } else if recorder.route != nil {
                "the recording"
            } else { "--proxy-all" }
        let response = proxy.loopGuard.loopResponse(
            for: request, upstreamURL: upstreamURL, forwarder: forwarder, reason: reason)
        configuration.log.write(String(decoding: response.body, as: UTF8.self))
        conclude(
            request, answering: response, stub: stub.map(LoggedRequest.MatchedStub.init), proxiedTo: upstreamURL,
            responder: responder, started: started)
    }
}
