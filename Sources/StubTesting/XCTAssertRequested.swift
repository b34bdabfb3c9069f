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
    ///   - server: the server whose journal is checked.
    ///   - pattern: the requests looked for.
    ///   - count: how many matching requests are expected; `nil` (the default) means at least one.
    ///   - message: added to the failure message.
    ///   - file: where a failure points; leave the default.
    ///   - line: where a failure points; leave the default.
    public func XCTAssertRequested(
        _ server: StubServer,
        _ pattern: RequestPattern,
        count: Int? = nil,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        report(
            RequestVerification.requested(server, pattern, count: count), adding: message,
            at: .xctest(file: file, line: line), server: server)
    }

    /// Asserts that every request `server` received matched a stub.
    ///
    /// ```swift
    /// XCTAssertNoUnmatchedRequests(server)
    /// ```
    /// The failure message lists the unmatched requests and, for the last few, the near-miss report (the
    /// closest stubs and what differed). Each unmatched request is reported once: a later check, such as
    /// `failOnUnmatchedRequests` at teardown, leaves out those already reported.
    /// `startStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:file:line:)`
    /// runs this check at teardown when `failOnUnmatchedRequests` is `true`.
    public func XCTAssertNoUnmatchedRequests(
        _ server: StubServer,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        report(
            RequestVerification.noUnmatchedRequests(server), adding: message, at: .xctest(file: file, line: line),
            server: server)
    }

    /// Asserts that every request `server` received since its last reset is one its OpenAPI documents allow
    /// (``StubServer/Configuration/openAPI``, ``StubServer/stub(openAPI:seed:)-(OpenAPIDocument,_)``): none broke its
    /// operation (a parameter, the body, its content type) and none asked for a method and path the documents do not
    /// have.
    ///
    /// ```swift
    /// server.stub(openAPI: try OpenAPIDocument.load(contentsOf: apiPath))
    /// app.launch()
    /// …
    /// XCTAssertRequestsFollowOpenAPI(server)
    /// ```
    /// The message names each request and each violation at its JSON pointer (`/query/limit: expected integer`).
    public func XCTAssertRequestsFollowOpenAPI(
        _ server: StubServer,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        report(
            RequestVerification.requestsFollowOpenAPI(server), adding: message, at: .xctest(file: file, line: line),
            server: server)
    }

    /// Asserts that every stub added to `server` at run time answered at least one request: a stub that
    /// nothing used usually means the app called another URL, or another stub always wins over it (the
    /// message says which).
    ///
    /// ```swift
    /// server.stub(.get("/users/octocat"), .json(["login": "octocat"]))
    /// …
    /// XCTAssertNoUnusedStubs(server)
    /// ```
    /// `startStubServer(stubs:configuration:failOnUnmatchedRequests:failOnUnusedStubs:file:line:)`
    /// runs this check at teardown when `failOnUnusedStubs` is `true`.
    public func XCTAssertNoUnusedStubs(
        _ server: StubServer,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        report(
            RequestVerification.noUnusedStubs(server), adding: message, at: .xctest(file: file, line: line),
            server: server)
    }
#endif

#if canImport(XCTest)
    /// Waits up to `timeout` seconds for `server` to receive requests matching `pattern` (at least once,
    /// or `count` times), then asserts as `XCTAssertRequested(_:_:count:_:file:line:)` does — for UI
    /// tests, where the app's request comes whenever the app sends it.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// XCTAssertRequested(server, .get("/users/octocat"), count: 1, timeout: 5)
    /// ```
    /// It waits with `XCTWaiter` on an expectation the server fulfils when the request arrives: no
    /// polling, and the main run loop keeps turning meanwhile. With `count`, it waits for `count` requests
    /// and then checks that there are exactly that many.
    public func XCTAssertRequested(
        _ server: StubServer,
        _ pattern: RequestPattern,
        count: Int? = nil,
        timeout: TimeInterval,
        _ message: @autoclosure () -> String = "",
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let expectation = XCTestExpectation(description: "request matching \(pattern.summary)")
        let cancel = server.whenReceived(pattern, count: max(1, count ?? 1)) { expectation.fulfill() }
        if count != 0 { _ = XCTWaiter().wait(for: [expectation], timeout: timeout) }
        cancel()
        let prefix = count == 0 ? "" : "After waiting \(timeout) seconds: "
        report(
            RequestVerification.requested(server, pattern, count: count).map { prefix + $0 }, adding: message,
            at: .xctest(file: file, line: line), server: server)
    }
#endif
