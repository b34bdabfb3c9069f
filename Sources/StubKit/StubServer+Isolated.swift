#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Isolated servers: whole servers of their own beside this one, for tests running in parallel.
extension StubServer {
    /// Starts an isolated server beside this one: its own port (on the same address), stubs, journal,
    /// scenarios and settings, with this server's configuration (journal limits, connection limit, admin token,
    /// …). It stops when this server stops, or with ``removeIsolatedServer(_:)``. What `POST /__admin/servers`
    /// does, without its folder check: Swift code in this process may load any folder.
    ///
    /// ```swift
    /// let runner = try server.makeIsolatedServer(name: "runner-3")
    /// runner.stub(.get("/users/octocat"), .json(["login": "octocat"]))   // only runner-3 answers it
    /// app.launchEnvironment["BASEURL"] = runner.baseURL.absoluteString
    /// ```
    /// - Parameters:
    ///   - name: a name to list it by; default `server-N`.
    ///   - stubs: the stubs directory it loads; default this server's (``stubsDirectory``), loaded again.
    /// - Throws: ``IsolatedServerError``: ``Configuration/maxIsolatedServers`` are running, this server is
    ///   stopping or is itself an isolated server, or the new one could not load its stubs or listen.
    public func makeIsolatedServer(name: String? = nil, stubs: URL? = nil) throws(IsolatedServerError) -> StubServer {
        guard let isolatedServers else {
            throw IsolatedServerError(
                .notAllowed, "this is an isolated server, which starts no servers of its own; ask its parent")
        }
        return try isolatedServers.start(name: name, stubs: stubs.map { .any($0) } ?? .parents, parent: http).1
    }

    /// The isolated servers running beside this one, oldest first (`GET /__admin/servers`).
    public var isolatedServerInfos: [IsolatedServerInfo] { isolatedServers?.list ?? [] }

    /// Stops the isolated server `server` started by ``makeIsolatedServer(name:stubs:)`` (its port is closed
    /// when this returns) and forgets it. Returns `false` if it is not one of this server's running ones.
    /// Blocks while it stops, as ``stop()`` does.
    @discardableResult
    public func removeIsolatedServer(_ server: StubServer) -> Bool {
        isolatedServers?.stop(server: server) ?? false
    }

    /// Stops the isolated server with `id` (``IsolatedServerInfo/id``), as `DELETE /__admin/servers/{id}` does.
    /// Returns `false` if none is running with that id.
    @discardableResult
    public func removeIsolatedServer(id: String) -> Bool {
        isolatedServers?.stop(id) ?? false
    }
}
