/// Admin API responses: pretty-printed JSON, as WireMock sends them.
enum AdminResponse {
    static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> HTTPResponse {
        var bytes = value.serializedBytes(.pretty)
        bytes.append(UInt8(ascii: "\n"))
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// `{}` with 200: what WireMock answers to deletes and resets.
    static var empty: HTTPResponse { json(.object([])) }
}
