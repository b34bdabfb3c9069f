extension ResponseDefinition {
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
