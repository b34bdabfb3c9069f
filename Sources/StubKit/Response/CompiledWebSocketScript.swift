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
    init(_ script: WebSocketScript, scenarioName: String?, templated: Bool) throws(ResponseTemplate.Failure) {
        self.scenarioName = scenarioName
        onConnect = try Self.messages(script.onConnect, templated: templated, at: ["webSocket", "onConnect"])
        var replies: [Reply] = []
        for (index, reply) in script.onMessage.enumerated() {
            let field = ["webSocket", "onMessage", "[\(index)]", "send"]
            replies.append(
                Reply(
                    matcher: CompiledStringMatcher(reply.matcher),
                    send: try Self.messages(reply.send, templated: templated, at: field), close: reply.close,
                    newScenarioState: reply.newScenarioState))
        }
        onMessage = replies
        closeAfterConnect = script.closeAfterConnect
    }

    private static func messages(_ list: [WebSocketOutgoing], templated: Bool, at field: [String])
        throws(ResponseTemplate.Failure) -> Messages
    {
        guard templated else { return .fixed(list[...]) }
        let template = try WebSocketTemplate(list, at: field)
        return template.isTemplated ? .templated(template) : .fixed(list[...])
    }

    /// Every template, for the load-time warnings.
    var templates: [Template] {
        ([onConnect] + onMessage.map(\.send)).flatMap { messages -> [Template] in
            if case .templated(let template) = messages { return template.templates }
            return []
        }
    }
}
