import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The isolated servers one ``StubServer`` started beside itself: each a whole `StubServer` of its own (stubs,
/// journal, scenarios, settings, port) with its parent's configuration, at most ``limit`` at once, all stopped
/// with the parent.
///
/// The parent owns this registry, and its admin API holds it too; the registry holds its servers but never
/// its parent, and a child's `POST /__admin/shutdown` reaches it through a weak reference, so nothing here
/// makes a cycle. Starting and stopping a server block the calling thread (loading stubs, the stop's grace
/// period): the admin API calls them on its worker threads, never on an event loop.
final class IsolatedServers: IsolatedServerRegistry {
    /// Where a new server's stubs come from.
    enum Stubs: Sendable {
        /// The parent's stubs directory (loaded again from disk; none if the parent has none).
        case parents
        /// A folder named by an admin call: relative to the parent's stubs directory, or absolute, and in
        /// either case inside it (symlinks resolved).
        case confined(String)
        /// Any folder: the process itself asked, in Swift.
        case any(URL)
    }

    private struct Entry: Sendable {
        let info: IsolatedServerInfo
        let server: StubServer
    }

    private struct State: Sendable {
        var entries: [Entry] = []
        /// Servers being started: they count against the limit already.
        var starting = 0
        var made = 0
        var isClosed = false
    }

    /// The most servers at once (``StubServer/Configuration/maxIsolatedServers``).
    let limit: Int
    /// The parent's configuration, which every new server gets (on a port of its own).
    private let configuration: StubServer.Configuration
    /// The parent's stubs directory: the default, and the folder admin calls may choose under.
    private let parentStubs: URL?
    private let state = LockedValue(State())

    init(configuration: StubServer.Configuration, parentStubs: URL?) {
        limit = max(0, configuration.maxIsolatedServers)
        self.configuration = configuration
        self.parentStubs = parentStubs
    }

    /// Starts a server and lists it.
    /// - Throws: ``IsolatedServerError``: the limit is reached, the parent is stopping, the stubs folder is
    ///   not allowed, or the server could not load its stubs or listen.
    /// - Parameter parent: the parent's engine, whose event loop starts the new server (see
    ///   ``start(_:from:)``); `nil` starts it from the calling thread.
    func start(name: String?, stubs: Stubs, parent: HTTPServer?) throws(IsolatedServerError)
        -> (IsolatedServerInfo, StubServer)
    {
        let number = try reserve()
        let made = Result { () throws(IsolatedServerError) in
            try make(name: name ?? "server-\(number)", stubs: stubs, parent: parent)
        }
        let accepted = state.withLock { state in
            state.starting -= 1
            guard case .success(let entry) = made, !state.isClosed else { return false }
            state.entries.append(entry)
            return true
        }
        let entry = try made.get()
        guard accepted else {
            entry.server.stop()
            throw IsolatedServerError(.stopping, "the server is stopping: it starts no more isolated servers")
        }
        return (entry.info, entry.server)
    }

    func startServer(name: String?, folder: String?, parent: HTTPServer?) throws(IsolatedServerError)
        -> IsolatedServerInfo
    {
        try start(name: name, stubs: folder.map { .confined($0) } ?? .parents, parent: parent).0
    }

    /// A started server with the parent's configuration on a free port.
    private func make(name: String, stubs: Stubs, parent: HTTPServer?) throws(IsolatedServerError) -> Entry {
        let id = UUID().uuidString.lowercased()
        var childConfiguration = configuration
        childConfiguration.port = 0
        // Its data collections are its own copies, from the seeds: the parent's files stay the parent's.
        childConfiguration.dataDirectory = nil
        // The parent's handler (the CLI's) would end the whole process: a child's shutdown stops the child.
        childConfiguration.onShutdownRequest = { [weak self] in _ = self?.stop(id) }
        let directory = try directory(stubs)
        let server: StubServer
        do {
            server = try StubServer(stubs: directory, configuration: childConfiguration, isolated: true)
            try Self.start(server, from: parent)
        } catch {
            if case .badStubs = error {
                throw IsolatedServerError(.invalidStubs, "the isolated server's stubs do not load: \(error)")
            }
            throw IsolatedServerError(.cannotStart, "the isolated server did not start: \(error)")
        }
        let info = IsolatedServerInfo(
            id: id, name: name, port: server.port, baseURL: server.baseURL,
            adminURL: URL(string: server.baseURL.absoluteString + "/__admin") ?? server.baseURL)
        return Entry(info: info, server: server)
    }

    /// Starts `server` from one of `parent`'s event-loop threads when it runs: the new server's loop threads
    /// take the priority of the thread that creates them (on Linux, its nice value), and an admin worker runs at
    /// nice +10, so a server it started would serve at that low priority, waiting for a core behind everything
    /// else on a busy machine (bench-isolation.sh saw 0.44x-0.63x of a plain server's requests per second, at the
    /// same CPU per request). Starting binds sockets and creates threads: short, and nothing that blocks.
    private static func start(_ server: StubServer, from parent: HTTPServer?) throws(StubServerError) {
        let outcome = parent?.runOnEventLoop { () -> Result<Void, StubServerError> in
            do throws(StubServerError) {
                try server.start()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        guard let outcome else { return try server.start() }
        try outcome.get()
    }

    /// Every running isolated server, oldest first.
    var list: [IsolatedServerInfo] { state.withLock { $0.entries.map(\.info) } }

    /// The server with `id`, if it is running.
    func info(_ id: String) -> IsolatedServerInfo? {
        state.withLock { state in state.entries.first { $0.info.id == id }?.info }
    }

    /// Stops the server with `id` (its port is closed when this returns) and forgets it. Returns `false` if
    /// there is none.
    func stop(_ id: String) -> Bool {
        stop { $0.info.id == id }
    }

    /// Stops `server` if it is one of these, as ``stop(_:)`` does.
    func stop(server: StubServer) -> Bool {
        stop { $0.server === server }
    }

    private func stop(where chosen: (Entry) -> Bool) -> Bool {
        let removed = state.withLock { state -> StubServer? in
            guard let index = state.entries.firstIndex(where: chosen) else { return nil }
            return state.entries.remove(at: index).server
        }
        removed?.stop()
        return removed != nil
    }

    /// Stops every server and starts no more. Idempotent.
    func stopAll() {
        for server in close() { server.stop() }
    }

    /// As ``stopAll()``, suspending instead of blocking.
    func shutdownAll() async {
        for server in close() { await server.shutdown() }
    }

    private func close() -> [StubServer] {
        state.withLock { state in
            state.isClosed = true
            defer { state.entries = [] }
            return state.entries.map(\.server)
        }
    }

    /// Counts a server being started against the limit; returns its number (for its default name).
    private func reserve() throws(IsolatedServerError) -> Int {
        let limit = limit
        return try state.withLock { state throws(IsolatedServerError) -> Int in
            guard !state.isClosed else {
                throw IsolatedServerError(.stopping, "the server is stopping: it starts no more isolated servers")
            }
            guard limit > 0 else {
                throw IsolatedServerError(
                    .notAllowed,
                    "this server starts no isolated servers (--max-servers 0); start it with --max-servers N")
            }
            guard state.entries.count + state.starting < limit else {
                throw IsolatedServerError(
                    .limitReached,
                    "\(limit) isolated servers are running, the most this server allows (--max-servers \(limit)); "
                        + "delete one (DELETE /__admin/servers/{id}) or start the server with a higher --max-servers")
            }
            state.starting += 1
            state.made += 1
            return state.made
        }
    }

    /// The folder a new server loads.
    private func directory(_ stubs: Stubs) throws(IsolatedServerError) -> URL? {
        switch stubs {
        case .parents: return parentStubs
        case .any(let url): return url
        case .confined(let path): return try confined(path)
        }
    }

    /// `path` (relative to the parent's stubs directory, or absolute) if it resolves inside that directory.
    private func confined(_ path: String) throws(IsolatedServerError) -> URL {
        guard let parentStubs, let root = BodyFiles.realPath(parentStubs.path) else {
            throw IsolatedServerError(
                .invalidStubs,
                "this server has no stubs directory, so 'stubs' cannot name a folder: start it with --stubs ROOT "
                    + "and put each isolated server's stubs in a folder under ROOT")
        }
        let candidate = path.hasPrefix("/") ? path : parentStubs.path + "/" + path
        guard let resolved = BodyFiles.realPath(candidate) else {
            throw IsolatedServerError(.invalidStubs, "'stubs': no such folder: \(candidate)")
        }
        guard resolved == root || resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            throw IsolatedServerError(
                .invalidStubs,
                "'stubs' must be a folder inside this server's stubs directory \(root); \(path) resolves to \(resolved)"
            )
        }
        return URL(fileURLWithPath: resolved, isDirectory: true)
    }
}
