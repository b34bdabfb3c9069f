/// The WireMock-compatible admin API under `/__admin`: stubs (`/__admin/mappings`), the request
/// journal (`/__admin/requests`), resets and health, answered with JSON.
///
/// The request handler asks ``isAdminTarget(_:)`` first; admin calls are answered here and are not
/// journaled, as in WireMock. Changes go through the store's and the journal's own locks.
struct AdminAPI: Sendable {
    let store: StubStore
    let journal: RequestJournal
    /// Where `bodyFileName` in posted mappings is read from; `nil` without a stubs directory.
    let bodyFiles: BodyFiles?

    static let prefix = "/__admin"

    /// Whether `target` is `/__admin` or below it. One prefix comparison that fails at the second
    /// byte for ordinary paths, so stub traffic pays next to nothing.
    @inline(__always)
    static func isAdminTarget(_ target: String) -> Bool {
        var bytes = target.utf8.makeIterator()
        for expected in prefix.utf8 {
            guard bytes.next() == expected else { return false }
        }
        switch bytes.next() {
        case nil, UInt8(ascii: "/")?, UInt8(ascii: "?")?: return true
        default: return false
        }
    }

    /// Answers one admin call.
    func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try respond(to: request)
        } catch {
            return error.response
        }
    }

    private func respond(to request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        let segments = request.path.dropFirst(Self.prefix.count).split(separator: "/").map(String.init)
        switch try AdminRoute.resolve(method: request.method.rawValue, segments: segments) {
        case .listMappings: return listMappings()
        case .createMapping: return try createMapping(request.body)
        case .deleteAllMappings: return deleteAllMappings()
        case .resetMappings: return resetMappings()
        case .importMappings: return try importMappings(request.body)
        case .getMapping(let id): return try getMapping(id)
        case .updateMapping(let id): return try updateMapping(id, request.body)
        case .deleteMapping(let id): return try deleteMapping(id)
        case .listRequests: return listRequests(limit: request.queryValues("limit").first.flatMap { Int($0) })
        case .deleteRequests: return deleteRequests()
        case .getRequest(let id): return try getRequest(id)
        case .countRequests: return try countRequests(request.body)
        case .findRequests: return try findRequests(request.body)
        case .unmatchedRequests: return unmatchedRequests()
        case .unmatchedNearMisses: return unmatchedNearMisses()
        case .nearMissesForPattern: return try nearMisses(request.body)
        case .reset: return reset()
        case .health: return health()
        }
    }

    /// `POST /__admin/reset`: stubs back to those loaded from files, journal cleared.
    private func reset() -> HTTPResponse {
        store.reset()
        journal.removeAll()
        return AdminResponse.empty
    }

    /// `GET /__admin/health` (as WireMock 3).
    private func health() -> HTTPResponse {
        AdminResponse.json(["status": "healthy", "message": "stubserver is ok"])
    }

    /// Parses a request body as JSON.
    static func parseBody(_ body: [UInt8]) throws(AdminError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .invalidJSON(error)
        }
    }
}
