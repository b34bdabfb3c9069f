#if canImport(Testing)
    import Foundation
    import Testing

    extension StubServer {
        /// The server the ``StubServerTrait`` started for the running test, or `nil` outside one.
        ///
        /// ```swift
        /// @Test(.stubServer(stubsNamed: "Stubs"))
        /// func showsOctocat() async throws {
        ///     let server = try #require(StubServer.current)
        ///     …
        /// }
        /// ```
        ///
        /// With `STUBSERVER_URL` set, the trait gives the test an external server instead (see ``ExternalStubServer``),
        /// so this is `nil`, and reading it records an issue that says so and names the alternatives:
        /// ``AnyStubServer/current``, which works in both modes, or `.stubServer(external: .never)`.
        public static var current: StubServer? {
            if let running { return running }
            if let external = AnyStubServer.current, external.isExternal {
                Issue.record(
                    Comment(
                        rawValue: "StubServer.current is nil: \(ExternalStubServer.environmentVariable) is set, so the "
                            + ".stubServer trait gave this test the external server at \(external.baseURL.absoluteString). "
                            + "Use AnyStubServer.current (in-process or external), or .stubServer(external: .never) to keep this test in-process."
                    ))
            }
            return nil
        }

        /// The in-process server of the running test (what ``current`` reads).
        @TaskLocal static var running: StubServer?
    }

    /// A trait that runs each test with its own running ``StubServer``, published as
    /// ``StubServer/current`` (and as ``AnyStubServer/current``) and stopped when the test ends, even if it throws.
    ///
    /// On a suite it applies to every test in it (`isRecursive`), so no two tests share a journal or
    /// runtime stubs, and tests may run in parallel.
    ///
    /// With `STUBSERVER_URL` set (see ``ExternalStubServer``), each test instead gets a ``StubServerClient``
    /// to that server as ``AnyStubServer/current``, reset before the test; such tests run one at a time
    /// in this process, since they share the server's stubs and journal.
    ///
    /// ```swift
    /// @Suite(.stubServer(stubsNamed: "Stubs"))
    /// struct ProfileTests {
    ///     @Test func showsOctocat() async throws {
    ///         let server = try #require(StubServer.current)
    ///         let user = try await GitHubClient(baseURL: server.baseURL).user("octocat")
    ///         #expect(user.login == "octocat")
    ///         expectRequested(server, .get("/users/octocat"), count: 1)
    ///     }
    /// }
    /// ```
    public struct StubServerTrait: TestTrait, SuiteTrait, TestScoping {
        /// Where the stubs come from.
        enum Stubs: Sendable {
            case directory(URL?)
            /// Found with ``StubsDirectory/locate(named:bundle:from:)`` (loaded bundles, then above the test
            /// file) when the test starts, so a missing folder
            /// fails that test with a clear message instead of stopping the test run.
            case located(name: String, filePath: String)
        }

        let stubs: Stubs
        let configuration: StubServer.Configuration
        let failOnUnmatchedRequests: Bool
        let external: ExternalStubServer
        var failOnUnusedStubs = false
        let sourceLocation: SourceLocation

        /// Always `true`: every test of a suite gets a fresh server.
        public var isRecursive: Bool { true }

        public func provideScope(
            for test: Test,
            testCase: Test.Case?,
            performing function: @Sendable () async throws -> Void
        ) async throws {
            // Failures found after the test (unmatched requests, unused stubs, a thrown error's journal) point at
            // the test itself, not at the suite that declared the trait.
            let location = test.sourceLocation
            if let url = try external.resolve() {
                if external.isolates {
                    // A suite's scope holds no server: each of its tests gets an isolated one of its own.
                    if test.isSuite { return try await function() }
                    return try await withIsolatedServer(
                        of: url, name: test.name, reportingAt: location, performing: function)
                }
                return try await withExternalServer(at: url, reportingAt: location, performing: function)
            }
            let directory: URL?
            switch stubs {
            case let .directory(url): directory = url
            case let .located(name, filePath):
                directory = try StubsDirectory.locate(named: name, bundle: nil, from: filePath)
            }
            let checks = TeardownChecks(
                failOnUnmatchedRequests: failOnUnmatchedRequests, failOnUnusedStubs: failOnUnusedStubs)
            let server = try StubServer(stubs: directory, configuration: checks.serverConfiguration(configuration))
            try server.start()
            TestWarnings.observeShadowedStubs(of: server, fallback: location)
            do {
                try await StubServer.$running.withValue(server) {
                    try await AnyStubServer.$current.withValue(AnyStubServer(server)) {
                        try await function()
                    }
                }
            } catch {
                JournalAttachment.recordInSwiftTesting(server, at: .testing(location))
                await server.shutdown()
                throw error
            }
            for message in checks.failures(server) {
                reportFailure(message, at: .testing(location), server: server)
            }
            // Suspends rather than blocks: tests running in parallel keep every cooperative thread while this
            // one's in-flight responses finish.
            await server.shutdown()
        }
    }

    extension Trait where Self == StubServerTrait {
        /// A fresh ``StubServer`` for each test, loaded from `stubs` (or empty), as ``StubServer/current``.
        ///
        /// ```swift
        /// @Test(.stubServer()) func emptyServer() throws {
        ///     let server = try #require(StubServer.current)
        ///     server.stub(.get("/hello"), .text("hi"))
        /// }
        /// ```
        /// - Parameters:
        ///   - stubs: a WireMock root directory, or `nil` to start empty.
        ///   - hosts: virtual hosts (`avatars.example.com`), each on a port of its own, added to
        ///     `configuration`'s ``StubServer/Configuration/virtualHosts``: read each one's address with
        ///     ``AnyStubServer/baseURL(for:)``; `server.launchEnvironment()` carries them as `STUBSERVER_HOST_…`, and
        ///     `mappings/NAME/` holds a host's stubs. Default none. An external server (`STUBSERVER_URL`) has those it
        ///     was started with (`--host-alias`), not these.
        ///   - configuration: host, port, journal capacity… Defaults to `127.0.0.1`, a free port.
        ///   - failOnUnmatchedRequests: record an issue after the test if any request matched no stub (one
        ///     not already reported by `expectNoUnmatchedRequests`/`XCTAssertNoUnmatchedRequests`).
        ///   - failOnUnusedStubs: record an issue after the test if a stub it added answered no request
        ///     (an in-process server only).
        ///   - external: where to look for a server outside the process (default `STUBSERVER_URL`); when
        ///     there is one, the test gets a client to it, reset, as ``AnyStubServer/current``, and
        ///     ``StubServer/current`` is `nil`. `.never` always starts one in-process.
        ///   - sourceLocation: where the trait was written; issues found after a test point at that test (its
        ///     declaration), whether the trait is on the test or on its suite. Leave the default.
        public static func stubServer(
            stubs: URL? = nil,
            hosts: [String] = [],
            configuration: StubServer.Configuration = StubServer.Configuration(),
            failOnUnmatchedRequests: Bool = false,
            failOnUnusedStubs: Bool = false,
            external: ExternalStubServer = .environment,
            sourceLocation: SourceLocation = #_sourceLocation
        ) -> Self {
            StubServerTrait(
                stubs: .directory(stubs), configuration: configuration.addingVirtualHosts(hosts),
                failOnUnmatchedRequests: failOnUnmatchedRequests, external: external,
                failOnUnusedStubs: failOnUnusedStubs,
                sourceLocation: sourceLocation)
        }

        /// A fresh ``StubServer`` for each test, loaded from the folder `name` found in the loaded bundles
        /// or by walking up from the test file (see ``StubsDirectory/locate(named:bundle:from:)``).
        ///
        /// ```swift
        /// @Suite(.stubServer(stubsNamed: "Stubs"))   // <package root>/Stubs
        /// struct ProfileTests { … }
        ///
        /// @Suite(.stubServer(stubsNamed: "Stubs", hosts: ["avatars.example.com"]))   // + mappings/avatars.example.com/
        /// struct AvatarTests { … }
        /// ```
        /// - Parameters:
        ///   - name: the stubs folder's name. Default `Stubs`.
        ///   - filePath: where to start looking; leave the default (the file using the trait).
        ///   - hosts: virtual hosts, as for ``stubServer(stubs:hosts:configuration:failOnUnmatchedRequests:failOnUnusedStubs:external:sourceLocation:)``.
        ///   - configuration: as there.
        ///   - failOnUnmatchedRequests: as there.
        ///   - failOnUnusedStubs: as there.
        ///   - external: as there.
        ///   - sourceLocation: as there.
        public static func stubServer(
            stubsNamed name: String,
            filePath: String = #filePath,
            hosts: [String] = [],
            configuration: StubServer.Configuration = StubServer.Configuration(),
            failOnUnmatchedRequests: Bool = false,
            failOnUnusedStubs: Bool = false,
            external: ExternalStubServer = .environment,
            sourceLocation: SourceLocation = #_sourceLocation
        ) -> Self {
            StubServerTrait(
                stubs: .located(name: name, filePath: filePath), configuration: configuration.addingVirtualHosts(hosts),
                failOnUnmatchedRequests: failOnUnmatchedRequests, external: external,
                failOnUnusedStubs: failOnUnusedStubs,
                sourceLocation: sourceLocation)
        }
    }

    extension StubServer.Configuration {
        /// This configuration with `hosts` after its own ``virtualHosts``.
        fileprivate func addingVirtualHosts(_ hosts: [String]) -> Self {
            var configuration = self
            configuration.virtualHosts += hosts
            return configuration
        }
    }
#endif
