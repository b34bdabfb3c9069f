/// The checks behind ``XCTAssertRequested(_:_:count:_:file:line:)`` and
/// ``expectRequested(_:_:count:_:sourceLocation:)``: one place builds the failure messages for both
/// XCTest and Swift Testing.
///
/// A failure message reads:
/// ```text
/// Expected at least one request matching GET /users/octocat, received none.
///
/// Requests received (2, oldest first):
///   1. GET /users/octokat → 404 (Any other GitHub user: 404 Not Found)
///   2. GET /hello → 200 (Hello (liveness check))
///
/// Closest requests:
///   1. GET /users/octokat → 404 (Any other GitHub user: 404 Not Found)
///        url: expected urlPath "/users/octocat", got "/users/octokat"
/// ```
enum RequestVerification {
    /// Most requests listed in a message; the newest are kept.
    static let listLimit = 20
    /// Most near misses shown.
    static let nearMissLimit = 3

    /// `nil` if `server` received requests matching `pattern` `count` times (`nil`: at least once),
    /// else the failure message.
    static func requested(_ server: StubServer, _ pattern: RequestPattern, count: Int?) -> String? {
        let results = server.matchResults(for: pattern)
        let matching = results.count(where: { $0.result.isMatch })
        let passed = count.map { matching == $0 } ?? (matching > 0)
        if passed { return nil }

        var message = "Expected \(expectation(count)) matching \(pattern.summary), received \(times(matching))."
        message += "\n\n" + receivedList(results.map { ($0.request, $0.result.isMatch) }, server: server)
        let misses = results.filter { !$0.result.isMatch }
            .sorted { $0.result.distance < $1.result.distance }
            .prefix(nearMissLimit)
        if matching < (count ?? 1), !misses.isEmpty {
            message += "\nClosest requests:\n"
            for (index, miss) in misses.enumerated() {
                message += "  \(index + 1). \(miss.request)\n"
                for mismatch in miss.result.mismatches {
                    message += "       \(mismatch.rendered(limit: 200))\n"
                }
            }
        }
        return message
    }

    /// `nil` if no stub failed to match a request `server` received, else the failure message.
    static func noUnmatchedRequests(_ server: StubServer) -> String? {
        let unmatched = server.unmatchedRequests
        guard !unmatched.isEmpty else { return nil }
        let noun = unmatched.count == 1 ? "request" : "requests"
        var message = "\(unmatched.count) \(noun) matched no stub:\n"
        if unmatched.count > listLimit { message += "  (\(unmatched.count - listLimit) earlier not shown)\n" }
        for request in unmatched.suffix(listLimit) {
            message += "  \(request.request.method) \(request.request.target) → \(request.responseStatus)\n"
        }
        message += "The server's stderr log shows the closest stubs for each."
        return message
    }

    /// Prefixes the caller's message, XCTest style: `ours - theirs`.
    static func combine(_ message: String, with userMessage: String) -> String {
        guard !userMessage.isEmpty else { return message }
        guard let newline = message.firstIndex(of: "\n") else { return message + " - " + userMessage }
        return message[..<newline] + " - " + userMessage + message[newline...]
    }

    private static func expectation(_ count: Int?) -> String {
        switch count {
        case nil: "at least one request"
        case 1?: "exactly 1 request"
        case let count?: "exactly \(count) requests"
        }
    }

    private static func times(_ count: Int) -> String {
        switch count {
        case 0: "none"
        case 1: "1"
        default: "\(count)"
        }
    }

    /// `Requests received (N, oldest first):` and one line per request, matching ones marked.
    private static func receivedList(_ entries: [(LoggedRequest, Bool)], server: StubServer) -> String {
        guard !entries.isEmpty else { return "No requests were received.\n" }
        var list = "Requests received (\(entries.count), oldest first):\n"
        let shown = entries.suffix(listLimit)
        if entries.count > shown.count { list += "  (\(entries.count - shown.count) earlier not shown)\n" }
        for (offset, (request, isMatch)) in shown.enumerated() {
            let number = entries.count - shown.count + offset + 1
            list += "  \(number). \(request)\(isMatch ? "  ← matches" : "")\n"
        }
        let dropped = server.journal.droppedCount
        if dropped > 0 {
            list += "  (the journal dropped \(dropped) older requests; it keeps \(server.journal.capacity))\n"
        }
        return list
    }
}
