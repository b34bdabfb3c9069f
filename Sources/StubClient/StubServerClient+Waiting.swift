import Foundation
import StubKit

extension StubServerClient {
    /// First pause between two looks at the journal while waiting; it doubles up to ``longestPollInterval``.
    static let firstPollInterval: Duration = .milliseconds(10)
    /// Longest pause between two looks at the journal while waiting.
    static let longestPollInterval: Duration = .milliseconds(250)

    /// Suspends until the server has received `count` requests matching `pattern`, or `timeout` passes,
    /// and returns the matching requests, oldest first (fewer than `count` on timeout).
    ///
    /// The admin API has no way to push a request to the client, so this asks
    /// (`POST /__admin/requests/find`) every 10 ms at first, backing off to every 250 ms; requests
    /// received before the call count too. Cancelling the task ends the wait early.
    ///
    /// ```swift
    /// app.buttons["Search"].tap()
    /// let requests = try await client.awaitRequests(matching: .get("/users/octocat"), timeout: .seconds(5))
    /// ```
    /// - Throws: ``StubServerClientError`` if the server cannot be asked.
    public func awaitRequests(
        matching pattern: RequestPattern, count: Int = 1,
        timeout: Duration
    ) async throws -> [LoggedRequest] {
        let deadline = ContinuousClock.now + timeout
        var pause = Self.firstPollInterval
        while true {
            let matching = try await requests(matching: pattern)
            let now = ContinuousClock.now
            if matching.count >= count || now >= deadline || Task.isCancelled { return matching }
            try? await Task.sleep(for: min(pause, deadline - now))
            pause = min(pause * 2, Self.longestPollInterval)
        }
    }
}
