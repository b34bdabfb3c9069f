import Foundation

/// One request the server received, as the journal keeps it.
public struct LoggedRequest: Sendable, Identifiable {
    /// The stub that answered a request.
    public struct MatchedStub: Sendable, Hashable {
        public var id: String
        public var name: String?
        /// How the stub is named in logs: its name, else its source file, else its id.
        public var displayName: String
    }

    /// Increasing sequence number, unique per server.
    public let id: Int
    /// When the request was received (complete).
    public let receivedAt: Date
    /// The request as received.
    public let request: HTTPRequest
    /// The stub that answered it, or `nil` if none matched.
    public let matchedStub: MatchedStub?
    /// The status sent back.
    public let responseStatus: Int

    /// Whether a stub answered the request.
    public var wasMatched: Bool { matchedStub != nil }
}

extension LoggedRequest: CustomStringConvertible {
    /// `GET /users/octocat → 200 (GitHub user octocat)`
    public var description: String {
        "\(request.method) \(request.target) → \(responseStatus) (\(matchedStub?.displayName ?? "no match"))"
    }
}
