#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a test can do with a stub server, wherever it runs: in this process (``StubServer``), behind
/// its admin API (`StubServerClient`, in StubClient), or as a child process (`StubServerProcess`).
///
/// Write test helpers against it to run them in-process on a laptop and against a container in CI:
///
/// ```swift
/// func expectProfileLoaded(_ server: some StubServerAdmin) async throws {
///     try await server.stub(.get("/users/octocat"), .json(["login": "octocat"]), priority: 1, name: nil)
///     // … drive the app …
///     #expect(try await server.received(.get("/users/octocat")) == 1)
/// }
/// ```
///
/// ``StubServer`` answers synchronously (its own methods need no `await`); the others go over HTTP.
/// Methods keep ``StubServer``'s names, so code moves between them unchanged.
public protocol StubServerAdmin: Sendable {
    /// `http://HOST:PORT` of the server's stub traffic (and of `/__admin`).
    var baseURL: URL { get }

    /// Adds a stub that wins over earlier stubs of the same priority.
    /// - Returns: a handle naming the stub; ``removeStub(id:)`` removes it.
    @discardableResult
    func stub(_ request: RequestPattern, _ response: ResponseDefinition, priority: Int, name: String?) async throws
        -> StubHandle
    /// Adds a stub that answers at most `times` times, then stops matching (other stubs answer, or 404).
    @discardableResult
    func stub(_ request: RequestPattern, _ response: ResponseDefinition, times: Int, priority: Int, name: String?)
        async throws -> StubHandle
    /// Adds a step of a WireMock scenario: it matches only while `scenario` is in `whenState` (any state when
    /// `nil`), and moves it to `newState` (if given) when it answers.
    @discardableResult
    func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, scenario: String, whenState: String?,
        newState: String?, priority: Int, name: String?
    ) async throws -> StubHandle
    /// Adds a stub answering each request with the next of `responses`; after the last, as `end` says.
    @discardableResult
    func stubSequence(
        _ request: RequestPattern, _ responses: [ResponseDefinition], _ end: StubServer.SequenceEnd,
        priority: Int, name: String?
    ) async throws -> StubHandle
    /// Adds a stub given as WireMock mapping JSON (one mapping object).
    @discardableResult
    func stub(mappingJSON: String) async throws -> StubHandle
    /// Adds a fully built mapping (its id is kept).
    @discardableResult
    func add(_ mapping: StubMapping) async throws -> StubHandle
    /// Removes the stub with `id`; `false` if there is none.
    @discardableResult
    func removeStub(id: String) async throws -> Bool
    /// Every stub, in the order they were added.
    var mappings: [StubMapping] { get async throws }
    /// The stubs no request used since the journal was last cleared (dead stubs).
    var unusedStubs: [StubMapping] { get async throws }

    /// Every request received, oldest first.
    var requests: [LoggedRequest] { get async throws }
    /// The requests no stub matched, oldest first.
    var unmatchedRequests: [LoggedRequest] { get async throws }
    /// How many received requests match `pattern`.
    func received(_ pattern: RequestPattern) async throws -> Int
    /// The received requests that match `pattern`, oldest first.
    func requests(matching pattern: RequestPattern) async throws -> [LoggedRequest]
    /// The received requests closest to `pattern` that do not match it, closest first.
    func nearMisses(for pattern: RequestPattern, limit: Int) async throws -> [(
        request: LoggedRequest, result: MatchResult
    )]
    /// Every request received, oldest first, with how it matches `pattern` (one snapshot of the journal).
    func matchResults(for pattern: RequestPattern) async throws -> [(request: LoggedRequest, result: MatchResult)]
    /// Suspends until `count` received requests match `pattern` or `timeout` passes; returns the matching
    /// requests, oldest first (fewer than `count` on timeout). ``StubServer`` wakes when the request
    /// arrives; over HTTP the journal is polled.
    func awaitRequests(matching pattern: RequestPattern, count: Int, timeout: Duration) async throws -> [LoggedRequest]

    /// Back to the stubs loaded from files, journal cleared.
    func reset() async throws

    /// The current state of the scenario `name` (`Started` for one never moved or unknown).
    func scenarioState(_ name: String) async throws -> String
    /// Moves the scenario `name` to `state`.
    func setScenarioState(_ name: String, to state: String) async throws
    /// Every scenario back to `Started`.
    func resetScenarios() async throws

    /// Server-wide settings (`fixedDelayMilliseconds`, …).
    var settings: StubServerSettings { get async throws }
    /// Replaces the server-wide settings.
    func updateSettings(_ settings: StubServerSettings) async throws

    /// Declares a data collection, replacing the one of the same name: its endpoints answer from its seed at once.
    /// A reset drops it (collections declared in the stubs directory go back to their seed).
    func addDataCollection(_ collection: DataCollection) async throws
    /// The items of the data collection `name`, in order.
    func dataItems(_ name: String) async throws -> [JSONValue]
    /// Replaces the items of the data collection `name`, each checked as a posted item is; nothing changes when one
    /// is refused.
    func replaceDataItems(_ name: String, with items: [JSONValue]) async throws
    /// The data collection `name` back to its seed.
    func resetDataCollection(_ name: String) async throws
}

extension StubServer: StubServerAdmin {
    /// The protocol's form, without a call site; code that names a `StubServer` gets
    /// ``stub(_:_:priority:name:fileID:filePath:line:column:)``, which records one.
    @_disfavoredOverload
    @discardableResult
    public func stub(_ request: RequestPattern, _ response: ResponseDefinition, priority: Int, name: String?)
        -> StubHandle
    {
        add(
            StubMapping(
                request, resolvingBodyFile(response, stub: Self.title(request, name: name)), priority: priority,
                name: name))
    }

    /// The protocol's form of ``stub(_:_:times:priority:name:fileID:filePath:line:column:)``, without a call site.
    @_disfavoredOverload
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, times: Int, priority: Int, name: String?
    ) -> StubHandle {
        let response = resolvingBodyFile(response, stub: Self.title(request, name: name))
        return add(.limited(request, response, times: times, priority: priority, name: name))
    }

    /// The protocol's form of ``stub(_:_:scenario:whenState:newState:priority:name:fileID:filePath:line:column:)``,
    /// without a call site.
    @_disfavoredOverload
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, scenario: String, whenState: String?,
        newState: String?, priority: Int, name: String?
    ) -> StubHandle {
        let response = resolvingBodyFile(response, stub: Self.title(request, name: name))
        return add(
            .scenarioStep(
                request, response, scenario: scenario, whenState: whenState, newState: newState,
                priority: priority, name: name))
    }

    /// The protocol's form of ``stubSequence(_:_:_:priority:name:fileID:filePath:line:column:)``, without a call site.
    @_disfavoredOverload
    @discardableResult
    public func stubSequence(
        _ request: RequestPattern, _ responses: [ResponseDefinition], _ end: SequenceEnd,
        priority: Int, name: String?
    ) -> StubHandle {
        let title = Self.title(request, name: name)
        return add(
            .sequence(
                request, responses.map { resolvingBodyFile($0, stub: title) }, thenNotFound: end == .thenNotFound,
                priority: priority, name: name))
    }
}
