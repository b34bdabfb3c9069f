/// A ``WebSocketScript`` with its reply matchers compiled once, when the route table is built, and, in a
/// templated stub, its messages' templates parsed (``WebSocketTemplate``).
struct CompiledWebSocketScript: Sendable {
    /// Messages to send: as written, or rendered for each connection (`onConnect`) or message (a reply).
    enum Messages: Sendable {
        case fixed(ArraySlice<WebSocketOutgoing>)
        case templated(WebSocketTemplate)
    }

    struct Reply: Sendable {
        let matcher: CompiledStringMatcher
        let send: Messages
        let close: WebSocketClosing?
        let newScenarioState: String?
    }

    let onConnect: Messages
    let onMessage: [Reply]
    let closeAfterConnect: WebSocketClosing?
    /// The stub's scenario, which a reply's `newScenarioState` moves.
    let scenarioName: String?

    /// - Parameter templated: the stub has the `response-template` transformer (or templating is global).
    /// - Throws: ``ResponseTemplate/Failure`` naming the message's field relative to `metadata.stubserver`
    ///   (`webSocket.onMessage.[0].send.[1].text`).
    /// - Parameter parsed: the messages' templates as the loader parsed them (``WebSocketTemplate/lists(of:)``'s
    ///   order), taken instead of parsing them again.
    init(_ script: WebSocketScript, scenarioName: String?, templated: Bool, parsed: [WebSocketTemplate]? = nil)
        throws(ResponseTemplate.Failure)
    {
        self.scenarioName = scenarioName
        var messages: [Messages] = []
        for (position, (field, list)) in WebSocketTemplate.lists(of: script).enumerated() {
            guard templated else {
                messages.append(.fixed(list[...]))
                continue
            }
            let template =
                if let parsed, parsed.indices.contains(position) { parsed[position] } else {
                    try WebSocketTemplate(list, at: field)
                }
            messages.append(template.isTemplated ? .templated(template) : .fixed(list[...]))
        }
        onConnect = messages[0]
        // The matchers the loader compiled, when it loaded the script.
        let known = script.loaded.value as? CompiledMatchers
        onMessage = zip(script.onMessage, messages.dropFirst()).map { reply, send in
            Reply(
                matcher: CompiledStringMatcher(reply.matcher, reusing: known), send: send, close: reply.close,
                newScenarioState: reply.newScenarioState)
        }
        closeAfterConnect = script.closeAfterConnect
    }

    /// Every template, for the load-time warnings.
    var templates: [Template] {
        ([onConnect] + onMessage.map(\.send)).flatMap { messages -> [Template] in
            if case .templated(let template) = messages { return template.templates }
            return []
        }
    }
}
