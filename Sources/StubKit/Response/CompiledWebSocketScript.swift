/// A ``WebSocketScript`` with its reply matchers compiled once, when the route table is built.
struct CompiledWebSocketScript: Sendable {
    struct Reply: Sendable {
        let matcher: CompiledStringMatcher
        let send: ArraySlice<WebSocketOutgoing>
        let close: WebSocketClosing?
        let newScenarioState: String?
    }

    let onConnect: ArraySlice<WebSocketOutgoing>
    let onMessage: [Reply]
    let closeAfterConnect: WebSocketClosing?
    /// The stub's scenario, which a reply's `newScenarioState` moves.
    let scenarioName: String?

    init(_ script: WebSocketScript, scenarioName: String?) {
        self.scenarioName = scenarioName
        onConnect = script.onConnect[...]
        onMessage = script.onMessage.map {
            Reply(
                matcher: CompiledStringMatcher($0.matcher), send: $0.send[...], close: $0.close,
                newScenarioState: $0.newScenarioState)
        }
        closeAfterConnect = script.closeAfterConnect
    }
}
