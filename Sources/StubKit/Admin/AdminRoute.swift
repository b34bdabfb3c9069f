/// One endpoint of the admin API, resolved from a request's method and path.
enum AdminRoute: Sendable, Hashable {
    case listMappings
    case createMapping
    case deleteAllMappings
    case resetMappings
    case importMappings
    case getMapping(String)
    case updateMapping(String)
    case deleteMapping(String)
    case listRequests
    case deleteRequests
    case getRequest(String)
    case countRequests
    case findRequests
    case unmatchedRequests
    case unmatchedNearMisses
    case nearMissesForPattern
    case reset
    case health

    /// The route for `method` and the path below `/__admin` (segments, percent-decoded).
    /// - Throws: ``AdminError`` 404 for an unknown path, 405 (with the allowed methods) for a known
    ///   path and another method.
    static func resolve(method: String, segments: [String]) throws(AdminError) -> AdminRoute {
        let shown = "/__admin" + segments.map { "/" + $0 }.joined()
        guard let endpoints = endpoints(segments) else {
            throw .notFound("no admin endpoint at \(shown)")
        }
        guard let route = endpoints.first(where: { $0.method == method })?.route else {
            throw .methodNotAllowed(method: method, path: shown, allowed: endpoints.map(\.method))
        }
        return route
    }

    /// The methods a path accepts and their routes; `nil` for an unknown path.
    /// Fixed names win over ids: `/__admin/mappings/reset` is never the mapping with id `reset`.
    private static func endpoints(_ segments: [String]) -> [(method: String, route: AdminRoute)]? {
        switch (segments.count, segments.first ?? "") {
        case (1, "mappings"):
            return [("GET", .listMappings), ("POST", .createMapping), ("DELETE", .deleteAllMappings)]
        case (2, "mappings") where segments[1] == "reset":
            return [("POST", .resetMappings)]
        case (2, "mappings") where segments[1] == "import":
            return [("POST", .importMappings)]
        case (2, "mappings"):
            let id = segments[1]
            return [("GET", .getMapping(id)), ("PUT", .updateMapping(id)), ("DELETE", .deleteMapping(id))]
        case (1, "requests"):
            return [("GET", .listRequests), ("DELETE", .deleteRequests)]
        case (2, "requests") where segments[1] == "count":
            return [("POST", .countRequests)]
        case (2, "requests") where segments[1] == "find":
            return [("POST", .findRequests)]
        case (2, "requests") where segments[1] == "unmatched":
            return [("GET", .unmatchedRequests)]
        case (2, "requests"):
            return [("GET", .getRequest(segments[1]))]
        case (3, "requests") where segments[1] == "unmatched" && segments[2] == "near-misses":
            return [("GET", .unmatchedNearMisses)]
        case (2, "near-misses") where segments[1] == "request-pattern":
            return [("POST", .nearMissesForPattern)]
        case (1, "reset"):
            return [("POST", .reset)]
        case (1, "health"):
            return [("GET", .health)]
        default:
            return nil
        }
    }
}
