import StubKit

/// What a test's server checks when the test ends, as the `.stubServer` trait and
/// ``XCTestCase/startStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:file:line:)``
/// were asked: each failure message once, prefixed with the option that asked for it.
struct TeardownChecks: Sendable {
    /// Every request must have matched a stub; those already reported by an explicit
    /// `XCTAssertNoUnmatchedRequests`/`expectNoUnmatchedRequests` are not reported again.
    var failOnUnmatchedRequests = false
    /// Every stub added at run time must have answered a request.
    var failOnUnusedStubs = false
    /// The test the failures belong to, named in each message (`failOnUnmatchedRequests in testShowsOctocat: …`):
    /// XCTest reports them at the helper's call in `setUp`, not in the test.
    var testName: String?

    /// `failOnUnmatchedRequests: ` or, for a named test, `failOnUnmatchedRequests in testShowsOctocat: `.
    private func prefix(_ option: String) -> String {
        testName.map { "\(option) in \($0): " } ?? "\(option): "
    }

    /// The method's name in an XCTest `name`: `testShowsOctocat` from `-[ProfileTests testShowsOctocat]` (Apple)
    /// or `ProfileTests.testShowsOctocat` (Linux).
    static func testMethod(_ name: String) -> String {
        let trimmed = name.hasSuffix("]") ? String(name.dropLast()) : name
        return String(trimmed.split(whereSeparator: { $0 == " " || $0 == "." }).last ?? Substring(trimmed))
    }

    /// `configuration` for a server these checks watch: with `failOnUnmatchedRequests`, the test failure carries each
    /// unmatched request's near-miss report, so the server's log gives it one line instead of the report again
    /// (unless the test chose a logging mode other than the default).
    func serverConfiguration(_ configuration: StubServer.Configuration) -> StubServer.Configuration {
        guard failOnUnmatchedRequests, configuration.unmatchedRequestLogging == .full else { return configuration }
        var configuration = configuration
        configuration.unmatchedRequestLogging = .line
        configuration.unmatchedRequestLineNote = "its near-miss report is in the test's failOnUnmatchedRequests failure"
        return configuration
    }

    /// The failure messages for `server`; empty when every check passed.
    func failures(_ server: StubServer) -> [String] {
        var failures: [String] = []
        if failOnUnmatchedRequests, let message = RequestVerification.noUnmatchedRequests(server) {
            failures.append(prefix("failOnUnmatchedRequests") + message)
        }
        if failOnUnusedStubs, let message = RequestVerification.noUnusedStubs(server) {
            failures.append(prefix("failOnUnusedStubs") + message)
        }
        return failures
    }

    /// The failure messages for `server`, a server outside this process or in it, read over its admin API when
    /// outside: the unused stubs are those the test added through `server`.
    func failures(_ server: AnyStubServer) async -> [String] {
        if let local = server.inProcess { return failures(local) }
        var failures: [String] = []
        if failOnUnmatchedRequests, let message = await RemoteVerification.noUnmatchedRequests(server) {
            failures.append(prefix("failOnUnmatchedRequests") + message)
        }
        if failOnUnusedStubs, let message = await RemoteVerification.noUnusedStubs(server) {
            failures.append(prefix("failOnUnusedStubs") + message)
        }
        return failures
    }
}
