#if canImport(XCTest)
    import Foundation
    import XCTest

    /// Asserts that the server behind `server` (a ``StubServerClient``, a `StubServerProcess` or an
    /// ``AnyStubServer``) received requests matching `pattern`: at least once, or exactly `count` times. The
    /// message is the one of ``XCTAssertRequested(_:_:count:_:file:line:)``.
    ///
    /// ```swift
    /// await XCTAssertRequested(client, .get("/users/octocat"), count: 1)
    /// ```
    public func XCTAssertRequested(
        _ server: some AsyncStubServerAdmin, _ pattern: RequestPattern, count: Int? = nil,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        let userMessage = message()
        let failure = await RemoteVerification.requested(server, pattern, count: count)
        await report(failure, adding: userMessage, at: .xctest(file: file, line: line), server: server)
    }

    /// Waits up to `timeout` seconds for the requests (see ``AsyncStubServerAdmin/waitForRequest(matching:count:timeout:file:line:)``),
    /// then asserts as ``XCTAssertRequested(_:_:count:_:file:line:)-(AsyncStubServerAdmin,_,_,_,_,_)`` does.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// await XCTAssertRequested(server, .get("/users/octocat"), count: 1, timeout: 5)
    /// ```
    public func XCTAssertRequested(
        _ server: some AsyncStubServerAdmin, _ pattern: RequestPattern, count: Int? = nil,
        timeout: TimeInterval, _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        let userMessage = message()
        let failure = await RemoteVerification.requested(server, pattern, count: count, within: .seconds(timeout))
        await report(failure, adding: userMessage, at: .xctest(file: file, line: line), server: server)
    }

    /// Asserts that every request the server behind `server` received matched a stub.
    ///
    /// ```swift
    /// await XCTAssertNoUnmatchedRequests(client)
    /// ```
    public func XCTAssertNoUnmatchedRequests(
        _ server: some AsyncStubServerAdmin, _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        let userMessage = message()
        let failure = await RemoteVerification.noUnmatchedRequests(server)
        await report(failure, adding: userMessage, at: .xctest(file: file, line: line), server: server)
    }
#endif
