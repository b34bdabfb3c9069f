import StubHTTP

/// `/__admin/stubserver/websockets`: the WebSocket connections open now, sending to those a request pattern
/// matches, closing them, and the messages clients sent (as ``StubServer/webSockets(matching:)`` and
/// ``StubServer/waitForMessage(matching:from:timeout:)`` do in-process).
extension AdminAPI {
    /// `GET /__admin/stubserver/websockets`: `{"webSockets": [{"url": "/chat"}], "messages": ["hi", …]}`: the
    /// open connections, oldest first, and the messages clients sent (the last 1,000 kept).
    func listWebSockets() -> HTTPResponse {
        let open = webSockets.connections(matching: CompiledRequestPattern(RequestPattern()))
        let messages = webSockets.receivedMessages()
        return AdminResponse.json([
            "webSockets": .array(open.map { .object([("url", .string($0.request.target))]) }),
            "messages": .array(
                messages.map {
                    .object([
                        ("url", .string($0.request.target)), ("text", .string($0.text)),
                        ("truncated", .bool($0.truncated))
                    ])
                })
        ])
    }

    /// `POST /__admin/stubserver/websockets/send` with `{"request": {pattern}, "messages": [{"text": "hi"}]}`
    /// (messages as in stub files; delays ignored): sends them to every open connection whose upgrade request
    /// matches; answers `{"webSockets": N}`.
    func sendToWebSockets(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let (open, json) = try openWebSockets(body, fields: ["request", "messages"])
        let messages: [WebSocketOutgoing]
        do {
            messages = try MappingDecoder().decodeWebSocketMessages(json["messages"] ?? .array([]))
        } catch {
            throw .invalid(error, title: "Invalid WebSocket messages")
        }
        for message in messages { open.send(message) }
        return AdminResponse.json(["webSockets": JSONValue(open.count)])
    }

    /// `POST /__admin/stubserver/websockets/close` with `{"request": {pattern}, "code": 1000, "reason": "bye"}`:
    /// closes every open connection whose upgrade request matches; answers `{"webSockets": N}`.
    func closeWebSockets(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let (open, json) = try openWebSockets(body, fields: ["request", "code", "reason"])
        let code = json["code"]?.intValue ?? 1000
        let reason = json["reason"]?.stringValue ?? ""
        if let problem = WebSocketClosing.problem(code: code, reason: reason) {
            throw Self.invalidCall("Invalid WebSocket call", "/code", problem)
        }
        open.close(code: code, reason: reason)
        return AdminResponse.json(["webSockets": JSONValue(open.count)])
    }

    /// The open connections matching the body's `request` (every one without it), and the body.
    private func openWebSockets(_ body: [UInt8], fields: [String]) throws(AdminError) -> (OpenWebSockets, JSONValue) {
        let (pattern, json) = try patternBody(
            body, fields: fields, example: #"{"request": {"urlPath": "/chat"}}"#, title: "Invalid WebSocket call")
        return (OpenWebSockets(webSockets.connections(matching: pattern)), json)
    }
}
