import StubHTTP
import StubModel
import StubTemplating

/// Decoding of WebSocket stubs: `metadata.stubserver.webSocket` (``WebSocketScript``), which WireMock ignores.
///
/// ```json
/// "webSocket": {"onConnect": [{"text": "welcome"}],
///               "onMessage": [{"matches": {"equalTo": "ping"}, "send": [{"text": "pong"}]}]}
/// ```
extension MappingDecoder.Run {
    static let webSocketFields = ["onConnect", "onMessage", "close"]
    static let webSocketReplyFields = ["matches", "send", "close", "newScenarioState"]
    static let webSocketMessageFields = ["text", "json", "base64", "delayMilliseconds"]
    static let webSocketCloseFields = ["code", "reason", "delayMilliseconds"]

    /// The script at `path` (`metadata.stubserver.webSocket`) of `mapping`.
    mutating func decodeWebSocket(_ json: JSONValue, for mapping: StubMapping, at path: MappingPath)
        throws(StubsLoadError) -> WebSocketScript
    {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: Self.webSocketFields)
        var script = WebSocketScript()
        script.loaded = LoadedParts(compiled)  // the reply matchers compiled below, for the server to take
        if let onConnect = json["onConnect"] {
            script.onConnect = try decodeMessages(onConnect, at: path.key("onConnect"))
        }
        if let onMessage = json["onMessage"] {
            for element in try elements(onMessage, at: path.key("onMessage"), of: "reply objects") {
                script.onMessage.append(try decodeReply(element.value, for: mapping, at: element.path))
            }
        }
        if let close = json["close"] { script.closeAfterConnect = try decodeClosing(close, at: path.key("close")) }
        return script
    }

    private mutating func decodeReply(_ json: JSONValue, for mapping: StubMapping, at path: MappingPath)
        throws(StubsLoadError) -> WebSocketReply
    {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: Self.webSocketReplyFields)
        guard let matches = json["matches"] else {
            throw failure(path, "missing 'matches': a reply needs a matcher for the messages it answers")
        }
        // A matcher stubserver does not implement would answer messages its author did not mean: refused.
        guard let matcher = try decodeMatcher(matches, at: path.key("matches")) else {
            throw failure(path.key("matches"), "this matcher is not supported in a WebSocket reply")
        }
        var reply = WebSocketReply(matcher)
        if let send = json["send"] { reply.send = try decodeMessages(send, at: path.key("send")) }
        if let close = json["close"] { reply.close = try decodeClosing(close, at: path.key("close")) }
        if let state = json["newScenarioState"] {
            guard mapping.scenarioName != nil else {
                throw failure(path.key("newScenarioState"), "needs the stub's 'scenarioName'")
            }
            reply.newScenarioState = try string(state, at: path.key("newScenarioState"))
        }
        return reply
    }

    mutating func decodeMessages(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> [WebSocketOutgoing]
    {
        var messages: [WebSocketOutgoing] = []
        for (element, elementPath) in try elements(json, at: path, of: "message objects") {
            let members = try object(element, at: elementPath)
            try checkFields(members, at: elementPath, supported: Self.webSocketMessageFields)
            let delay = try webSocketDelay(element, at: elementPath)
            switch (element["text"], element["json"], element["base64"]) {
            case (let text?, nil, nil):
                messages.append(.text(try string(text, at: elementPath.key("text")), after: delay))
            case (nil, let value?, nil):
                messages.append(.json(value, after: delay))
            case (nil, nil, let encoded?):
                let text = try string(encoded, at: elementPath.key("base64"))
                do {
                    messages.append(.binary(try Base64.decode(text), after: delay))
                } catch {
                    throw failure(elementPath.key("base64"), "invalid base64: \(error)")
                }
            default:
                throw failure(elementPath, "a message needs exactly one of 'text', 'json' and 'base64'")
            }
        }
        return messages
    }

    private mutating func decodeClosing(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> WebSocketClosing
    {
        let members = try object(json, at: path)
        try checkFields(members, at: path, supported: Self.webSocketCloseFields)
        var closing = WebSocketClosing(after: try webSocketDelay(json, at: path))
        if let code = json["code"] { closing.code = try integer(code, at: path.key("code"), in: 1000...4999) }
        if let reason = json["reason"] { closing.reason = try string(reason, at: path.key("reason")) }
        if let problem = WebSocketClosing.problem(code: closing.code, reason: closing.reason) {
            throw failure(path, problem)
        }
        return closing
    }

    private func webSocketDelay(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> Duration {
        guard let value = json["delayMilliseconds"] else { return .zero }
        return .milliseconds(try integer(value, at: path.key("delayMilliseconds"), in: 0...Int(Int32.max)))
    }
}

extension WebSocketScript {
    /// The script as `metadata.stubserver.webSocket`.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if !onConnect.isEmpty { members.append(("onConnect", .array(onConnect.map(\.json)))) }
        if !onMessage.isEmpty { members.append(("onMessage", .array(onMessage.map(\.json)))) }
        if let closeAfterConnect { members.append(("close", closeAfterConnect.json)) }
        return .object(members)
    }
}

extension WebSocketReply {
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("matches", matcher.json)]
        if !send.isEmpty { members.append(("send", .array(send.map(\.json)))) }
        if let close { members.append(("close", close.json)) }
        if let newScenarioState { members.append(("newScenarioState", .string(newScenarioState))) }
        return .object(members)
    }
}

extension WebSocketOutgoing {
    /// The message as in stub files: `{"text": …}`, `{"json": …}` or `{"base64": …}`.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)]
        switch payload {
        case .text(let text): members = [("text", .string(text))]
        case .json(let value): members = [("json", value)]
        case .binary(let bytes): members = [("base64", .string(Base64.encode(bytes)))]
        }
        if delay > .zero { members.append(("delayMilliseconds", JSONValue(delay.wholeMilliseconds))) }
        return .object(members)
    }
}

extension WebSocketClosing {
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", JSONValue(code))]
        if !reason.isEmpty { members.append(("reason", .string(reason))) }
        if delay > .zero { members.append(("delayMilliseconds", JSONValue(delay.wholeMilliseconds))) }
        return .object(members)
    }
}
