import Foundation

/// A stub HTTP server: answers requests from WireMock-style stubs loaded from a directory and
/// added at run time, and journals every request.
///
/// ```swift
/// let server = try StubServer.start(stubs: stubsURL)   // 127.0.0.1, a free port
/// defer { server.stop() }
/// app.launchEnvironment["BASEURL"] = server.baseURL.absoluteString
/// ```
public final class StubServer: Sendable {
    /// How a server listens and what it keeps.
    public struct Configuration: Sendable {
        /// Default `127.0.0.1`.
        public var host: String = "127.0.0.1"
        /// Default 0: the system picks a free port; read it from ``StubServer/port``.
        public var port: Int = 0
        /// The most requests the journal keeps; older ones are dropped. Default 10,000.
        public var journalCapacity: Int = 10_000
        /// Event-loop threads. Default 1, plenty for a test or a UI test's app.
        public var eventLoopCount: Int = 1
        /// Write the near-miss report of every unmatched request to stderr. Default `true`.
        public var logsUnmatchedRequests: Bool = true
        /// Called after each request is answered (or scheduled, for delayed stubs), with the time
        /// matching took. Runs on an event-loop thread: keep it short.
        public var onRequest: (@Sendable (LoggedRequest, Duration) -> Void)?

        public init(host: String = "127.0.0.1", port: Int = 0) {
            self.host = host
            self.port = port
        }
    }

    /// The stubs directory this server loads from, if any.
    public let stubsDirectory: URL?
    /// Every request received (bounded by ``Configuration/journalCapacity``).
    public let journal: RequestJournal
    let store: StubStore
    private let http: HTTPServer

    /// Loads the stubs and prepares the server without listening yet. Call ``start()``.
    /// - Throws: ``StubServerError/badStubs(_:)`` naming the file and field at fault.
    public init(stubs: URL? = nil, configuration: Configuration = Configuration()) throws(StubServerError) {
        stubsDirectory = stubs
        let loaded = try Self.load(stubs)
        for warning in loaded.warnings { StandardError.write("stubserver: \(warning)\n") }
        store = StubStore(fileMappings: loaded.mappings)
        journal = RequestJournal(capacity: configuration.journalCapacity)
        var httpConfiguration = HTTPServerConfiguration()
        httpConfiguration.host = configuration.host
        httpConfiguration.port = configuration.port
        httpConfiguration.eventLoopCount = configuration.eventLoopCount
        http = HTTPServer(configuration: httpConfiguration,
                          handler: StubRequestHandler(store: store, journal: journal, configuration: configuration,
                                                      admin: AdminAPI(store: store, journal: journal,
                                                                      bodyFiles: Self.bodyFiles(in: stubs))))
    }

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - stubs: a WireMock root directory (`mappings/`, `__files/`), or `nil` for none.
    ///   - host: the address to listen on. Default `127.0.0.1`.
    ///   - port: the port; 0 (the default) picks a free one.
    /// - Throws: ``StubServerError``.
    public static func start(stubs: URL? = nil, host: String = "127.0.0.1", port: Int = 0) throws(StubServerError) -> StubServer {
        let server = try StubServer(stubs: stubs, configuration: Configuration(host: host, port: port))
        try server.start()
        return server
    }

    /// Starts listening; returns once connections are accepted.
    public func start() throws(StubServerError) {
        do { try http.start() } catch { throw .cannotListen(error) }
    }

    /// Stops the server: no new connections, in-flight responses finish, then everything closes.
    /// Idempotent; also happens when the server is released.
    public func stop() { http.stop() }

    deinit { http.stop() }

    /// The port the server listens on (the real one, also when started with port 0).
    public var port: Int { http.port }
    /// The address the server listens on.
    public var host: String { http.host }

    /// `http://HOST:PORT` — what the app under test should use as its base URL.
    public var baseURL: URL {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        // The components are an IP literal and a number, so the URL always parses.
        return URL(string: "http://\(host):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Reloads the stubs directory. On error the current stubs stay in place.
    /// - Returns: the loader's warnings.
    @discardableResult
    public func reloadStubs() throws(StubServerError) -> [String] {
        let loaded = try Self.load(stubsDirectory)
        store.replaceFileMappings(loaded.mappings)
        return loaded.warnings
    }

    /// Every stub, in the order they were added (file stubs first).
    public var mappings: [StubMapping] { store.mappings }

    private static func load(_ directory: URL?) throws(StubServerError) -> StubsLoadResult {
        guard let directory else { return StubsLoadResult(mappings: [], warningDetails: []) }
        do {
            return try StubsDirectory.load(directory, displayRoot: displayPath(of: directory))
        } catch {
            throw .badStubs(error)
        }
    }

    /// The directory as a user would write it: relative to the working directory when it is below it.
    private static func displayPath(of directory: URL) -> String {
        let path = directory.standardizedFileURL.path
        let cwd = FileManager.default.currentDirectoryPath
        guard path.hasPrefix(cwd + "/") else { return path }
        return String(path.dropFirst(cwd.count + 1))
    }
}
