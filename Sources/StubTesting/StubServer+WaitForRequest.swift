import Foundation

extension StubServer {
    /// Waits until the server has received `count` requests matching `pattern` — for UI tests, where
    /// the app sends its request whenever it gets to it — and returns them, oldest first.
    ///
    /// It wakes as soon as the request arrives (no polling). On timeout the test fails with the usual
    /// report (what was received, the closest requests and what differed), and the requests that did
    /// match are returned.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// let requests = await server.waitForRequest(matching: .get("/users/octocat"))
    /// #expect(requests.first?.request.headers["Accept"] == "application/vnd.github+json")
    /// ```
    /// - Parameters:
    ///   - pattern: the requests to wait for.
    ///   - count: how many matching requests to wait for (at least). Default 1.
    ///   - timeout: default 5 seconds.
    ///   - file: where a failure points; leave the default.
    ///   - line: where a failure points; leave the default.
    @discardableResult
    public func waitForRequest(
        matching pattern: RequestPattern, count: Int = 1, timeout: Duration = .seconds(5),
        file: StaticString = #filePath, line: UInt = #line
    ) async -> [LoggedRequest] {
        let requests = await awaitRequests(matching: pattern, count: count, timeout: timeout)
        if requests.count < count {
            reportFailure(
                RequestVerification.timedOut(
                    after: timeout, report: RequestVerification.requested(self, pattern, count: nil, atLeast: count)),
                at: .xctest(file: file, line: line), server: self)
        }
        return requests
    }
}

extension RequestVerification {
    /// `Timed out after 5 seconds waiting for at least one request matching …` and the usual report.
    static func timedOut(after timeout: Duration, report: String?) -> String {
        "Timed out after \(describe(timeout)) waiting: " + (report ?? "")
    }

    /// `2 seconds`, `1 second`, `0.05 seconds`.
    static func describe(_ duration: Duration) -> String { duration.inWords }
}
