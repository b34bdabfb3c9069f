/// What a GraphQL request must carry: its query document, operation name, variables and Apollo persisted
/// query hash. Each `nil` field accepts anything.
///
/// The request is read as a POST with a JSON body (`{"query", "operationName", "variables", "extensions"}`),
/// a POST with `Content-Type: application/graphql` (the body is the query), or a GET with `query`,
/// `operationName`, `variables` and `extensions` query parameters.
///
/// With Apollo's automatic persisted queries a request may carry only
/// `extensions.persistedQuery.sha256Hash`: it matches a stub whose ``persistedQueryHash`` is that hash, or
/// whose ``query`` is a document whose SHA-256 is that hash (Apollo hashes the query text exactly as the
/// client sends it, so the stub's text must be that text byte for byte).
public struct GraphQLMatcher: Sendable, Hashable {
    /// How the query document is compared.
    public enum Query: Sendable, Hashable {
        /// Alike after normalisation: whitespace, commas and comments ignored, fragments inlined, sibling
        /// fields, arguments and variable definitions in any order (the WireMock GraphQL extension's rule).
        case document(String)
        /// A string matcher applied to the request's normalised query text (`nil` when the request has no
        /// query: `.absent` matches a request carrying only a persisted query hash).
        case normalized(StringMatcher)
    }

    /// The query document; `nil` accepts any (or none).
    public var query: Query?
    /// The `operationName`; `nil` accepts any.
    public var operationName: StringMatcher?
    /// The `variables` object, usually `.equalToJson(…)` (with `ignoreExtraElements`, `ignoreArrayOrder` and
    /// JsonUnit placeholders), or `.absent`; `nil` accepts any.
    public var variables: StringMatcher?
    /// The SHA-256 (64 hex digits) of the query, as Apollo sends it in `extensions.persistedQuery.sha256Hash`;
    /// the request must carry this hash, or a query text with this hash.
    public var persistedQueryHash: String?

    /// `GraphQL operation "GetUser"`, `GraphQL query "{ hero { name } }"` or `GraphQL persisted query
    /// ecf4edb4…`, for one-line summaries.
    var summary: String {
        switch (operationName, query, persistedQueryHash) {
        case (.equalTo(let name, caseInsensitive: false)?, _, _): "GraphQL operation " + Quoting.quote(name)
        case (_, .document(let text)?, _): "GraphQL query " + Quoting.quote(text, limit: 60)
        case (_, _, let hash?): "GraphQL persisted query " + hash.prefix(8) + "…"
        case (let name?, _, _): "GraphQL operationName \(name)"
        case (_, .normalized(let matcher)?, _): "GraphQL query \(matcher)"
        case (nil, nil, nil): "GraphQL"
        }
    }

    public init(
        query: Query? = nil, operationName: StringMatcher? = nil, variables: StringMatcher? = nil,
        persistedQueryHash: String? = nil
    ) {
        self.query = query
        self.operationName = operationName
        self.variables = variables
        self.persistedQueryHash = persistedQueryHash
    }
}
