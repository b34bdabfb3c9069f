import StubHTTP

/// Why a data collection refused a request: answered as `application/problem+json` (RFC 9457) with the status,
/// a title and a detail naming the collection, the item or the field.
struct DataFailure: Error, Sendable, Hashable {
    let status: Int
    let title: String
    var detail: String
    /// The schema violations of a `422`, each `path: message`.
    var violations: [String] = []
    /// The methods the path takes, for a `405`'s `Allow`.
    var allow: String?

    /// The detail with the violations, for a message of its own (a log line, an admin error, a Swift error).
    var message: String {
        violations.isEmpty ? detail : detail + ": " + violations.joined(separator: "; ")
    }

    static func noItem(_ collection: String, _ key: String) -> DataFailure {
        DataFailure(status: 404, title: "No such item", detail: "\(collection) has no item with id \(key)")
    }

    static func duplicate(_ collection: String, _ key: String) -> DataFailure {
        DataFailure(status: 409, title: "Duplicate id", detail: "\(collection) already has an item with id \(key)")
    }

    static func full(_ collection: DataCollection, reason: String) -> DataFailure {
        DataFailure(
            status: 507, title: "The collection is full",
            detail: "\(collection.name) holds at most \(reason) (maxItems, maxBytes): nothing was changed")
    }

    static func badID(_ field: String) -> DataFailure {
        DataFailure(status: 400, title: "Invalid id", detail: "\(field) must be a string or an integer")
    }

    static func idChanged(_ field: String, _ key: String) -> DataFailure {
        DataFailure(
            status: 400, title: "The id cannot change", detail: "\(field) must stay \(key), the id in the path")
    }

    static func notJSON(_ reason: String) -> DataFailure {
        DataFailure(status: 400, title: "The body is not JSON", detail: reason)
    }

    static func notObject(_ collection: String) -> DataFailure {
        DataFailure(status: 422, title: "The body is not a JSON object", detail: "\(collection) holds JSON objects")
    }

    static func schema(_ collection: String, _ violations: [String]) -> DataFailure {
        DataFailure(
            status: 422, title: "The item does not fit the schema",
            detail:
                "\(violations.count) \(violations.count == 1 ? "violation" : "violations") of \(collection)'s schema",
            violations: violations)
    }

    static func badQuery(_ name: String, _ value: String, _ expected: String) -> DataFailure {
        DataFailure(status: 400, title: "Invalid query parameter", detail: "\(name)=\(value): \(expected)")
    }

    static func method(_ method: String, allow: String) -> DataFailure {
        DataFailure(
            status: 405, title: "Method not allowed", detail: "\(method) is not one of \(allow)", allow: allow)
    }

    /// The response: `application/problem+json`.
    var response: HTTPResponse {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("about:blank")), ("title", .string(title)), ("status", .number(String(status))),
            ("detail", .string(detail))
        ]
        if !violations.isEmpty { members.append(("violations", .array(violations.map(JSONValue.string)))) }
        var headers: HTTPHeaders = ["Content-Type": "application/problem+json"]
        if let allow { headers.add(name: "Allow", value: allow) }
        return HTTPResponse(
            status: HTTPStatus(code: status), headers: headers, body: JSONValue.object(members).serializedBytes())
    }
}
