/// A stub's response, serialized once when the route table is built.
///
/// Every supported response is static (it does not depend on the request), so the bytes on the
/// wire are prepared ahead and the hot path only splices in the `Date` header.
struct StubResponse: Sendable {
    let prepared: PreparedResponse
    let status: Int
    let delay: Duration?

    init(_ mapping: StubMapping) {
        let response = HTTPResponse(mapping.response, stubID: mapping.id, stubName: mapping.name)
        prepared = PreparedResponse(response)
        status = response.status.code
        delay = mapping.response.fixedDelayMilliseconds.map { .milliseconds($0) }
    }
}

extension HTTPResponse {
    /// The response WireMock would send for `definition`: its status, reason and headers in order,
    /// followed by `Matched-Stub-Id` (and `Matched-Stub-Name` for named stubs), with no default
    /// `Content-Type`.
    init(_ definition: ResponseDefinition, stubID: String, stubName: String?) {
        var headers = definition.headers
        headers.add(name: "Matched-Stub-Id", value: stubID)
        if let stubName { headers.add(name: "Matched-Stub-Name", value: stubName) }
        self.init(status: HTTPStatus(code: definition.status, reasonPhrase: definition.statusMessage),
                  headers: headers, body: definition.body.bytes)
    }
}

extension ResponseDefinition.Body {
    /// The bytes sent on the wire.
    var bytes: [UInt8] {
        switch self {
        case .none: []
        case let .text(text): Array(text.utf8)
        case let .json(value): Array(value.serialized(.compact).utf8)
        case let .bytes(bytes), let .file(_, bytes): bytes
        }
    }
}
