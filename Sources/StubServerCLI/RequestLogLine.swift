import StubKit

/// The `--verbose` line for one request: method, target, status, the stub or "no match", time taken.
///
///     GET /users/octocat → 200 "GitHub user octocat" in 0.08 ms
struct RequestLogLine {
    let text: String

    init(_ entry: LoggedRequest, duration: Duration) {
        let stub = entry.matchedStub.map { "\"\($0.displayName)\"" } ?? "no match"
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        let rounded = (milliseconds * 100).rounded() / 100
        text = "\(entry.request.method) \(entry.request.target) → \(entry.responseStatus) \(stub) in \(rounded) ms"
    }
}
