import StubHTTP

/// `/__admin/stubserver/websockets`: the WebSocket connections open now, sending to those a request pattern
/// matches, closing them, and the messages clients sent (as ``StubServer/webSockets(matching:)`` and
/// ``StubServer/waitForMessage(matching:from:timeout:)`` do in-process).
extension AdminAPI {
    /// `GET /__admin/stubserver/websockets`: `{"webSockets": [{"url": "/chat"}], "messages": ["hi", …]}`: the
    /// open connections, oldest first, and the messages clients sent (the last 1,000 kept).
    func listWebSockets() -> HTTPResponse {
        let open = webSockets.connections(matching: CompiledRequestPattern(RequestPattern()))
        let (messages, _) = webSockets.receivedMessages()
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
        for message in messages {
            switch message.payload {
            case .text(let text): open.send(text: text)
            case .json(let value): open.send(json: value)
            case .binary(let bytes): open.send(binary: bytes)
            }
        }
        return AdminResponse.json(["webSockets": JSONValue(open.count)])
    }

    /// `POST /__admin/stubserver/websockets/close` with `{"request": {pattern}, "code": 1000, "reason": "bye"}`:
    /// closes every open connection whose upgrade request matches; answers `{"webSockets": N}`.
    func closeWebSockets(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let (open, json) = try openWebSockets(body, fields: ["request", "code", "reason"])
        let code = json["code"]?.intValue ?? 1000
        let reason = json["reason"]?.stringValue ?? ""
        if let problem = WebSocketClosing.problem(code: code, reason: reason) {
            throw Self.invalidWebSockets("/code", problem)
        }
        open.close(code: code, reason: reason)
        return AdminResponse.json(["webSockets": JSONValue(open.count)])
    }

    /// The open connections matching the body's `request` (every one without it), and the body.
    private func openWebSockets(_ body: [UInt8], fields: [String]) throws(AdminError) -> (OpenWebSockets, JSONValue) {
        let json = body.isEmpty ? JSONValue.object([]) : try Self.parseBody(body)
        guard case .object(let members) = json else {
            throw Self.invalidWebSockets("/", "expected an object such as {\"request\": {\"urlPath\": \"/chat\"}}")
        }
        for (key, _) in members where !fields.contains(key) {
            let expected = fields.map { "'\($0)'" }.joined(separator: ", ")
            throw Self.invalidWebSockets("/\(key)", "unknown field '\(key)' (expected \(expected))")
        }
        let pattern =
            try json["request"].map { value throws(AdminError) in try decodePattern(value) } ?? RequestPattern()
        return (OpenWebSockets(webSockets.connections(matching: CompiledRequestPattern(pattern))), json)
    }

    private static func invalidWebSockets(_ pointer: String, _ detail: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid WebSocket call",
            detail: detail, pointer: pointer)
    }
}
