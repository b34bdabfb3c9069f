import StubHTTP

/// A WebSocket message as the server keeps it (``StubServer/webSocketConversation(matching:)``): which way it
/// went, its text (a binary message's bytes as UTF-8), and the connection's upgrade request.
public struct WebSocketMessageRecord: Sendable {
    /// Which way a message went.
    public enum Direction: String, Sendable, Hashable {
        /// From the client (the app) to the server.
        case received
        /// From the server to the client: a stub's script, or a test's send.
        case sent
    }

    public let direction: Direction
    /// The message's text, cut at 64 KiB (``isTruncated``); a binary message's bytes decoded as UTF-8.
    public let text: String
    public let isBinary: Bool
    /// The message was longer than 64 KiB, and ``text`` is its start.
    public let isTruncated: Bool
    /// The upgrade request of the connection it went over.
    public let request: StubHTTPRequest
    /// The connection's number: 1 for the first to open on this server, and so on (0 if it had closed).
    public let connection: UInt64

    package init(
        direction: Direction, text: String, isBinary: Bool, isTruncated: Bool, request: StubHTTPRequest,
        connection: UInt64
    ) {
        self.direction = direction
        self.text = text
        self.isBinary = isBinary
        self.isTruncated = isTruncated
        self.request = request
        self.connection = connection
    }

    /// `→ hello` for a message received, `← welcome` for one sent: how failure reports show a conversation.
    public var line: String {
        let arrow = direction == .received ? "→" : "←"
        let body = isBinary ? "(binary) \(Quoting.truncate(text, limit: 200))" : Quoting.truncate(text, limit: 200)
        return "\(arrow) \(body)\(isTruncated ? " … (cut at 64 KiB)" : "")"
    }
}
