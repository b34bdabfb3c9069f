import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The WireMock-compatible admin API under `/__admin`: stubs (`/__admin/mappings`), the request
/// journal (`/__admin/requests`), resets and health, answered with JSON.
///
/// The request handler asks ``StubRequestHandler/isAdminTarget(_:)`` first; admin calls are answered here and are not
/// journaled, as in WireMock. Changes go through the store's and the journal's own locks.
struct AdminAPI: Sendable {
    let store: StubStore
    let journal: RequestJournal
    /// Where `bodyFileName` in posted mappings is read from; `nil` without a stubs directory.
    let bodyFiles: BodyFiles?
    /// The stubs directory (`mappings/`, `__files/`): where `save` writes and `/__admin/files` reads.
    let stubsDirectory: URL?
    /// What the resets read again: the stubs directory's files and the OpenAPI documents' stubs.
    let stubFiles: StubFiles
    /// Shutdown requests and what `save` has written.
    let state: AdminState
    /// Where warnings about posted mappings go.
    let log: LogSink
    /// `/__admin/recordings`: recording and snapshots.
    let recordings: Recordings
    /// `/__admin/servers`: the isolated servers; `nil` on an isolated server, which starts none.
    let isolatedServers: (any IsolatedServerRegistry)?
    /// The server's ports, for `GET /__admin/hosts`.
    let hosts: ListeningHosts
    /// The streamed responses open now, for `/__admin/stubserver/streams`.
    let streams: StreamRegistry
    /// The WebSocket connections open now, for `/__admin/stubserver/websockets`.
    let webSockets: WebSocketRegistry
    /// The dashboard's page comes with the most recent requests: the server has no admin token, so the
    /// journal is open to whoever may load the page.
    let pageShowsJournal: Bool
    /// The local certificate authority's certificate (PEM) when it signed the HTTPS certificate, for
    /// `GET /__admin/certs/ca.crt`; `nil` otherwise.
    var caCertificatePEM: String? = nil

    /// Where the admin API is served: `/__admin` and below (`StubRequestHandler` sends those requests here).
    static let prefix = "/__admin"

    /// `POST /__admin/reset`: the stub files read again (as WireMock does: files copied in after start are
    /// served), runtime stubs dropped, scenarios to `Started`, use counts to 0, journal cleared.
    /// - Throws: 500 naming the file and field at fault when a stub file does not load; then nothing changed.
    func reset() throws(AdminError) -> HTTPResponse {
        try store.reset(reloading: loadFiles())
        journal.removeAll()
        store.forgetUsage()
        return AdminResponse.empty
    }

    /// The stub files as they are on disk now, for a reset.
    /// - Throws: 500 naming the file and field at fault (WireMock answers 500 too, and drops every stub; here
    ///   the current stubs stay).
    func loadFiles() throws(AdminError) -> StubsLoadResult {
        do {
            // Its warnings were logged at start or are `stubserver check`'s to report: one reset per test would
            // repeat them.
            return try stubFiles.load()
        } catch {
            throw AdminError(
                status: .internalServerError, code: AdminError.invalidInputCode,
                title: "The stub files did not load; nothing was reset",
                detail: error.description, pointer: error.jsonPath.map(JSONPointer.from(mappingPath:)))
        }
    }

    /// `GET /__admin/health` (as WireMock 3).
    func health() -> HTTPResponse {
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
