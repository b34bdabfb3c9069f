/// How much the server logs for a request no stub matched (`--log-unmatched`).
public enum UnmatchedRequestLogging: String, Sendable, CaseIterable {
    /// The near-miss report (the request and the closest stubs) for the first unmatched request of each
    /// method and target in a minute; its repeats within that minute get one line each. The default.
    case full
    /// One line per unmatched request: `stubserver: no stub matched GET /nope → 404`.
    case line
    /// Nothing. The journal and the 404 body still carry the near-miss report.
    case none
}
