import Foundation
import StubKit

/// Isolated servers on a shared server, over `/__admin/servers`: each test runner gets a server of its own
/// (stubs, journal, scenarios, port) from the one CI started.
///
/// ```swift
/// let shared = StubServerClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let mine = try await shared.createIsolatedServer(name: "runner-3")
/// try await mine.stub(.get("/users/octocat"), .json(["login": "octocat"]))
/// app.launchEnvironment["BASEURL"] = mine.baseURL.absoluteString
/// … // drive the app
/// try await shared.deleteIsolatedServer(mine)
/// ```
extension StubServerClient {
    /// Starts an isolated server on the server this client drives (`POST /__admin/servers`) and returns a
    /// client to it, with this client's headers and timeout. Its ``baseURL`` is this client's, with the new
    /// server's port: the server may know itself by another address (`0.0.0.0`, a container's); the
    /// server's own view is ``isolatedServer``'s `baseURL`.
    /// - Parameters:
    ///   - name: a name to list it by; default `server-N`.
    ///   - stubs: a folder inside the server's stubs directory (relative to it, or absolute) for it to load;
    ///     default the server's own stubs directory.
    /// - Throws: ``StubServerClientError``: 429 at the server's `--max-servers`, 403 on an isolated server,
    ///   422 for a `stubs` folder outside the server's stubs directory.
    public func createIsolatedServer(name: String? = nil, stubs: String? = nil) async throws -> StubServerClient {
        try isolatedClient(try await send(.createServer, body: Self.creation(name: name, stubs: stubs)))
    }

    /// ``createIsolatedServer(name:stubs:)``, waiting, for XCTest's synchronous `setUp` (as ``resetAndWait()``).
    @_spi(StubTesting)
    public func createIsolatedServerAndWait(name: String?) throws -> StubServerClient {
        try isolatedClient(try sendAndWait(AdminCall(.createServer), body: Self.creation(name: name, stubs: nil)))
    }

    private static func creation(name: String?, stubs: String?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let name { members.append(("name", .string(name))) }
        if let stubs { members.append(("stubs", .string(stubs))) }
        return .object(members)
    }

    /// A client to the server `answer` describes.
    private func isolatedClient(_ answer: Answer) throws(StubServerClientError) -> StubServerClient {
        let info = try Self.serverInfo(try answer.json(), answer)
        return StubServerClient(
            baseURL: baseURL(port: info.port), headers: headers, timeout: timeout, isolatedServer: info)
    }

    /// The isolated servers running on the server (`GET /__admin/servers`), oldest first.
    public func isolatedServers() async throws -> [IsolatedServerInfo] {
        let answer = try await send(.listServers)
        guard case .array(let servers)? = try answer.json()["servers"] else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "no 'servers' array")
        }
        return try servers.map { server throws(StubServerClientError) in try Self.serverInfo(server, answer) }
    }

    /// Stops the isolated server with `id` (`DELETE /__admin/servers/{id}`); its port is closed once this
    /// returns.
    /// - Throws: ``StubServerClientError`` (404 when none has that id).
    public func deleteIsolatedServer(id: String) async throws {
        _ = try await send(.deleteServer, id)
    }

    /// Stops the isolated server `server` drives (a client ``createIsolatedServer(name:stubs:)`` returned).
    /// - Throws: ``StubServerClientError`` (404 when it is stopped already); `server` must come from
    ///   ``createIsolatedServer(name:stubs:)``.
    public func deleteIsolatedServer(_ server: StubServerClient) async throws {
        guard let info = server.isolatedServer else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: "DELETE /__admin/servers/{id}", status: 0,
                detail: "\(server.baseURL.absoluteString) is not a client createIsolatedServer returned")
        }
        try await deleteIsolatedServer(id: info.id)
    }

    /// This client's base URL with another port.
    private func baseURL(port: Int) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        components?.port = port
        return components?.url ?? baseURL
    }

    private static func serverInfo(_ json: JSONValue, _ answer: Answer) throws(StubServerClientError)
        -> IsolatedServerInfo
    {
        guard let info = IsolatedServerInfo(json: json) else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status,
                detail: "not an isolated server: \(json.serialized(.compact).prefix(200))")
        }
        return info
    }
}
