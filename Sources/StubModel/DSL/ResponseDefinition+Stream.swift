/// Streamed responses: server-sent events and lines, each after its delay (see the StreamingResponses article).
///
/// ```swift
/// server.stub(.get("/scores"), .events([
///     ServerSentEvent(data: "1-0", id: "1"),
///     ServerSentEvent(data: "2-0", id: "2", after: .milliseconds(200)),
/// ], end: .open))
/// server.stub(.post("/chat"), .lines([.json(["token": "Hel"]), .json(["token": "lo"], after: .milliseconds(30))]))
/// ```
extension ResponseDefinition {
    /// `events` sent as `text/event-stream`, each after its delay, then `end`. A client that reconnects
    /// with `Last-Event-ID` gets the events after the one with that id.
    public static func events(_ events: [ServerSentEvent], end: ResponseStream.End = .finish) -> ResponseDefinition {
        ResponseDefinition().streaming(ResponseStream(.events(events), end: end))
    }

    /// `lines`, each followed by `\n` and sent after its delay (`application/x-ndjson` unless the stub sets a
    /// `Content-Type`), then `end`.
    public static func lines(_ lines: [StreamedLine], end: ResponseStream.End = .finish) -> ResponseDefinition {
        ResponseDefinition().streaming(ResponseStream(.lines(lines), end: end))
    }

    /// A WebSocket following `script`: the request is upgraded (`101 Switching Protocols`, with this response's
    /// headers) and the connection sends and answers messages as the script says.
    ///
    /// ```swift
    /// server.stub(.get("/chat"), .webSocket(WebSocketScript(
    ///     onConnect: [.text("welcome")],
    ///     onMessage: [WebSocketReply(.equalTo("ping"), send: [.text("pong")])])))
    /// ```
    public static func webSocket(_ script: WebSocketScript) -> ResponseDefinition {
        var response = ResponseDefinition(status: 101)
        response.webSocket = script
        return response
    }

    /// This response (its status and headers) with `stream` as its body.
    public func streaming(_ stream: ResponseStream) -> ResponseDefinition {
        changing { $0.stream = stream }
    }

    /// The header fields, with those a streamed response adds when the stub sets none: its `Content-Type`
    /// (`text/event-stream` or `application/x-ndjson`) and, for events, `Cache-Control: no-cache`.
    package var headersWithStreamDefaults: StubHTTPHeaders {
        guard let stream else { return headers }
        var fields = headers
        if !fields.contains(name: "Content-Type") { fields.add(name: "Content-Type", value: stream.defaultContentType) }
        if case .events = stream.content, !fields.contains(name: "Cache-Control") {
            fields.add(name: "Cache-Control", value: "no-cache")
        }
        return fields
    }
}
