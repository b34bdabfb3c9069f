#if canImport(Testing)
    import Testing

    /// Expects the server behind `server` (a ``StubServerClient``, a `StubServerProcess` or an
    /// ``AnyStubServer``) to have received requests matching `pattern` (see
    /// `expectRequested(_:_:count:_:sourceLocation:)`).
    ///
    /// ```swift
    /// await expectRequested(client, .get("/users/octocat"), count: 1)
    /// ```
    @discardableResult
    public func expectRequested(
        _ server: some AsyncStubServerAdmin, _ pattern: RequestPattern, count: Int? = nil,
        _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let userComment = comment()
        let failure = await RemoteVerification.requested(server, pattern, count: count)
        return await report(failure, adding: userComment, at: .testing(sourceLocation), server: server)
    }

    /// Waits up to `within` for the requests, then expects as `expectRequested(_:_:count:_:sourceLocation:)`.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// await expectRequested(server, .get("/users/octocat"), within: .seconds(5))
    /// ```
    @discardableResult
    public func expectRequested(
        _ server: some AsyncStubServerAdmin, _ pattern: RequestPattern, count: Int? = nil,
        within timeout: Duration, _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let userComment = comment()
        let failure = await RemoteVerification.requested(server, pattern, count: count, within: timeout)
        return await report(failure, adding: userComment, at: .testing(sourceLocation), server: server)
    }

    /// Expects every request the server behind `server` received to have matched a stub.
    @discardableResult
    public func expectNoUnmatchedRequests(
        _ server: some AsyncStubServerAdmin, _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        let userComment = comment()
        let failure = await RemoteVerification.noUnmatchedRequests(server)
        return await report(failure, adding: userComment, at: .testing(sourceLocation), server: server)
    }
#endif
