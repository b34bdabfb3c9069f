import StubHTTP

/// Answering a WebSocket stub (``ResponseDefinition/webSocket``): the upgrade, after the stub's delay (on the
/// connection's timer), then its script on the event loop (``ScriptedWebSocket``). A request that is not a valid upgrade gets the engine's
/// `400` or `426`, naming what is missing.
extension StubRequestHandler {
    func accept(
        _ script: CompiledWebSocketScript, of response: StubResponse, head: HTTPResponse, for request: StubHTTPRequest,
        stub: String, via responder: HTTPResponder, after delay: Duration?
    ) {
        var headers = head.headers
        headers.remove(name: "Content-Length")
        if let makeHandler = response.webSocketHandler {
            return responder.acceptWebSocket(request, headers: headers, handler: makeHandler(), after: delay ?? .zero)
        }
        let states = store.states
        let scenario = script.scenarioName
        var limits = configuration.templateLimits
        limits.maxJSONBytes = max(0, configuration.jsonMatchBodyLimit)
        let renderer = WebSocketRenderer(
            serverOrigin: origin.value, limits: limits, workers: renderWorkers, log: configuration.log, stub: stub)
        responder.acceptWebSocket(
            request, headers: headers,
            handler: ScriptedWebSocket(
                script: script,
                moveScenario: { state in if let scenario { states.setScenarioState(scenario, to: state) } },
                registry: webSocketRegistry, renderer: renderer),
            after: delay ?? .zero)
    }
}
