/// The body of the calls on open streams and WebSockets: `{"request": {pattern}, …}`.
extension AdminAPI {
    /// The pattern of `body`'s `request` (one matching every request without it) and the body, after checking
    /// the body is an object with only `fields`; an empty body is `{}`. Errors are 422s titled `title`.
    func patternBody(_ body: [UInt8], fields: [String], example: String, title: String) throws(AdminError)
        -> (CompiledRequestPattern, JSONValue)
    {
        let json = body.isEmpty ? JSONValue.object([]) : try Self.parseBody(body)
        guard case .object(let members) = json else {
            throw Self.invalidCall(title, "/", "expected an object such as \(example)")
        }
        for (key, _) in members where !fields.contains(key) {
            let expected = fields.map { "'\($0)'" }.joined(separator: ", ")
            throw Self.invalidCall(title, "/\(key)", "unknown field '\(key)' (expected \(expected))")
        }
        let pattern =
            try json["request"].map { value throws(AdminError) in try decodePattern(value) } ?? RequestPattern()
        return (CompiledRequestPattern(pattern), json)
    }

    /// A 422 titled `title`, pointing at `pointer` in the body.
    static func invalidCall(_ title: String, _ pointer: String, _ detail: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: title, detail: detail,
            pointer: pointer)
    }
}
