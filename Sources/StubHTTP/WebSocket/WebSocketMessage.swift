/// What a peer said, once a ``WebSocketMessageAssembler`` has joined its fragments: a whole data message, or a
/// control frame (which may arrive between the fragments of a message).
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message, validated as UTF-8.
    case text(String)
    /// A binary message.
    case binary([UInt8])
    /// A ping; answer with a pong carrying the same bytes.
    case ping([UInt8])
    /// A pong.
    case pong([UInt8])
    /// The closing handshake: the peer's code (nil for an empty close payload) and reason. Answer with a close
    /// frame, echoing the code.
    case close(code: WebSocketCloseCode?, reason: String)
}
