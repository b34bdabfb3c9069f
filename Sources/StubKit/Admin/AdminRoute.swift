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
    case findMappingsByMetadata
    case removeMappingsByMetadata
    case saveMappings
    case unusedMappings
    case resetRequests
    case deleteRequest(String)
    case removeRequests
    case nearMissesForRequest
    case listFiles
    case getFile(String)
    case putFile(String)
    case deleteFile(String)
    case shutdown
    case getSettings
    case updateSettings
    case version
    case listScenarios
    case resetScenarios
    case setScenarioState(String)
    case startRecording
    case stopRecording
    case recordingStatus
    case snapshotRecording

    /// The route for `method` and the path below `/__admin` (segments, percent-decoded). `HEAD` takes
    /// the `GET` route: the engine sends its headers and no body.
    /// - Throws: ``AdminError`` 404 for an unknown path, 405 (with the allowed methods) for a known
    ///   path and another method.
    static func resolve(method: String, segments: [String]) throws(AdminError) -> AdminRoute {
        let shown = "/__admin" + segments.map { "/" + $0 }.joined()
        guard let endpoints = endpoints(segments) else {
            throw .notFound("no admin endpoint at \(shown)")
        }
        let wanted = method == "HEAD" ? "GET" : method
        guard let route = endpoints.first(where: { $0.method == wanted })?.route else {
            let allowed = endpoints.flatMap { $0.method == "GET" ? ["GET", "HEAD"] : [$0.method] }
            throw .methodNotAllowed(method: method, path: shown, allowed: allowed)
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
        case (2, "mappings") where segments[1] == "find-by-metadata":
            return [("POST", .findMappingsByMetadata)]
        case (2, "mappings") where segments[1] == "remove-by-metadata":
            return [("POST", .removeMappingsByMetadata)]
        case (2, "mappings") where segments[1] == "save":
            return [("POST", .saveMappings)]
        case (2, "mappings") where segments[1] == "unmatched":
            return [("GET", .unusedMappings)]
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
        case (2, "requests") where segments[1] == "reset":
            return [("POST", .resetRequests)]
        case (2, "requests") where segments[1] == "remove":
            return [("POST", .removeRequests)]
        case (2, "requests"):
            return [("GET", .getRequest(segments[1])), ("DELETE", .deleteRequest(segments[1]))]
        case (3, "requests") where segments[1] == "unmatched" && segments[2] == "near-misses":
            return [("GET", .unmatchedNearMisses)]
        case (2, "near-misses") where segments[1] == "request-pattern":
            return [("POST", .nearMissesForPattern)]
        case (2, "near-misses") where segments[1] == "request":
            return [("POST", .nearMissesForRequest)]
        case (1, "files"):
            return [("GET", .listFiles)]
        case (2..., "files"):
            // A name may have folders: /__admin/files/users/octocat.json
            let name = segments.dropFirst().joined(separator: "/")
            return [("GET", .getFile(name)), ("PUT", .putFile(name)), ("DELETE", .deleteFile(name))]
        case (1, "shutdown"):
            return [("POST", .shutdown)]
        case (1, "settings"):
            return [("GET", .getSettings), ("POST", .updateSettings), ("PUT", .updateSettings)]
        case (1, "version"):
            return [("GET", .version)]
        case (1, "reset"):
            return [("POST", .reset)]
        case (1, "health"):
            return [("GET", .health)]
        case (1, "scenarios"):
            return [("GET", .listScenarios)]
        case (2, "scenarios") where segments[1] == "reset":
            return [("POST", .resetScenarios)]
        case (2, "recordings") where segments[1] == "start":
            return [("POST", .startRecording)]
        case (2, "recordings") where segments[1] == "stop":
            return [("POST", .stopRecording)]
        case (2, "recordings") where segments[1] == "status":
            return [("GET", .recordingStatus)]
        case (2, "recordings") where segments[1] == "snapshot":
            return [("POST", .snapshotRecording)]
        case (3, "scenarios") where segments[2] == "state":
            return [("PUT", .setScenarioState(segments[1]))]
        default:
            return nil
        }
    }
}
