#if canImport(XCTest)
    import Foundation
    @_spi(StubTesting) import StubClient
    @_spi(StubTesting) import StubKit
    import XCTest

    extension XCTestCase {
        /// A stub server for this test, wherever CI runs it: with `STUBSERVER_URL` set (see
        /// ``ExternalStubServer``), a client to that server, reset now (stubs back to its files, journal
        /// cleared, scenarios back to `Started`); otherwise a ``StubServer`` started in this process as
        /// ``startStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:file:line:)`` does, stopped at teardown.
        ///
        /// ```swift
        /// final class ProfileTests: XCTestCase {
        ///     var server: AnyStubServer!
        ///
        ///     override func setUpWithError() throws {
        ///         server = try setUpStubServer(stubs: StubsDirectory.locate(from: #filePath), failOnUnmatchedRequests: true)
        ///     }
        ///
        ///     func testShowsOctocat() async throws {
        ///         let user = try await GitHubClient(baseURL: server.baseURL).user("octocat")
        ///         XCTAssertEqual(user.login, "octocat")
        ///         await XCTAssertRequested(server, .get("/users/octocat"), count: 1)
        ///     }
        /// }
        /// ```
        /// An external server is shared: run the tests that use it one at a time (XCTest runs a process's
        /// tests serially; do not use `swift test --parallel` against one server), or set `STUBSERVER_ISOLATE=1`
        /// (``ExternalStubServer/isolates``): each test then gets an isolated server of its own from it, deleted at
        /// teardown, and test processes may run in parallel.
        /// - Parameters:
        ///   - stubs: the stubs directory for an in-process server. An external server serves the stubs it
        ///     was started with.
        ///   - configuration: for an in-process server.
        ///   - failOnUnmatchedRequests: fail the test at teardown if any request it caused matched no stub.
        ///   - failOnUnusedStubs: fail the test at teardown if a stub it added answered no request (against an
        ///     external server, the stubs added through the returned value; not the server's file stubs).
        ///   - external: where to look for an external server. Default: `STUBSERVER_URL`.
        /// - Throws: ``StubServerError`` when an in-process server cannot start; ``ExternalStubServerError``
        ///   when `STUBSERVER_URL` is not a URL or the server there does not answer the reset.
        public func setUpStubServer(
            stubs: URL? = nil,
            configuration: StubServer.Configuration = StubServer.Configuration(),
            failOnUnmatchedRequests: Bool = false,
            failOnUnusedStubs: Bool = false,
            external: ExternalStubServer = .environment,
            file: StaticString = #filePath,
            line: UInt = #line
        ) throws -> AnyStubServer {
            guard let url = try external.resolve() else {
                return AnyStubServer(
                    try startStubServer(
                        stubs: stubs, configuration: configuration, failOnUnmatchedRequests: failOnUnmatchedRequests,
                        failOnUnusedStubs: failOnUnusedStubs, file: file, line: line))
            }
            let checks = TeardownChecks(
                failOnUnmatchedRequests: failOnUnmatchedRequests, failOnUnusedStubs: failOnUnusedStubs,
                testName: TeardownChecks.testMethod(name))
            let client = StubServerClient(baseURL: url, headers: external.adminHeaders)
            if external.isolates {
                return try setUpIsolatedServer(of: client, checks: checks, file: file, line: line)
            }
            do {
                _ = try client.resetAndWait()
            } catch {
                throw ExternalStubServerError(
                    description: "the stub server at \(ExternalStubServer.environmentVariable)=\(url.absoluteString) "
                        + "did not reset: \(error)")
            }
            return checkedAtTeardown(client, checks: checks, file: file, line: line)
        }

        /// An isolated server of `shared` for this test (`STUBSERVER_ISOLATE=1`), deleted at teardown.
        private func setUpIsolatedServer(
            of shared: StubServerClient, checks: TeardownChecks, file: StaticString, line: UInt
        ) throws -> AnyStubServer {
            let client: StubServerClient
            do {
                client = try shared.createIsolatedServerAndWait(
                    name: String(decoding: name.utf8.prefix(200), as: UTF8.self))
            } catch {
                throw ExternalStubServerError(
                    description: "the stub server at \(ExternalStubServer.environmentVariable)="
                        + "\(shared.baseURL.absoluteString) did not start an isolated server "
                        + "(\(ExternalStubServer.isolateVariable)=1): \(error)")
            }
            // Teardown blocks run last-added first: the journal is checked before the server is deleted.
            addTeardownBlock {
                do {
                    try await shared.deleteIsolatedServer(client)
                } catch {
                    reportFailure(
                        "the isolated server \(client.baseURL.absoluteString) was not deleted: \(error)",
                        at: .xctest(file: file, line: line))
                }
            }
            return checkedAtTeardown(client, checks: checks, file: file, line: line)
        }

        /// `client`'s server for this test: at teardown, its journal is attached if the test failed and `checks` run.
        private func checkedAtTeardown(
            _ client: StubServerClient, checks: TeardownChecks, file: StaticString, line: UInt
        ) -> AnyStubServer {
            let server = AnyStubServer(client)
            attachJournalAtTeardownIfFailed(server)
            addTeardownBlock {
                for message in await checks.failures(server) {
                    await reportFailure(message, at: .xctest(file: file, line: line), server: server)
                }
            }
            return server
        }
    }
#endif
