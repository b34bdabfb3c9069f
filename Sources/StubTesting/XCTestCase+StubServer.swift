#if canImport(XCTest)
    import Foundation
    import XCTest

    extension XCTestCase {
        /// Starts a ``StubServer`` on `127.0.0.1` and a free port, stopped when the test ends
        /// (`addTeardownBlock`), whether it passed, failed or threw.
        ///
        /// ```swift
        /// final class ProfileTests: XCTestCase {
        ///     var server: StubServer!
        ///
        ///     override func setUpWithError() throws {
        ///         server = try startStubServer(stubs: StubsDirectory.locate(from: #filePath),
        ///                                      failOnUnmatchedRequests: true)
        ///     }
        ///
        ///     func testShowsOctocat() async throws {
        ///         let client = GitHubClient(baseURL: server.baseURL)
        ///         let user = try await client.user("octocat")
        ///         XCTAssertEqual(user.login, "octocat")
        ///         XCTAssertRequested(server, .get("/users/octocat"), count: 1)
        ///     }
        /// }
        /// ```
        /// - Parameters:
        ///   - stubs: a WireMock root directory (`mappings/`, `__files/`), or `nil` to start empty.
        ///   - configuration: host, port, journal capacity… Defaults to `127.0.0.1`, a free port.
        ///   - failOnUnmatchedRequests: when `true`, the test fails at teardown if any request matched no
        ///     stub (see ``XCTAssertNoUnmatchedRequests(_:_:file:line:)``; requests that assertion already
        ///     reported are not reported twice), reported at this call.
        ///   - failOnUnusedStubs: when `true`, the test fails at teardown if a stub it added answered no
        ///     request (see ``XCTAssertNoUnusedStubs(_:_:file:line:)``).
        ///
        /// When the test failed, the journal is attached to it as `stubserver-journal.json` on Apple
        /// platforms (`XCTAttachment`; swift-corelibs-xctest has none).
        /// - Returns: the running server.
        /// - Throws: ``StubServerError`` when the stubs do not load or the server cannot listen.
        public func startStubServer(
            stubs: URL? = nil,
            configuration: StubServer.Configuration = StubServer.Configuration(),
            failOnUnmatchedRequests: Bool = false,
            failOnUnusedStubs: Bool = false,
            file: StaticString = #filePath,
            line: UInt = #line
        ) throws -> StubServer {
            let checks = TeardownChecks(
                failOnUnmatchedRequests: failOnUnmatchedRequests, failOnUnusedStubs: failOnUnusedStubs,
                testName: TeardownChecks.testMethod(name))
            let server = try StubServer(stubs: stubs, configuration: checks.serverConfiguration(configuration))
            try server.start()
            addTeardownBlock { [self] in
                for message in checks.failures(server) {
                    reportFailure(message, at: .xctest(file: file, line: line), server: server)
                }
                attachJournalIfFailed(server)
                server.stop()
            }
            return server
        }
    }
#endif
