#if canImport(Testing)
import Testing

/// Expects `server` to have received requests matching `pattern`: at least once, or exactly `count`
/// times. Records an `Issue` listing the requests received and the closest ones, with what differed
/// (the same message as ``XCTAssertRequested(_:_:count:_:file:line:)``).
///
/// ```swift
/// expectRequested(server, .get("/users/octocat"))            // at least once
/// expectRequested(server, .get("/users/octocat"), count: 1)
/// expectRequested(server, .delete("/repos/x"), count: 0)     // never
/// ```
/// - Returns: whether the expectation held, for `guard`s that skip later checks.
@discardableResult
public func expectRequested(
    _ server: StubServer,
    _ pattern: RequestPattern,
    count: Int? = nil,
    _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let failure = RequestVerification.requested(server, pattern, count: count) else { return true }
    reportFailure(RequestVerification.combine(failure, with: comment()), at: .testing(sourceLocation))
    return false
}

/// Expects every request `server` received to have matched a stub; records an `Issue` listing those
/// that did not.
@discardableResult
public func expectNoUnmatchedRequests(
    _ server: StubServer,
    _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    guard let failure = RequestVerification.noUnmatchedRequests(server) else { return true }
    reportFailure(RequestVerification.combine(failure, with: comment()), at: .testing(sourceLocation))
    return false
}
#endif
