import StubHTTP

/// Admin API responses: pretty-printed JSON, as WireMock sends them.
enum AdminResponse {
    static func json(_ value: JSONValue, status: StubHTTPStatus = .ok) -> HTTPResponse {
        var bytes = value.serializedBytes(.pretty)
        bytes.append(UInt8(ascii: "\n"))
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// The head of a streamed JSON answer (the engine adds the length).
    static let jsonHead = HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"])

    /// A document built as it is sent, here sent whole.
    static func json(_ document: StreamedJSONObject) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: document.bytes())
    }

    /// `{}` with 200: what WireMock answers to deletes and resets.
    static var empty: HTTPResponse { json(.object([])) }
}
