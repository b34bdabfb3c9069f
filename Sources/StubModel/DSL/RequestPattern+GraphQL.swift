extension RequestPattern {
    /// A GraphQL request to `path` (default `/graphql`), by GET or POST: an operation, and optionally variables
    /// and a query document (see ``withGraphQL(query:operationName:variables:ignoreExtraElements:persistedQueryHash:)``).
    ///
    /// ```swift
    /// server.stub(
    ///     .graphQL(operation: "UserProfile", variables: ["login": "octocat"]),
    ///     .graphQLData(["user": ["login": "octocat", "name": "The Octocat"]]))
    /// ```
    /// - Parameters:
    ///   - path: the endpoint's path. Default `/graphql`.
    ///   - operation: the `operationName`, exactly; `nil` accepts any.
    ///   - variables: the `variables`, with `equalToJson` semantics; `nil` accepts any.
    ///   - query: the document, compared after normalisation; `nil` accepts any.
    ///   - ignoreExtraElements: variables the request has beyond `variables` are accepted.
    public static func graphQL(
        _ path: String = "/graphql", operation: String? = nil, variables: JSONValue? = nil, query: String? = nil,
        ignoreExtraElements: Bool = false
    ) -> RequestPattern {
        any(path).withGraphQL(
            query: query, operationName: operation, variables: variables, ignoreExtraElements: ignoreExtraElements)
    }

    /// Requires a GraphQL request (``GraphQLMatcher``): a query alike to `query` after normalisation (whitespace,
    /// comments, sibling field order and fragment names do not matter), an operation name and variables.
    ///
    /// ```swift
    /// .post("/graphql").withGraphQL(
    ///     query: "query GetUser($id: ID!) { user(id: $id) { name } }", operationName: "GetUser",
    ///     variables: ["id": "42"])
    /// // "metadata": {"stubserver": {"graphql": {"query": "query GetUser($id: ID!) { user(id: $id) { name } }",
    /// //   "operationName": "GetUser", "variables": {"equalToJson": {"id": "42"}}}}}
    /// ```
    /// - Parameters:
    ///   - query: the document; `nil` accepts any.
    ///   - operationName: the `operationName`, exactly; `nil` accepts any.
    ///   - variables: the `variables`, with `equalToJson` semantics (JsonUnit placeholders such as
    ///     `"${json-unit.any-string}"` work); `nil` accepts any.
    ///   - ignoreExtraElements: variables the request has beyond `variables` are accepted.
    ///   - persistedQueryHash: the SHA-256 of the query Apollo sends in `extensions.persistedQuery.sha256Hash`.
    public func withGraphQL(
        query: String? = nil, operationName: String? = nil, variables: JSONValue? = nil,
        ignoreExtraElements: Bool = false, persistedQueryHash: String? = nil
    ) -> RequestPattern {
        withGraphQL(
            GraphQLMatcher(
                query: query.map { .document($0) }, operationName: operationName.map { .equalTo($0) },
                variables: variables.map {
                    .equalToJson($0, ignoreArrayOrder: false, ignoreExtraElements: ignoreExtraElements)
                }, persistedQueryHash: persistedQueryHash?.lowercased()))
    }

    /// Requires a GraphQL request as `matcher` says; replaces any GraphQL matcher set before.
    public func withGraphQL(_ matcher: GraphQLMatcher) -> RequestPattern {
        changing { $0.graphQL = matcher }
    }
}
