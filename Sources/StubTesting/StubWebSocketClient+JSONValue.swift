extension StubWebSocketClient {
    /// Sends `value` as compact JSON text, as a stub's `{"json": …}` message is sent.
    ///
    /// ```swift
    /// try await socket.send(json: ["subscribe": "scores", "since": 3])
    /// ```
    /// - Throws: ``StubWebSocketClient/Failure``, as ``StubWebSocketClient/send(text:)``.
    public func send(json value: JSONValue) async throws(Failure) {
        try await send(text: value.serialized())
    }
}

extension StubWebSocketClient.Message {
    /// The message (its text, or a binary message's bytes) parsed as JSON, within ``JSONParser``'s bounds.
    ///
    /// ```swift
    /// #expect(try await socket.receive().json()["subscribed"] == true)
    /// ```
    /// - Throws: ``JSONParseError`` naming the line and column.
    public func json() throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
