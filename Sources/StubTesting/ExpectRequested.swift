#if canImport(Testing)
    import Testing

    /// Expects `server` to have received requests matching `pattern`: at least once, or exactly `count`
    /// times. Records an `Issue` listing the requests received and the closest ones, with what differed
    /// (the same message as `XCTAssertRequested(_:_:count:_:file:line:)`).
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
        return report(
            RequestVerification.requested(server, pattern, count: count), adding: comment, at: .testing(sourceLocation),
            server: server)
    }

    /// Waits up to `within` for `server` to receive requests matching `pattern` (at least once, or
    /// `count` times), then expects as `expectRequested(_:_:count:_:sourceLocation:)` does. It wakes
    /// when the request arrives, without polling.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// await expectRequested(server, .get("/users/octocat"), within: .seconds(5))
    /// ```
    @discardableResult
    public func expectRequested(
        _ server: StubServer,
        _ pattern: RequestPattern,
        count: Int? = nil,
        within timeout: Duration,
        _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        if count != 0 { _ = await server.awaitRequests(matching: pattern, count: max(1, count ?? 1), timeout: timeout) }
        let prefix = count == 0 ? "" : "After waiting \(RequestVerification.describe(timeout)): "
        return report(
            RequestVerification.requested(server, pattern, count: count).map { prefix + $0 }, adding: comment,
            at: .testing(sourceLocation), server: server)
    }

    /// Expects every request `server` received to have matched a stub; records an `Issue` listing those
    /// that did not.
    @discardableResult
    public func expectNoUnmatchedRequests(
        _ server: StubServer,
        _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        return report(
            RequestVerification.noUnmatchedRequests(server), adding: comment, at: .testing(sourceLocation),
            server: server)
    }

    /// Expects every request `server` received since its last reset to be one its OpenAPI documents allow;
    /// records an `Issue` naming each request that broke its operation (each violation at its JSON pointer) or
    /// asked for a method and path the documents do not have.
    ///
    /// ```swift
    /// @Test(.stubServer()) func profile() async throws {
    ///     let server = try #require(StubServer.current)
    ///     server.stub(openAPI: try OpenAPIDocument.load(contentsOf: apiPath))
    ///     …
    ///     expectRequestsFollowOpenAPI(server)
    /// }
    /// ```
    @discardableResult
    public func expectRequestsFollowOpenAPI(
        _ server: StubServer,
        _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        return report(
            RequestVerification.requestsFollowOpenAPI(server), adding: comment, at: .testing(sourceLocation),
            server: server)
    }

    /// Expects every stub added to `server` at run time to have answered at least one request; records an
    /// `Issue` listing those that did not, and why when another stub always wins over them.
    ///
    /// ```swift
    /// @Test(.stubServer(stubsNamed: "Stubs", failOnUnusedStubs: true))   // or, at the end of a test:
    /// expectNoUnusedStubs(server)
    /// ```
    @discardableResult
    public func expectNoUnusedStubs(
        _ server: StubServer,
        _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        return report(
            RequestVerification.noUnusedStubs(server), adding: comment, at: .testing(sourceLocation), server: server)
    }
#endif
