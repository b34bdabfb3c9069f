import StubHTTP

/// Answering a WebSocket stub (``ResponseDefinition/webSocket``): the upgrade, after the stub's delay (on the
/// connection's timer), then its script on the event loop (``ScriptedWebSocket``). A request that is not a valid upgrade gets the engine's
/// `400` or `426`, naming what is missing.
extension StubRequestHandler {
    /// Accepts the upgrade with `script` played on the connection; `stub` names the stub in the log.
    func accept(
        _ script: CompiledWebSocketScript, head: HTTPResponse, for request: StubHTTPRequest, stub: String,
        via responder: HTTPResponder, after delay: Duration?
    ) {
        let states = store.states
        let scenario = script.scenarioName
        var limits = configuration.templateLimits
        limits.maxJSONBytes = max(0, configuration.jsonMatchBodyLimit)
        let renderer = WebSocketRenderer(
            serverOrigin: origin.value, limits: limits, workers: renderWorkers, log: configuration.log, stub: stub)
        accept(
            ScriptedWebSocket(
                script: script,
                moveScenario: { state in if let scenario { states.setScenarioState(scenario, to: state) } },
                registry: webSocketRegistry, renderer: renderer),
            head: head, for: request, via: responder, after: delay)
    }

    /// Accepts the upgrade with `handler` on the connection, with `head`'s header fields.
    func accept(
        _ handler: any WebSocketHandler, head: HTTPResponse, for request: StubHTTPRequest,
        via responder: HTTPResponder, after delay: Duration?
    ) {
        var headers = head.headers
        headers.remove(name: "Content-Length")
        responder.acceptWebSocket(request, headers: headers, handler: handler, after: delay ?? .zero)
    }
}
