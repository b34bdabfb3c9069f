/// What a test's server checks when the test ends, as the `.stubServer` trait and
/// ``XCTestCase/startStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:file:line:)``
/// were asked: each failure message once, prefixed with the option that asked for it.
struct TeardownChecks: Sendable {
    /// Every request must have matched a stub; those already reported by an explicit
    /// `XCTAssertNoUnmatchedRequests`/`expectNoUnmatchedRequests` are not reported again.
    var failOnUnmatchedRequests = false
    /// Every stub added at run time must have answered a request.
    var failOnUnusedStubs = false

    /// The failure messages for `server`; empty when every check passed.
    func failures(_ server: StubServer) -> [String] {
        var failures: [String] = []
        if failOnUnmatchedRequests, let message = RequestVerification.noUnmatchedRequests(server) {
            failures.append("failOnUnmatchedRequests: " + message)
        }
        if failOnUnusedStubs, let message = RequestVerification.noUnusedStubs(server) {
            failures.append("failOnUnusedStubs: " + message)
        }
        return failures
    }
}
