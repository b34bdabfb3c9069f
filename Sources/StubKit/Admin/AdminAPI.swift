#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubHTTP

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
    /// The stubs directory (`mappings/`, `__files/`): where `save` writes and `/__admin/files` reads.
    let stubsDirectory: URL?
    /// Shutdown requests and what `save` has written.
    let state: AdminState
    /// Where warnings about posted mappings go.
    let log: LogSink
    /// `/__admin/recordings`: recording and snapshots.
    let recordings: Recordings

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
            return try respond(to: AdminRoute.resolve(request), request)
        } catch {
            return error.response
        }
    }

    /// Answers `request`, already resolved to `route`.
    func respond(to route: AdminRoute, _ request: HTTPRequest) throws(AdminError) -> HTTPResponse {
        switch route {
        case .listMappings: return try AdminResponse.json(listMappings(page: Self.page(request)))
        case .createMapping: return try createMapping(request.body)
        case .deleteAllMappings: return deleteAllMappings()
        case .resetMappings: return resetMappings()
        case .importMappings: return try importMappings(request.body)
        case .getMapping(let id): return try getMapping(id)
        case .updateMapping(let id): return try updateMapping(id, request.body)
        case .deleteMapping(let id): return try deleteMapping(id)
        case .listRequests: return try AdminResponse.json(listRequests(request))
        case .deleteRequests: return deleteRequests()
        case .getRequest(let id): return try getRequest(id)
        case .countRequests: return try countRequests(request.body)
        case .findRequests: return try AdminResponse.json(findRequests(request.body))
        case .unmatchedRequests: return AdminResponse.json(unmatchedRequests())
        case .unmatchedNearMisses: return unmatchedNearMisses()
        case .nearMissesForPattern: return try nearMisses(request.body)
        case .reset: return reset()
        case .health: return health()
        case .findMappingsByMetadata: return try findMappingsByMetadata(request.body)
        case .removeMappingsByMetadata: return try removeMappingsByMetadata(request.body)
        case .saveMappings: return try saveMappings()
        case .unusedMappings: return unusedMappings()
        case .resetRequests: return deleteRequests()
        case .deleteRequest(let id): return try deleteRequest(id)
        case .removeRequests: return try removeRequests(request.body)
        case .nearMissesForRequest: return try nearMissesForRequest(request.body)
        case .listFiles: return try listFiles()
        case .getFile(let name): return try getFile(name)
        case .putFile(let name): return try putFile(name, request.body)
        case .deleteFile(let name): return try deleteFile(name)
        case .shutdown: return shutdown()
        case .getSettings: return getSettings()
        case .updateSettings: return try updateSettings(request.body)
        case .version: return version()
        case .listScenarios: return listScenarios()
        case .resetScenarios: return resetScenarios()
        case .setScenarioState(let name): return try setScenarioState(name, request.body)
        case .startRecording: return try startRecording(request.body)
        case .stopRecording: return try stopRecording()
        case .recordingStatus: return recordingStatus()
        case .snapshotRecording: return try snapshotRecording(request.body)
        }
    }

    /// `POST /__admin/reset`: stubs back to those loaded from files, scenarios to `Started`, use counts
    /// to 0, journal cleared.
    private func reset() -> HTTPResponse {
        store.reset()
        journal.removeAll()
        store.forgetUsage()
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
