/// What a WebSocket frame carries (RFC 6455 §5.2). The reserved opcodes (3–7, 11–15) have no case: a frame
/// with one fails to parse.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    /// 0x0: the next fragment of a text or binary message.
    case continuation = 0x0
    /// 0x1: a UTF-8 text message, or its first fragment.
    case text = 0x1
    /// 0x2: a binary message, or its first fragment.
    case binary = 0x2
    /// 0x8: the closing handshake, with an optional code and reason.
    case close = 0x8
    /// 0x9: a ping; the peer answers with a pong carrying the same payload.
    case ping = 0x9
    /// 0xA: a pong, answering a ping or unsolicited (a heartbeat).
    case pong = 0xA

    /// Whether this is a control opcode (close, ping, pong): at most 125 bytes, never fragmented, allowed
    /// between the fragments of a message.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
