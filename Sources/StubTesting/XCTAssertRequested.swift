#if canImport(XCTest)
import XCTest

/// Asserts that `server` received requests matching `pattern`: at least once, or exactly `count` times.
///
/// On failure the message lists the requests actually received (method, target, status and stub) and
/// the closest ones with what differed:
/// ```text
/// Expected exactly 1 request matching GET /users/octocat, received none.
///
/// Requests received (1, oldest first):
///   1. GET /users/octokat → 404 (Any other GitHub user: 404 Not Found)
///
/// Closest requests:
///   1. GET /users/octokat → 404 (Any other GitHub user: 404 Not Found)
///        url: expected urlPath "/users/octocat", got "/users/octokat"
/// ```
/// ```swift
/// XCTAssertRequested(server, .get("/users/octocat"))                       // at least once
/// XCTAssertRequested(server, .post("/repos").withJSONPath("$.name"), count: 1)
/// XCTAssertRequested(server, .get("/users/octocat/repos"), count: 0)       // never
/// ```
/// Also works inside a Swift Testing test (it then records an `Issue`).
/// - Parameters:
///   - count: how many matching requests are expected; `nil` (the default) means at least one.
///   - message: added to the failure message.
public func XCTAssertRequested(
    _ server: StubServer,
    _ pattern: RequestPattern,
    count: Int? = nil,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    guard let failure = RequestVerification.requested(server, pattern, count: count) else { return }
    reportFailure(RequestVerification.combine(failure, with: message()), at: .xctest(file: file, line: line))
}

/// Asserts that every request `server` received matched a stub.
///
/// ```swift
/// XCTAssertNoUnmatchedRequests(server)
/// ```
/// The failure message lists the unmatched requests; the server's stderr log has the near-miss report
/// for each. ``XCTestCase/startStubServer(stubs:configuration:failOnUnmatchedRequests:file:line:)``
/// runs this check at teardown when `failOnUnmatchedRequests` is `true`.
public func XCTAssertNoUnmatchedRequests(
    _ server: StubServer,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    guard let failure = RequestVerification.noUnmatchedRequests(server) else { return }
    reportFailure(RequestVerification.combine(failure, with: message()), at: .xctest(file: file, line: line))
}
#endif
