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
    ///         let client = GitHubUserClient(baseURL: server.baseURL)
    ///         let user = try await client.fetchUser("octocat")
    ///         XCTAssertEqual(user.login, "octocat")
    ///         XCTAssertRequested(server, .get("/users/octocat"), count: 1)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - stubs: a WireMock root directory (`mappings/`, `__files/`), or `nil` to start empty.
    ///   - configuration: host, port, journal capacity… Defaults to `127.0.0.1`, a free port.
    ///   - failOnUnmatchedRequests: when `true`, the test fails at teardown if any request matched no
    ///     stub (see ``XCTAssertNoUnmatchedRequests(_:_:file:line:)``), reported at this call.
    /// - Returns: the running server.
    /// - Throws: ``StubServerError`` when the stubs do not load or the server cannot listen.
    public func startStubServer(
        stubs: URL? = nil,
        configuration: StubServer.Configuration = StubServer.Configuration(),
        failOnUnmatchedRequests: Bool = false,
        file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> StubServer {
        let server = try StubServer(stubs: stubs, configuration: configuration)
        try server.start()
        addTeardownBlock {
            if failOnUnmatchedRequests, let message = RequestVerification.noUnmatchedRequests(server) {
                reportFailure("failOnUnmatchedRequests: " + message, at: .xctest(file: file, line: line))
            }
            server.stop()
        }
        return server
    }
}
#endif
