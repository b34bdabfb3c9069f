#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ResponseDefinition {
    /// A GraphQL result: 200 with `{"data": data}`.
    ///
    /// ```swift
    /// server.stub(.graphQL(operation: "UserProfile"), .graphQLData(["user": ["login": "octocat"]]))
    /// // {"data":{"user":{"login":"octocat"}}}
    /// ```
    public static func graphQLData(_ data: JSONValue) -> ResponseDefinition {
        .json(.object([("data", data)]))
    }

    /// A GraphQL result from an `Encodable` model: 200 with `{"data": …}` (see ``json(_:encoder:status:)``).
    public static func graphQLData(
        _ data: some Encodable, encoder: JSONEncoder = JSONValue.sortedKeysEncoder()
    ) -> ResponseDefinition {
        do {
            return graphQLData(try JSONValue(encoding: data, encoder: encoder))
        } catch {
            return ResponseDefinition(status: 200).json(data, encoder: encoder)
        }
    }

    /// A GraphQL error result: 200 (as GraphQL servers answer errors over HTTP) with `{"errors": […]}`, and
    /// `"data"` when given (`.null` for a failed operation). A string in `errors` is the error's `message`;
    /// an object is the error as written (`message`, `path`, `locations`, `extensions`).
    ///
    /// ```swift
    /// server.stub(.graphQL(operation: "UserProfile"), .graphQLErrors(["User not found"], data: .null))
    /// // {"errors":[{"message":"User not found"}],"data":null}
    /// ```
    public static func graphQLErrors(_ errors: [JSONValue], data: JSONValue? = nil) -> ResponseDefinition {
        let errors = errors.map { error -> JSONValue in
            if case .string(let message) = error { return .object([("message", .string(message))]) }
            return error
        }
        var members: [(key: String, value: JSONValue)] = [("errors", .array(errors))]
        if let data { members.append(("data", data)) }
        return .json(.object(members))
    }

    /// Apollo's answer to a persisted query hash it does not know: 200 with
    /// `{"errors":[{"message":"PersistedQueryNotFound","extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}`,
    /// upon which an Apollo client sends the request again with its full query.
    ///
    /// Give it to a stub of low priority that matches requests without a query, so that requests carrying only
    /// a hash no other stub knows get it:
    ///
    /// ```swift
    /// server.stub(
    ///     .post("/graphql").withGraphQL(GraphQLMatcher(query: .normalized(.absent))),
    ///     .graphQLPersistedQueryNotFound, priority: 10)
    /// ```
    public static var graphQLPersistedQueryNotFound: ResponseDefinition {
        .json([
            "errors": [["message": "PersistedQueryNotFound", "extensions": ["code": "PERSISTED_QUERY_NOT_FOUND"]]]
        ])
    }
}
