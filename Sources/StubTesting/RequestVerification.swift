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
    /// Most unmatched requests whose near-miss report is included.
    static let reportLimit = 5
    /// Most near misses shown.
    static let nearMissLimit = 3

    /// `nil` if `server` received requests matching `pattern` `count` times (`nil`: at least once),
    /// else the failure message.
    static func requested(_ server: StubServer, _ pattern: RequestPattern, count: Int?, atLeast: Int = 1) -> String? {
        let results = server.matchResults(for: pattern)
        guard let message = requested(results, pattern, count: count, atLeast: atLeast, journal: server.journal) else {
            return nil
        }
        return message + shadowNotes(server, answered: results.suffix(listLimit).map(\.request))
    }

    /// The same check on a journal snapshot (`results`, oldest first), wherever it came from.
    /// - Parameter journal: the in-process journal, for the note on dropped entries; `nil` for a remote server.
    static func requested(
        _ results: [(request: LoggedRequest, result: MatchResult)], _ pattern: RequestPattern,
        count: Int?, atLeast: Int = 1, journal: RequestJournal?
    ) -> String? {
        let matching = results.count(where: { $0.result.isMatch })
        let passed = count.map { matching == $0 } ?? (matching >= atLeast)
        if passed { return nil }

        let wanted = count == nil && atLeast > 1 ? "at least \(atLeast) requests" : expectation(count)
        var message = "Expected \(wanted) matching \(pattern.summary), received \(times(matching))."
        message += "\n\n" + receivedList(results.map { ($0.request, $0.result.isMatch) }, journal: journal)
        let misses = results.filter { !$0.result.isMatch }
            .sorted { $0.result.distance < $1.result.distance }
            .prefix(nearMissLimit)
        if matching < (count ?? atLeast), !misses.isEmpty {
            message += "\nClosest requests:\n"
            for (index, miss) in misses.enumerated() {
                message += "  \(index + 1). \(miss.request)\n"
                for mismatch in miss.result.mismatches {
                    message += NearMissReport.indented(mismatch.renderedLines(limit: NearMissReport.valueLimit), by: 7)
                }
            }
        }
        return message
    }

    /// `nil` if every request `server` received since its last reset is one its OpenAPI documents allow, else the
    /// failure message: each request that breaks its operation, with each violation at its JSON pointer, and each
    /// request for a method and path no document has.
    static func requestsFollowOpenAPI(_ server: StubServer) -> String? {
        let findings = server.openAPIFindings
        guard !findings.isEmpty else { return nil }
        let noun =
            findings.count == 1
            ? "request the OpenAPI document does not allow" : "requests the OpenAPI documents do not allow"
        var message = "\(findings.count) \(noun):\n"
        if findings.count > listLimit { message += "  (\(findings.count - listLimit) earlier not shown)\n" }
        for finding in findings.suffix(listLimit) {
            message += NearMissReport.indented(finding.description.split(separator: "\n").map(String.init), by: 2)
        }
        return message
    }

    /// `nil` if no stub failed to match a request `server` received, else the failure message.
    ///
    /// Each unmatched request is reported once: the requests in a message are marked reported, and
    /// later checks (an explicit `XCTAssertNoUnmatchedRequests`, then `failOnUnmatchedRequests` at
    /// teardown) leave them out, saying how many were reported before.
    static func noUnmatchedRequests(_ server: StubServer) -> String? {
        let (new, earlier) = server.failureLedger.takeUnreported(server.unmatchedRequests)
        return noUnmatchedRequests(new, reportedEarlier: earlier)
    }

    /// The same check on a list of unmatched requests, wherever it came from.
    /// - Parameter reportedEarlier: unmatched requests already reported in this test, left out of the list.
    static func noUnmatchedRequests(_ unmatched: [LoggedRequest], reportedEarlier: Int = 0) -> String? {
        guard !unmatched.isEmpty else { return nil }
        let noun = unmatched.count == 1 ? "request" : "requests"
        var message = "\(unmatched.count) \(reportedEarlier > 0 ? "more " : "")\(noun) matched no stub"
        message += reportedEarlier > 0 ? " (\(reportedEarlier) reported above):\n" : ":\n"
        if unmatched.count > listLimit { message += "  (\(unmatched.count - listLimit) earlier not shown)\n" }
        for request in unmatched.suffix(listLimit) {
            message += "  \(request.request.method) \(request.request.target) → \(request.responseStatus)\n"
        }
        // The 404 the server sent is the near-miss report; it goes in the message itself, since
        // stderr is lost in Xcode's report and in parallel runs.
        for request in unmatched.suffix(reportLimit) {
            guard let body = request.response?.body, !body.isEmpty else { continue }
            message += "\n" + String(decoding: body, as: UTF8.self)
        }
        if unmatched.count > reportLimit {
            message += "\n(closest stubs shown for the last \(reportLimit) unmatched requests)\n"
        }
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
    private static func receivedList(_ entries: [(LoggedRequest, Bool)], journal: RequestJournal?) -> String {
        guard !entries.isEmpty else { return "No requests were received.\n" }
        var list = "Requests received (\(entries.count), oldest first):\n"
        let shown = entries.suffix(listLimit)
        if entries.count > shown.count { list += "  (\(entries.count - shown.count) earlier not shown)\n" }
        for (offset, (request, isMatch)) in shown.enumerated() {
            let number = entries.count - shown.count + offset + 1
            list += "  \(number). \(request)\(isMatch ? "  ← matches" : "")\n"
        }
        if let journal, journal.droppedCount > 0 {
            list += "  (the journal dropped \(journal.droppedCount) older requests; it keeps \(journal.capacity))\n"
        }
        return list
    }
}
