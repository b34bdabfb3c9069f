import StubMatching
import StubModel

/// Decoding of GraphQL matchers: stubserver's `metadata.stubserver.graphql` (which WireMock ignores) and the
/// WireMock GraphQL extension's `customMatcher` named `graphql-body-matcher`.
extension MappingDecoder.Run {
    static let graphQLFields = ["query", "operationName", "variables", "persistedQueryHash"]
    /// The extension's parameters: `query`, `variables` and `operationName` from version 0.9, `expectedJson`
    /// (a JSON text with `query` and `variables`) before.
    static let graphQLExtensionParameters = ["query", "variables", "operationName", "expectedJson"]
    static let graphQLExtensionName = "graphql-body-matcher"

    /// Whether a request field `customMatcher` is the GraphQL extension's (any other is unsupported).
    static func isGraphQLCustomMatcher(_ json: JSONValue) -> Bool {
        json["name"] == .string(graphQLExtensionName)
    }

    /// An object whose keys must all be `supported`: an unknown key is an error, never ignored (a GraphQL
    /// field not understood would make the stub match more than written).
    private func strictObject(_ json: JSONValue, at path: MappingPath, supported: [String]) throws(StubsLoadError)
        -> [(key: String, value: JSONValue)]
    {
        let members = try object(json, at: path)
        for (key, _) in members where !supported.contains(key) {
            throw failure(path.key(key), "unknown field; expected one of \(supported.joined(separator: ", "))")
        }
        return members
    }

    /// `metadata.stubserver.graphql`: `query` (a document, or a matcher object for the normalised text),
    /// `operationName` (a string, or a matcher object), `variables` (a matcher object, e.g. `equalToJson`) and
    /// `persistedQueryHash` (64 hex digits).
    mutating func decodeGraphQL(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> GraphQLMatcher {
        _ = try strictObject(json, at: path, supported: Self.graphQLFields)
        var matcher = GraphQLMatcher()
        if let query = json["query"] {
            let queryPath = path.key("query")
            if case .string(let text) = query {
                try validateGraphQL(text, at: queryPath)
                matcher.query = .document(text)
            } else if let normalized = try graphQLMatcher(query, at: queryPath) {
                matcher.query = .normalized(normalized)
            }
        }
        if let name = json["operationName"] {
            if case .string(let text) = name {
                matcher.operationName = .equalTo(text)
            } else {
                matcher.operationName = try graphQLMatcher(name, at: path.key("operationName"))
            }
        }
        if let variables = json["variables"] {
            matcher.variables = try graphQLMatcher(variables, at: path.key("variables"))
        }
        if let hash = json["persistedQueryHash"] {
            let hashPath = path.key("persistedQueryHash")
            let text = try string(hash, at: hashPath)
            guard text.utf8.count == 64, text.utf8.allSatisfy({ $0.isHexDigit }) else {
                throw failure(hashPath, "expected a SHA-256 hash of 64 hex digits, found \(hash.foundDescription)")
            }
            matcher.persistedQueryHash = text.lowercased()
        }
        return matcher
    }

    /// The extension's `customMatcher`: `{"name": "graphql-body-matcher", "parameters": {…}}`. As in the
    /// extension, a missing `variables` or `operationName` requires the request to have none.
    mutating func decodeGraphQLCustomMatcher(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> GraphQLMatcher
    {
        _ = try strictObject(json, at: path, supported: ["name", "parameters"])
        guard let parameters = json["parameters"] else { throw failure(path, "missing 'parameters'") }
        let parametersPath = path.key("parameters")
        _ = try strictObject(parameters, at: parametersPath, supported: Self.graphQLExtensionParameters)
        var fields = parameters
        var fieldsPath = parametersPath
        if let expected = parameters["expectedJson"] {
            fieldsPath = parametersPath.key("expectedJson")
            guard parameters["query"] == nil else {
                throw failure(parametersPath, "both 'expectedJson' and 'query' are set; give one of them")
            }
            let text = try string(expected, at: fieldsPath)
            do {
                fields = try JSONParser.parse(text)
            } catch {
                throw failure(fieldsPath, "expected a JSON text with a 'query', but it does not parse: \(error)")
            }
            _ = try strictObject(fields, at: fieldsPath, supported: ["query", "variables", "operationName"])
        }
        guard let query = fields["query"] else { throw failure(fieldsPath, "missing 'query'") }
        let text = try string(query, at: fieldsPath.key("query"))
        try validateGraphQL(text, at: fieldsPath.key("query"))
        var matcher = GraphQLMatcher(query: .document(text), operationName: .absent, variables: .absent)
        if let name = fields["operationName"], name != .null {
            matcher.operationName = .equalTo(try string(name, at: fieldsPath.key("operationName")))
        }
        if let variables = fields["variables"], variables != .null {
            guard case .object = variables else {
                throw failure(
                    fieldsPath.key("variables"), "expected an object of variables, found \(variables.foundDescription)")
            }
            matcher.variables = .equalToJson(variables)
        }
        return matcher
    }

    private mutating func graphQLMatcher(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> StringMatcher?
    {
        guard case .object = json else {
            throw failure(path, "expected a matcher object such as {\"equalTo\": …}, found \(json.foundDescription)")
        }
        return try decodeMatcher(json, at: path)
    }

    private func validateGraphQL(_ text: String, at path: MappingPath) throws(StubsLoadError) {
        if case .failure(let error) = compiled.normalizedQuery(text) {
            throw failure(path, "expected a GraphQL document: \(error.description)")
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
            || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f"))
            || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
