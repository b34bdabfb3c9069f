import StubHTTP

/// Answering by forwarding: proxy stubs (`proxyBaseUrl`) and `--proxy-all`.
extension StubRequestHandler {
    /// Forwards `request` off the event loop and answers with the upstream's response (with the
    /// stub's headers and delay), or a 502/504 naming the upstream and the reason. Journals the
    /// request when answered, and keeps the exchange for a recording in progress. The completion runs
    /// on the proxy client's thread, never an event loop.
    func forward(_ request: HTTPRequest, via definition: ProxyDefinition,
                 stub: (response: StubResponse, mapping: StubMapping)?, responder: HTTPResponder,
                 started: ContinuousClock.Instant) {
        let client = proxy.client
        let upstreamURL = definition.upstreamURL(for: request)
        let finish: ProxyCompletion = { [self] result in
            var response: HTTPResponse
            switch result {
            case .success(let upstream):
                recorder.capture(request, upstream)
                response = upstream
                for field in stub?.response.proxyHeaders ?? [:] { response.headers.add(name: field.name, value: field.value) }
            case .failure(let failure):
                configuration.log.write(failure.description)
                response = failure.response
            }
            let delay = stub?.response.delay(network: network, globalDelay: store.settings.fixedDelay)
            let entry = journal.record(request, matchedStub: stub.map { LoggedRequest.MatchedStub($0.mapping) },
                                       status: response.status.code, response: response,
                                       timing: ServeTiming(processTime: ContinuousClock.now - started, addedDelay: delay ?? .zero),
                                       ownsResponseBody: true, proxiedTo: upstreamURL)
            if let delay {
                responder.respond(response, after: delay)
            } else {
                responder.respond(response)
            }
            configuration.onRequest?(entry, ContinuousClock.now - started)
        }
        proxy.workers.answer(responder) { _ in
            client.forward(request, via: definition, completion: finish)
        }
    }
}
