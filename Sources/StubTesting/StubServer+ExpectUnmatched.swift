extension StubServer {
    /// Requests matching `pattern` that no stub answers are expected in this test: `failOnUnmatchedRequests`,
    /// `XCTAssertNoUnmatchedRequests` and `expectNoUnmatchedRequests` leave them out, and still report every
    /// other unmatched request. For a test of an error screen or of `.thenNotFound`, without turning the
    /// check off for the suite.
    ///
    /// ```swift
    /// server.expectUnmatched(.get("/users/nobody"))
    /// // … the app shows "user not found" …
    /// ```
    ///
    /// The request still gets its 404 and is journaled as unmatched. Up to 256 patterns are kept per server
    /// (one per test); past that a pattern is ignored, so its requests are reported, never hidden.
    public func expectUnmatched(_ pattern: RequestPattern) {
        _ = failureLedger.expectUnmatched(pattern)
    }
}
