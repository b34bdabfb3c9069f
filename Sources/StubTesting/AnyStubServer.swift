import Foundation
@_spi(StubTesting) import StubClient

/// The stub server a test was given, wherever it runs: a ``StubServer`` started in this process, or —
/// when `STUBSERVER_URL` is set (see ``ExternalStubServer``) — a ``StubServerClient`` to a server CI
/// started, reset before the test. Tests written against it run unchanged in both.
///
/// `setUpStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:external:file:line:)` returns
/// one; the `.stubServer` trait publishes it as ``current``. Every operation is `async`; the assertion
/// helpers take it like ``StubServerClient``.
///
/// ```swift
/// @Suite(.stubServer(stubsNamed: "Stubs"))
/// struct ProfileTests {
///     @Test func showsOctocat() async throws {
///         let server = try #require(AnyStubServer.current)
///         try await server.stub(.get("/users/octocat"), .json(["login": "octocat"]), priority: 1)
///         // … call server.baseURL …
///         await expectRequested(server, .get("/users/octocat"), count: 1)
///     }
/// }
/// ```
public final class AnyStubServer: AsyncStubServerAdmin, StubServerAdminForwarding, CustomStringConvertible {
    /// The server this one forwards to: a ``StubServer`` or a ``StubServerClient``.
    public let base: any StubServerAdmin

    /// The server the running test's `.stubServer` trait gave it, or `nil` outside one.
    @TaskLocal public static var current: AnyStubServer?

    /// The unmatched requests a test expects, for a server outside this process (an in-process server
    /// keeps its own).
    let remoteLedger = FailureLedger()

    /// Wraps `base`.
    public init(_ base: any StubServerAdmin) { self.base = base }

    /// ``base``, which every operation goes to.
    public var forwardee: any StubServerAdmin { base }

    /// Notes a stub added through this value (for `failOnUnusedStubs` against a server outside this process).
    @_spi(StubTesting)
    public func noteAdded(_ handle: StubHandle) {
        if isExternal { remoteLedger.noteAdded(handle.id) }
    }

    /// Every port the server listens on: the primary one (name `nil`) first, then each virtual host's
    /// (`StubServer.hosts`; outside this process, `GET /__admin/hosts`).
    public func hosts() async throws -> [StubServerHost] {
        if let inProcess { return inProcess.hosts }
        guard let client = remoteClient else { return [StubServerHost(name: nil, port: 0, baseURL: baseURL)] }
        return try await client.hosts()
    }

    /// `http://HOST:PORT` of virtual host `name` (any case), as `StubServer.baseURL(for:)` gives it, wherever the
    /// server runs.
    /// - Throws: `UnknownVirtualHostError` naming the hosts the server has, or the client's error.
    public func baseURL(for name: String) async throws -> URL {
        if let inProcess { return try inProcess.baseURL(for: name) }
        let hosts = try await hosts()
        guard let host = hosts.first(where: { $0.name?.lowercased() == name.lowercased() }) else {
            throw UnknownVirtualHostError(name: name, known: hosts.compactMap(\.name))
        }
        return host.baseURL
    }

    /// `https://HOST:PORT` of the server's primary HTTPS port, when it serves HTTPS beside plain HTTP
    /// (`StubServer.httpsBaseURL`; outside this process, from `GET /__admin/hosts`); else `nil`.
    public func httpsBaseURL() async throws -> URL? {
        if let inProcess { return inProcess.httpsBaseURL }
        return try await hosts().first { $0.name == nil }?.httpsBaseURL
    }

    /// The client of a server outside this process, when `base` is one (a client, or a launched process's).
    var remoteClient: StubServerClient? {
        var client = base as? StubServerClient
        #if os(macOS) || os(Linux)
            client = client ?? (base as? StubServerProcess)?.client
        #endif
        return client
    }

    /// The launch environment that points an app at this server: its base URL under `key` and, for each virtual
    /// host, `STUBSERVER_HOST_…` (`StubServer.launchEnvironmentKey(forHost:)`), as `StubServer.launchEnvironment(key:)`
    /// gives it; a server outside this process is asked for its hosts (`GET /__admin/hosts`).
    ///
    /// ```swift
    /// let app = XCUIApplication()
    /// app.launchEnvironment = try await server.launchEnvironment()
    /// ```
    public func launchEnvironment(key: String = "BASEURL") async throws -> [String: String] {
        if let inProcess { return inProcess.launchEnvironment(key: key) }
        var environment = StubServerHost.launchEnvironment(of: try await hosts(), key: key)
        environment[key] = baseURL.absoluteString  // as this process reaches it (a container's mapped port, say)
        return environment
    }

    /// The launch environment that makes this server the app's HTTP proxy: `STUBSERVER_PROXY` = `HOST:PORT`, as
    /// `StubServer.proxyLaunchEnvironment(key:)` gives it (for a server outside this process, the address this
    /// process reaches it at).
    public func proxyLaunchEnvironment(key: String = StubServer.proxyLaunchEnvironmentKey) -> [String: String] {
        if let inProcess { return inProcess.proxyLaunchEnvironment(key: key) }
        return StubServer.proxyLaunchEnvironment(baseURL: baseURL, key: key)
    }

    /// Requests matching `pattern` that no stub answers are expected in this test: see
    /// `StubServer.expectUnmatched(_:)`. Works in-process and against an external server.
    public func expectUnmatched(_ pattern: RequestPattern) {
        if let inProcess { inProcess.expectUnmatched(pattern) } else { _ = remoteLedger.expectUnmatched(pattern) }
    }

    /// The in-process server, for what only it can do (closure stubs, synchronous calls); `nil` when the
    /// test talks to an external server.
    public var inProcess: StubServer? { base as? StubServer }
    /// Whether the test talks to a server outside this process (`STUBSERVER_URL`).
    public var isExternal: Bool { inProcess == nil }

    public var baseURL: URL { base.baseURL }
    public var description: String {
        (isExternal ? "external stub server at " : "stub server at ") + baseURL.absoluteString
    }
}
