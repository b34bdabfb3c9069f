import StubCertificates
import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
        public var journalCapacity: Int {
            get { journal.maxEntries }
            set { journal.maxEntries = newValue }
        }
        /// What the journal keeps: entries, bytes (default 64 MiB), body bytes per entry (default 1 MiB),
        /// or nothing (`isEnabled = false`). See ``RequestJournal/Limits``.
        public var journal = RequestJournal.Limits()
        /// Event-loop threads. Default 1, plenty for a test or a UI test's app.
        public var eventLoopCount: Int = 1
        /// The most connections open at once (`--max-connections`). Near it, connections that never sent
        /// a byte are closed, oldest first, to make room; past it, with none to close, a new connection
        /// gets `503`. Default 4096.
        public var maxConnections: Int = 4096
        /// How long stopping lets in-flight responses (delayed and paced ones included) finish before it
        /// closes their connections (`--shutdown-grace`). A response whose client has left is dropped at
        /// once and never holds a stop. Default 5 s.
        public var shutdownGrace: Duration = .seconds(5)
        /// A slow network for every response: latency and a bandwidth cap (`--network`). Default `nil`.
        public var network: NetworkProfile?
        /// The most bytes per second of every response, whatever the network (`--bandwidth`). Default `nil`.
        public var bytesPerSecond: Int?
        /// The most threads running synchronous closure stubs at once (a closure may block). Default 8.
        public var closureThreadLimit: Int = 8
        /// The largest request body parsed as JSON, for `equalToJson` and `matchesJsonPath` and for a
        /// template's `jsonPath` (`--max-json-match-body`). A parsed document costs many times its size, so a
        /// larger body is not parsed: JSON matchers do not match it (its near-miss report says why), and a
        /// template that would parse it answers `500` naming the limit. Default 4 MiB.
        public var jsonMatchBodyLimit: Int = 4 << 20
        /// Threads matching requests with large bodies and making near-miss reports, off the event loops.
        /// Default 2.
        public var matchThreadLimit: Int = 2
        /// Log unmatched requests (``unmatchedRequestLogging`` `.full` when `true`, `.none` when `false`).
        public var logsUnmatchedRequests: Bool {
            get { unmatchedRequestLogging != .none }
            set { unmatchedRequestLogging = newValue ? .full : .none }
        }
        /// How much an unmatched request logs: its near-miss report (repeats summarised), one line, or
        /// nothing. Default `.full`.
        public var unmatchedRequestLogging: UnmatchedRequestLogging = .full
        /// Said after each `.line` of ``unmatchedRequestLogging``, in parentheses: where the full report goes
        /// instead (StubTesting's `failOnUnmatchedRequests` sets it, so a test's log does not repeat its failure).
        package var unmatchedRequestLineNote: String?
        /// Where the server's log lines go (near-miss reports, rejected requests, stub warnings): a
        /// queue bounded in bytes, written by its own thread, so logging never blocks serving.
        /// Default: a new ``LogSink`` on stderr.
        public var log = LogSink()
        /// Every stub's response is a template, as WireMock's `--global-response-templating`; otherwise
        /// only stubs with `"transformers": ["response-template"]` (or `.templated()`). Default `false`.
        public var globalResponseTemplating: Bool = false
        /// A stub file whose `bodyFileName` is missing from `__files` makes loading fail (as
        /// `stubserver check` reports it, and the CLI's `--strict`). Default `false`: as in WireMock, that
        /// stub loads with a warning and answers 500 saying which file is missing; the others serve.
        public var strictBodyFiles: Bool = false
        /// A stub using a request matcher or request field stubserver does not implement (a WireMock
        /// extension's `customMatcher`, say) loads with a warning and never matches (the CLI's
        /// `--lenient`). Default `false`: loading fails with an error naming the file, field and the
        /// alternatives. Such a stub never matches more than its author wrote either way.
        public var lenientMatchers: Bool = false
        /// The most work and output one templated response may take (`--template-max-steps`,
        /// `--template-max-output`); a render that reaches a limit is answered `500` naming the stub and
        /// the limit. Long renders run on render threads, never on an event loop. Default: 1,000,000
        /// steps and 16 MiB, far above what real templates need.
        public var templateLimits = TemplateLimits()
        /// Makes the fake data of templates (`{{fake 'Name.firstName'}}`, `{{random 'Name.firstName'}}`)
        /// reproducible (`--faker-seed`): each value depends only on this seed, the stub's id, how many
        /// times that stub has answered, and the helper's place in the render, not on requests to other
        /// stubs. Default `nil`: values come from the system's random generator.
        public var fakeDataSeed: UInt64?
        /// Serve the admin API under `/__admin` (`--no-admin` turns it off: those paths are then stub
        /// traffic, 404 unless stubbed). Default `true`.
        public var adminAPIEnabled: Bool = true
        /// When set, admin calls need `Authorization: Bearer <token>` (401 otherwise) (`--admin-token`,
        /// `STUBSERVER_ADMIN_TOKEN`). Default `nil`: no token, and only loopback pages and hosts get in.
        public var adminToken: String?
        /// Host names the admin API answers besides its own: IP addresses, `localhost` (and `*.localhost`) and
        /// single-label names (compose service names) always, and the name in ``host``. Without a token, a
        /// server on a non-loopback address refuses admin calls whose `Host` is any other dotted name (a
        /// DNS-rebound web page sends its own), and a loopback server any non-loopback name (`--allowed-host`,
        /// any case, no port). Default empty.
        public var allowedHosts: [String] = []
        /// Threads answering admin calls, off the event loops. Default 2.
        public var adminThreadLimit: Int = 2
        /// Admin calls that may wait for an admin thread; more are answered 503 at once. Default 64.
        public var adminQueueLimit: Int = 64
        /// Called after each request is answered (or scheduled, for delayed stubs), with the time
        /// matching took. Runs on an event-loop or worker thread: keep it short, and log through ``log``
        /// rather than writing to stdout or stderr.
        public var onRequest: (@Sendable (LoggedRequest, Duration) -> Void)?
        /// Forwarding: where unmatched requests go (`--proxy-all`), the upstream timeout and the largest
        /// upstream body. Default: unmatched requests get a 404.
        public var proxy = ProxySettings()
        /// Called (on a background thread) when a client posts `/__admin/shutdown`, after the answer
        /// is on its way. Default `nil`: the server stops itself. The CLI sets it to end its process.
        public var onShutdownRequest: (@Sendable () -> Void)?
        /// The most isolated servers running at once (``StubServer/makeIsolatedServer(name:stubs:)``,
        /// `POST /__admin/servers`, `--max-servers`); 0 allows none. Default 16.
        public var maxIsolatedServers: Int = 16
        /// Virtual hosts: one more port for each name (`api.example.com`), on the same address. A request to a
        /// virtual host's port is matched, journaled and templated as sent to that host, whatever its `Host`
        /// header says; `mappings/NAME/` holds stubs for it alone. Names are lower-cased. Default none.
        public var virtualHosts: [String] = []
        /// HTTPS beside plain HTTP, or instead of it (`--https-port`, `--https-only`): the same stubs, admin API
        /// and dashboard over TLS, with a certificate from the local certificate authority or your own. Default
        /// `nil`: plain HTTP only. See ``HTTPS``.
        public var https: HTTPS?
        /// The server as a forward proxy: which `CONNECT`s it ends, for which hosts, and whether unmatched proxied
        /// requests go on to their real host. Default: `CONNECT` to ports 443 and 80, any host, unmatched ones
        /// answered 404. See ``ForwardProxy``.
        public var forwardProxy = ForwardProxy()
        /// OpenAPI documents (``OpenAPIDocument/load(contentsOf:)``): each operation answers from the document
        /// (after every stub from files or Swift), and requests are checked against them as
        /// ``openAPIValidation`` says.
        public var openAPI: [OpenAPIDocument] = []
        /// What a request that breaks its OpenAPI operation gets: a `400` problem (``OpenAPIValidation/reject``,
        /// the default), a log line, or nothing.
        public var openAPIValidation: OpenAPIValidation = .reject
        /// Where the data collections (``DataCollection``) are saved, one `NAME.json` each (`--data-dir`): a
        /// collection starts from its file when there is one, and every change is written back (a temporary file
        /// renamed over the old one), also at stop. `nil` (the default): in memory only. Isolated servers keep
        /// theirs in memory.
        public var dataDirectory: URL?

        public init(host: String = "127.0.0.1", port: Int = 0) {
            self.host = host
            self.port = port
        }
    }

    /// The stubs directory this server loads from, if any.
    public let stubsDirectory: URL?
    /// Every request received (bounded by ``Configuration/journal``).
    public let journal: RequestJournal
    /// Where the server logs (``Configuration/log``).
    public let log: LogSink
    /// What the test helpers already reported, so each problem fails a test once.
    package let failureLedger = FailureLedger()
    /// The OpenAPI documents requests are checked against.
    let contracts: OpenAPIContracts
    /// The stubs directory and the stubs made from the configuration's OpenAPI documents: what ``reloadStubs()``
    /// and the admin API's resets read again.
    let stubFiles: StubFiles
    /// The seed of values made from OpenAPI schemas (``Configuration/fakeDataSeed``, else 0).
    let openAPISeed: UInt64
    let store: StubStore
    /// Runs synchronous closure stubs, off the event loops.
    let closureWorkers: WorkerPool
    /// Answers admin calls, off the event loops.
    let adminWorkers: WorkerPool
    /// Renders response templates too long for an event loop.
    let renderWorkers: WorkerPool
    /// Matches requests with large bodies and makes near-miss reports, off the event loops.
    let matchWorkers: WorkerPool
    /// Opens and reads body files streamed from disk (over ``BodyFiles/cacheLimit``), off the event loops.
    let fileWorkers: WorkerPool
    /// Logged once listening: the admin API is reachable from the network without a token.
    private let adminExposureWarning: String?
    /// Forwards requests for proxy stubs and ``Configuration/proxy``.
    let proxy: ProxyForwarding
    /// Recording stubs from forwarded traffic (``startRecording(_:)``, `/__admin/recordings`).
    let recordings: Recordings
    let http: HTTPServer
    /// The streamed responses open now (``streams(matching:)``).
    let streams = StreamRegistry()
    /// The WebSocket connections open now (``webSockets(matching:)``).
    let webSocketRegistry = WebSocketRegistry()
    private let origin = ServerOrigin()
    /// Every port and its base URL once listening, for `GET /__admin/hosts`.
    private let listeningHosts = ListeningHosts()
    /// From the configuration (``Configuration/globalResponseTemplating``): also applies to reloads and stubs
    /// added later.
    let loadOptions: StubsLoadOptions
    /// The isolated servers started beside this one; `nil` for an isolated server, which starts none.
    let isolatedServers: IsolatedServers?
    /// The local certificate authority that signed the HTTPS certificate, if it did (``certificateAuthority``).
    let tlsAuthority: CertificateAuthority?

    /// Loads the stubs and prepares the server without listening yet. Call ``start()``.
    /// - Throws: ``StubServerError/badStubs(_:)`` naming the file and field at fault;
    ///   ``StubServerError/cannotListen(_:)`` for a ``Configuration/virtualHosts`` name that is not a host name.
    public convenience init(stubs: URL? = nil, configuration: Configuration = Configuration()) throws(StubServerError) {
        try self.init(stubs: stubs, configuration: configuration, isolated: false)
    }

    /// - Parameter isolated: whether this is an isolated server of another (``makeIsolatedServer(name:stubs:)``).
    init(stubs: URL?, configuration: Configuration, isolated: Bool) throws(StubServerError) {
        // `--stubs Stubs/mappings` means `Stubs`.
        let (root, note) = stubs.map(StubsLayout.resolvedRoot) ?? (nil, nil)
        stubsDirectory = root
        loadOptions = configuration.loadOptions
        openAPISeed = configuration.fakeDataSeed ?? 0
        stubFiles = StubFiles(
            directory: root, options: loadOptions,
            openAPIStubs: configuration.openAPI.flatMap { $0.stubs(seed: configuration.fakeDataSeed ?? 0) })
        contracts = OpenAPIContracts(configuration.openAPI, mode: configuration.openAPIValidation)
        let loaded: StubsLoadResult
        do { loaded = try stubFiles.load() } catch { throw .badStubs(error) }
        log = configuration.log
        if let note { log.write("stubserver: \(note)") }
        for warning in loaded.warnings { log.write("stubserver: \(warning)") }
        let log = log
        store = Self.store(loaded, configuration: configuration, regexWarnings: { log.write($0) })
        do {
            try store.data.load(fromFiles: loaded.collections)
        } catch {
            throw .badStubs(.invalidSavedData("data collection", error.message))
        }
        journal = RequestJournal(limits: configuration.journal)
        let adminState = AdminState()
        var httpConfiguration = HTTPServerConfiguration()
        httpConfiguration.host = configuration.host
        httpConfiguration.port = configuration.port
        httpConfiguration.eventLoopCount = configuration.eventLoopCount
        httpConfiguration.maxConnections = configuration.maxConnections
        httpConfiguration.shutdownGracePeriod = configuration.shutdownGrace
        httpConfiguration.additionalListeners = try Self.virtualHostListeners(configuration)
        let tls = try Self.tlsSetup(configuration)
        httpConfiguration.tls = tls?.configuration
        tlsAuthority = tls?.authority
        closureWorkers = WorkerPool(name: "closure", threadLimit: configuration.closureThreadLimit, queueLimit: 1024)
        matchWorkers = WorkerPool(
            name: "match", threadLimit: configuration.matchThreadLimit, queueLimit: 64, isBackground: true)
        adminWorkers = WorkerPool(
            name: "admin", threadLimit: configuration.adminThreadLimit,
            queueLimit: configuration.adminQueueLimit, isBackground: true)
        // One core fewer than the machine has (1 to 4 threads), below the loops' priority: a flood of long
        // renders never takes the core the event loop needs, and beyond 64 waiting ones gets 503 at once.
        renderWorkers = WorkerPool(
            name: "render", threadLimit: min(4, ProcessInfo.processInfo.activeProcessorCount - 1),
            queueLimit: 64, isBackground: true)
        // Each streamed body waits for at most one read at a time, so the queue holds one job per download.
        fileWorkers = WorkerPool(name: "files", threadLimit: 2, queueLimit: configuration.maxConnections)
        let recorder = Recorder()
        recordings = Recordings(recorder: recorder, store: store, journal: journal, stubsDirectory: root)
        let isolatedServers = isolated ? nil : IsolatedServers(configuration: configuration, parentStubs: root)
        self.isolatedServers = isolatedServers
        let admin = AdminAPI(
            store: store, journal: journal, bodyFiles: Self.bodyFiles(in: root),
            stubsDirectory: root, stubFiles: stubFiles, state: adminState, log: log, recordings: recordings,
            isolatedServers: isolatedServers, hosts: listeningHosts, streams: streams,
            webSockets: webSocketRegistry, pageShowsJournal: configuration.adminToken?.isEmpty ?? true,
            caCertificatePEM: tls?.authority?.certificatePEM)
        proxy = ProxyForwarding(settings: configuration.proxy)
        http = HTTPServer(
            configuration: httpConfiguration,
            handler: StubRequestHandler(
                store: store, journal: journal, configuration: configuration,
                admin: configuration.adminAPIEnabled
                    ? AdminEndpoint(admin, access: AdminAccess(configuration), workers: adminWorkers) : nil,
                network: configuration.effectiveNetwork,
                closureWorkers: closureWorkers, renderWorkers: renderWorkers, matchWorkers: matchWorkers,
                fileWorkers: fileWorkers,
                bodyFileResolver: BodyFileResolver(bodyFiles: Self.bodyFiles(in: root), options: StubsLoadOptions()),
                unmatchedLog: UnmatchedRequestLog(
                    mode: configuration.unmatchedRequestLogging, note: configuration.unmatchedRequestLineNote,
                    sink: log),
                origin: origin, proxy: proxy,
                forwardProxy: ForwardProxying(configuration, httpsAuthority: tls?.authority),
                recorder: recorder, streams: streams,
                webSocketRegistry: webSocketRegistry, contracts: contracts))
        if let onShutdownRequest = configuration.onShutdownRequest {
            adminState.onShutdown(onShutdownRequest)
        } else {
            adminState.onShutdown { [weak http, weak isolatedServers] in
                isolatedServers?.stopAll()
                http?.stop()
            }
        }
        adminState.onAvailability(of: http)
        adminExposureWarning = AdminAccess.exposureWarning(configuration)
    }

    /// Starts a server and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - stubs: a WireMock root directory (`mappings/`, `__files/`), or `nil` for none.
    ///   - host: the address to listen on. Default `127.0.0.1`.
    ///   - port: the port; 0 (the default) picks a free one.
    /// - Throws: ``StubServerError``.
    public static func start(stubs: URL? = nil, host: String = "127.0.0.1", port: Int = 0) throws(StubServerError)
        -> StubServer
    {
        let server = try StubServer(stubs: stubs, configuration: Configuration(host: host, port: port))
        try server.start()
        return server
    }

    /// Starts listening; returns once connections are accepted.
    public func start() throws(StubServerError) {
        do { try http.start() } catch { throw .cannotListen(error) }
        origin.set(host: http.host, port: http.port, scheme: primaryScheme)
        listeningHosts.set(hosts)
        if let adminExposureWarning { log.write(adminExposureWarning) }
    }

    /// Stops the server and its isolated servers: no new connections, in-flight responses finish (for up to
    /// ``Configuration/shutdownGrace``), then everything closes. Blocks the calling thread meanwhile:
    /// from async code, call ``shutdown()``. Idempotent; also happens when the server is released.
    public func stop() {
        isolatedServers?.stopAll()
        http.stop()
        releaseWorkers()
    }

    /// Stops the server as ``stop()`` does, without blocking a thread: the stop runs on a thread of its
    /// own and this suspends until it is complete. Use it from async tests and test scopes, where a
    /// blocked thread is one less in Swift's small cooperative pool for every other running test (and
    /// for the async closure stubs of every server).
    ///
    /// ```swift
    /// let server = try StubServer.start()
    /// …
    /// await server.shutdown()
    /// ```
    public func shutdown() async {
        await isolatedServers?.shutdownAll()
        await http.shutdown()
        releaseWorkers()
    }

    /// What ``stop()`` and ``shutdown()`` both release once the HTTP server has stopped: the closure,
    /// admin, render, match and file workers take no more jobs (their threads end after the queued ones), forwarding stops
    /// (exchanges in flight are cancelled), and the data collections' pending changes are saved. Idempotent.
    private func releaseWorkers() {
        // What the requests answered before the stop changed is saved (`--data-dir`).
        store.data.flush()
        closureWorkers.shutdown()
        adminWorkers.shutdown()
        renderWorkers.shutdown()
        matchWorkers.shutdown()
        fileWorkers.shutdown()
        proxy.shutdown()
    }

    deinit { stop() }

    /// The port the server listens on (the real one, also when started with port 0).
    public var port: Int { http.port }

    /// Whether the server accepts connections: true from ``start()`` until ``stop()`` or ``shutdown()``
    /// begins. A stopped server's port may be given to another server at once, so a test that checks a
    /// server stopped reads this rather than sending a request to the old port.
    public var isRunning: Bool { http.isRunning }
    /// The address the server listens on.
    public var host: String { http.host }

    /// `http://HOST:PORT` — what the app under test should use as its base URL; `https://` when the server
    /// serves HTTPS only (``Configuration/HTTPS/only``; else see ``httpsBaseURL``).
    public var baseURL: URL { Self.url(host: host, port: port, scheme: primaryScheme) }

    /// `https` when the server serves HTTPS only, else `http`: the scheme of ``baseURL`` and ``port``.
    var primaryScheme: String { http.configuration.tls?.servesPlainHTTP == false ? "https" : "http" }

    /// Reloads the stubs directory. On error the current stubs stay in place.
    /// - Returns: the loader's warnings.
    @discardableResult
    public func reloadStubs() throws(StubServerError) -> [String] {
        let loaded: StubsLoadResult
        do { loaded = try stubFiles.load() } catch { throw .badStubs(error) }
        store.replaceFileMappings(loaded.mappings, compiled: loaded.compiled)
        return loaded.warnings
    }

    /// Every stub, in the order they were added (file stubs first).
    public var mappings: [StubMapping] { store.mappings }

    /// The store of the stubs `loaded` from a stubs directory with ``Configuration/loadOptions``: their route table
    /// and prepared responses, taking what the loader compiled. The one construction of a server's stubs, which
    /// ``MatchExplanation`` (`stubserver match`) uses too.
    static func store(
        _ loaded: StubsLoadResult, configuration: Configuration, regexWarnings: (@Sendable (String) -> Void)? = nil
    ) -> StubStore {
        StubStore(
            fileMappings: loaded.mappings, compiled: loaded.compiled, loadOptions: configuration.loadOptions,
            jsonBodyLimit: max(0, configuration.jsonMatchBodyLimit), regexWarnings: regexWarnings,
            dataPersistence: configuration.dataDirectory.map { DataPersistence(directory: $0, log: configuration.log) })
    }

}

extension StubServer.Configuration {
    /// The settings of this configuration that change what a stub means, as the server loads its stubs with them.
    package var loadOptions: StubsLoadOptions {
        StubsLoadOptions(
            globalResponseTemplating: globalResponseTemplating, strictBodyFiles: strictBodyFiles,
            lenientMatchers: lenientMatchers, virtualHosts: virtualHosts)
    }

    /// ``network`` with ``bytesPerSecond`` folded in (the lower rate wins); `nil` when neither is set.
    var effectiveNetwork: NetworkProfile? {
        guard network != nil || bytesPerSecond != nil else { return nil }
        var profile = network ?? NetworkProfile()
        if let bytesPerSecond { profile.bytesPerSecond = min(profile.bytesPerSecond ?? .max, bytesPerSecond) }
        return profile
    }
}
