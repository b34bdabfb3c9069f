import StubHTTP

/// `/__admin/stubserver/websockets`: the WebSocket connections open now, sending to those a request pattern
/// matches, closing them, and the messages clients sent (as ``StubServer/webSockets(matching:)`` and
/// ``StubServer/waitForMessage(matching:from:timeout:)`` do in-process).
extension AdminAPI {
    /// `GET /__admin/stubserver/websockets`: the open connections, oldest first; `messages`, those clients sent;
    /// and `conversation`, every message either way (the last 1,000 kept), each with its `direction`
    /// (`received` from the client, `sent` to it) and its connection's number:
    /// `{"webSockets": [{"url": "/chat"}], "messages": [{"url": "/chat", "text": "ping", …}], "conversation": […]}`.
    func listWebSockets() -> HTTPResponse {
        let open = webSockets.connections(matching: CompiledRequestPattern(RequestPattern()))
        let messages = webSockets.messages()
        func json(_ record: WebSocketMessageRecord, direction: Bool) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("url", .string(record.request.target)), ("text", .string(record.text)),
                ("truncated", .bool(record.isTruncated))
            ]
            if record.isBinary { members.append(("binary", .bool(true))) }
            if direction {
                members.insert(("direction", .string(record.direction.rawValue)), at: 0)
                members.append(("connection", JSONValue(Int(clamping: record.connection))))
            }
            return .object(members)
        }
        return AdminResponse.json([
            "webSockets": .array(open.map { .object([("url", .string($0.request.target))]) }),
            "messages": .array(messages.filter { $0.direction == .received }.map { json($0, direction: false) }),
            "conversation": .array(messages.map { json($0, direction: true) })
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
        return (OpenWebSockets(webSockets.connections(matching: pattern), webSockets), json)
    }
}
