import StubHTTP

/// Answering from a response template without holding the event loop: a render starts on the loop
/// within ``TemplateLimits/onEventLoop`` (a few milliseconds at most); one that needs more starts over
/// on a render thread, within the server's ``StubServer/Configuration/templateLimits``. A request with a
/// large body renders there from the start: reading it (parsing its JSON for `jsonPath`, escaping it)
/// costs more than a step. A render that reaches the limits is answered `500`, naming the stub and the limit.
/// A render thread's body past ``TemplateOutput/spillThreshold`` spills to a temporary file, and is sent
/// from there as a large body file is: a connection holds a bounded part of it, never the whole render.
extension StubRequestHandler {
    /// Renders `template` for `request`, then delivers what it rendered as `then` says (see
    /// ``StubResponse/Answer/template(_:then:)``).
    func answer(
        _ request: StubHTTPRequest, with template: ResponseTemplate, then: StubResponse.Answer,
        response: StubResponse, match: RouteMatch, responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        let limits = {
            var limits = configuration.templateLimits
            limits.maxJSONBytes = max(0, configuration.jsonMatchBodyLimit)
            return limits
        }()
        let onLoop = limits.capped(by: .onEventLoop)
        let serverOrigin = origin.value
        // Taken once per request: a render that starts over on a render thread makes the same values.
        let fakeSeed = template.nextFakeDataSeed(configuration.fakeDataSeed)
        let result: Result<ResponseTemplate.Rendered, TemplateLimitExceeded>
        if request.body.count < TemplateLimits.largestBodyRenderedOnLoop {
            result = template.render(
                request, pathParameters: match.pathParameters, serverOrigin: serverOrigin, limits: onLoop,
                fakeSeed: fakeSeed, data: store.data)
        } else {
            result = .failure(TemplateLimitExceeded(limit: .steps(0)))  // not started: the body is too large
        }
        if case let .failure(exceeded) = result, exceeded.isBelow(limits) {
            let submitted = renderWorkers.submit { [self] in
                let result = template.render(
                    request, pathParameters: match.pathParameters, serverOrigin: serverOrigin,
                    limits: limits, spills: true, fakeSeed: fakeSeed, data: store.data)
                finish(
                    result, request: request, template: template, then: then, response: response, match: match,
                    responder: responder, started: started)
            }
            if !submitted {
                conclude(
                    request, answering: WorkerPool.busyResponse, stub: match.matchedStub, responder: responder,
                    started: started)
            }
            return
        }
        finish(
            result, request: request, template: template, then: then, response: response, match: match,
            responder: responder, started: started)
    }

    /// Delivers the rendered response (its stream or spilled body, unless `then` faults, hangs or accepts a
    /// WebSocket), or the `500` for the limit the render reached (and logs it).
    private func finish(
        _ result: Result<ResponseTemplate.Rendered, TemplateLimitExceeded>, request: StubHTTPRequest,
        template: ResponseTemplate, then: StubResponse.Answer, response: StubResponse, match: RouteMatch,
        responder: HTTPResponder, started: ContinuousClock.Instant
    ) {
        let rendered: ResponseTemplate.Rendered
        switch result {
        case let .success(success):
            rendered = success
        case let .failure(exceeded):
            let target =
                request.target.utf8.count > 200
                ? "\(request.target.prefix(200))… (\(request.target.utf8.count) bytes)" : request.target
            configuration.log.write("\(template.overLimitMessage(exceeded)): \(request.method) \(target)")
            rendered = ResponseTemplate.Rendered(response: template.overLimitResponse(exceeded))
        }
        var sent = then
        if case .prepared = then {
            if let stream = rendered.stream {
                sent = .stream(stream)
            } else if let spilled = rendered.spilledBody {
                sent = .spilledBody(spilled)
            }
        }
        deliver(
            sent, of: response, sending: PreparedResponse(rendered.response), ownsBody: true, for: request,
            match: match, responder: responder, started: started)
    }
}
