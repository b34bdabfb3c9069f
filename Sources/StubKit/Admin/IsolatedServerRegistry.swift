import StubHTTP

/// What `/__admin/servers` asks of the isolated servers a server started beside itself. ``StubServer``'s
/// registry (`IsolatedServers`) conforms: the admin API is built below `StubServer` and cannot name it.
protocol IsolatedServerRegistry: Sendable {
    /// Starts a server, its stubs from the parent's stubs directory, or from `folder` inside it (relative to it, or
    /// absolute), and lists it. `parent`: the engine whose event loop starts the new server.
    /// - Throws: ``IsolatedServerError``: the limit is reached, the parent is stopping, the folder is not allowed,
    ///   or the server could not load its stubs or listen.
    func startServer(name: String?, folder: String?, parent: HTTPServer?) throws(IsolatedServerError)
        -> IsolatedServerInfo
    /// Every running isolated server, oldest first.
    var list: [IsolatedServerInfo] { get }
    /// The server with `id`, if it is running.
    func info(_ id: String) -> IsolatedServerInfo?
    /// Stops the server with `id` (its port is closed when this returns) and forgets it; `false` if there is none.
    func stop(_ id: String) -> Bool
}
