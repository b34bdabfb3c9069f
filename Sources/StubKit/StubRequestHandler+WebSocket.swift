import StubHTTP

/// Answering a WebSocket stub (``ResponseDefinition/webSocket``): the upgrade, after the stub's delay, then its
/// script on the event loop (``ScriptedWebSocket``). A request that is not a valid upgrade gets the engine's
/// `400` or `426`, naming what is missing.
extension StubRequestHandler {
    func accept(
        _ script: CompiledWebSocketScript, head: HTTPResponse, for request: StubHTTPRequest,
        via responder: HTTPResponder
    ) {
        let registry = webSocketRegistry
        let states = store.states
        let scenario = script.scenarioName
        var headers = head.headers
        headers.remove(name: "Content-Length")
        responder.acceptWebSocket(
            request, headers: headers,
            handler: ScriptedWebSocket(
                script: script,
                moveScenario: { state in if let scenario { states.setScenarioState(scenario, to: state) } },
                registry: registry))
    }
}
