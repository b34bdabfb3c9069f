/// How the server answers a request no stub answers: `404` with the near-miss report, or `400` with the same
/// report after the reason when the request is a GraphQL request whose query does not read (a syntax error, or past
/// the reader's bounds on size, depth and tokens) and stubs here match GraphQL requests, as a GraphQL server
/// refuses such a request.
package struct UnmatchedAnswer: Sendable, Equatable {
    package var status: Int
    package var body: String

    /// `404` with `report`.
    package init(report: String) {
        status = 404
        body = report
    }

    /// `report`, or `400` with the GraphQL reason first when ``RouteTable/graphQLRejection(for:)`` gives one.
    package init(report: String, graphQLRejection: String?) {
        status = graphQLRejection == nil ? 404 : 400
        body = graphQLRejection.map { "The request's GraphQL query does not read: \($0)\n\n" + report } ?? report
    }
}

extension RouteTable {
    /// Why `context`'s request is refused as GraphQL: its query does not read, and a stub here has a GraphQL
    /// matcher. `nil` otherwise (stubs that match no GraphQL leave such a request a plain `404`).
    package func graphQLRejection(for context: RequestContext) -> String? {
        guard mappings.contains(where: { $0.request.graphQL != nil }),
            case .failure(let error)? = context.graphQL?.normalizedQuery
        else { return nil }
        return error.description
    }
}
