import StubModel

/// What a request says as a GraphQL request: read once per request, however many stubs look at it.
///
/// - a GET: the `query`, `operationName`, `variables` (JSON) and `extensions` (JSON) query parameters;
/// - a request whose `Content-Type` is `application/graphql`: the body is the query;
/// - any other: the body as a JSON object `{"query", "operationName", "variables", "extensions"}`.
///
/// A request that does not read as one (a body that is not a JSON object, a `query` that is not a string,
/// `variables` that are not JSON) is not a GraphQL request: no GraphQL matcher matches it.
final class GraphQLRequest {
    let query: String?
    let operationName: String?
    /// `nil` when absent or `null`.
    let variables: JSONValue?
    /// `extensions.persistedQuery.sha256Hash`, in lower case.
    let persistedQueryHash: String?
    /// The query's normal form, or why it has none; computed on first use.
    private var normal: Result<String, GraphQLNormalizationError>?
    /// The SHA-256 of the query text, computed on first use.
    private var hash: String?

    private init(query: String?, operationName: String?, variables: JSONValue?, extensions: JSONValue?) {
        self.query = query
        self.operationName = operationName
        self.variables = variables == .null ? nil : variables
        if case .string(let hash)? = extensions?["persistedQuery"]?["sha256Hash"] {
            persistedQueryHash = hash.lowercased()
        } else {
            persistedQueryHash = nil
        }
    }

    /// The request's GraphQL fields, or `nil` when it is not a GraphQL request.
    static func read(_ context: RequestContext) -> GraphQLRequest? {
        if context.request.method.rawValue == "GET" {
            func parameter(_ name: String) -> String? { context.query[name]?.first }
            var variables: JSONValue?
            var extensions: JSONValue?
            do throws(JSONParseError) {
                variables = try parameter("variables").map { text throws(JSONParseError) in try JSONParser.parse(text) }
                extensions = try parameter("extensions").map { text throws(JSONParseError) in try JSONParser.parse(text)
                }
            } catch {
                return nil
            }
            return GraphQLRequest(
                query: parameter("query"), operationName: parameter("operationName"), variables: variables,
                extensions: extensions)
        }
        let contentType = context.request.headers["Content-Type"].first?.lowercased() ?? ""
        if contentType.hasPrefix("application/graphql") && !contentType.hasPrefix("application/graphql-response") {
            guard let text = context.body.text else { return nil }
            return GraphQLRequest(query: text, operationName: nil, variables: nil, extensions: nil)
        }
        guard case .object? = context.body.json, let json = context.body.json else { return nil }
        var query: String?
        switch json["query"] {
        case .string(let text)?: query = text
        case nil, .null?: query = nil
        case .bool?, .number?, .array?, .object?: return nil
        }
        var operationName: String?
        switch json["operationName"] {
        case .string(let text)?: operationName = text
        case nil, .null?: operationName = nil
        case .bool?, .number?, .array?, .object?: return nil
        }
        return GraphQLRequest(
            query: query, operationName: operationName, variables: json["variables"], extensions: json["extensions"])
    }

    /// The normal form of the query (see ``GraphQLNormalizer``); `nil` without a query.
    var normalizedQuery: Result<String, GraphQLNormalizationError>? {
        guard let query else { return nil }
        if let normal { return normal }
        let result: Result<String, GraphQLNormalizationError>
        do {
            result = .success(try GraphQLNormalizer.normalize(query))
        } catch {
            result = .failure(error)
        }
        normal = result
        return result
    }

    /// The SHA-256 of the query text as sent, in lower-case hex; `nil` without a query.
    var queryHash: String? {
        guard let query else { return nil }
        if let hash { return hash }
        let computed = SHA256.hex(query)
        hash = computed
        return computed
    }
}
