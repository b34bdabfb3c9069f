import StubHTTP

/// A failed admin call, answered as WireMock answers one: a status and
/// `{"errors": [{"code": …, "source": {"pointer": "/response/status"}, "title": …, "detail": …}]}`.
struct AdminError: Error, Sendable, Hashable {
    /// WireMock's code for a body that is not valid JSON or not a valid mapping or pattern.
    static let invalidInputCode = 10

    var status: StubHTTPStatus
    var code: Int
    var title: String
    var detail: String
    /// The JSON pointer of the field at fault (`/response/status`); `/` for the whole body.
    var pointer: String?
    /// For 405: the methods the path accepts, sent in `Allow`.
    var allowed: [String] = []
    /// For 401: the `WWW-Authenticate` challenge.
    var challenge: String?

    /// A body that does not parse as JSON: 422, as WireMock.
    static func invalidJSON(_ error: JSONParseError) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: invalidInputCode, title: "Error parsing JSON",
            detail: error.description, pointer: nil)
    }

    /// Well-formed JSON that is not a valid mapping (or request pattern): 422 naming the field.
    static func invalid(_ error: StubsLoadError, title: String) -> AdminError {
        if let parseError = error.parseError { return invalidJSON(parseError) }
        return AdminError(
            status: .unprocessableEntity, code: invalidInputCode, title: title,
            detail: error.description, pointer: error.jsonPath.map(JSONPointer.from(mappingPath:)))
    }

    static func notFound(_ detail: String) -> AdminError {
        AdminError(status: .notFound, code: 404, title: "Not found", detail: detail, pointer: nil)
    }

    static func methodNotAllowed(method: String, path: String, allowed: [String]) -> AdminError {
        AdminError(
            status: StubHTTPStatus(code: 405), code: 405, title: "Method not allowed",
            detail: "\(path) accepts \(allowed.joined(separator: ", ")), not \(method)", pointer: nil,
            allowed: allowed)
    }

    /// The error body: WireMock's `errors` array with this one error.
    var json: JSONValue {
        var source: [(key: String, value: JSONValue)] = []
        if let pointer { source.append(("pointer", .string(pointer))) }
        let error: JSONValue = .object([
            ("code", JSONValue(code)), ("source", .object(source)), ("title", .string(title)),
            ("detail", .string(detail))
        ])
        return ["errors": [error]]
    }

    var response: HTTPResponse {
        var response = AdminResponse.json(json, status: status)
        if !allowed.isEmpty { response.headers.add(name: "Allow", value: allowed.joined(separator: ", ")) }
        if let challenge { response.headers.add(name: "WWW-Authenticate", value: challenge) }
        return response
    }
}

extension StubHTTPStatus {
    static let unprocessableEntity = StubHTTPStatus(code: 422)
}
