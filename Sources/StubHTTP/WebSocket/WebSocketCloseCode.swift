/// A WebSocket close status code (RFC 6455 §7.4): the two bytes that open a close frame's payload.
///
/// ```swift
/// let frame = WebSocketFrame.close(code: .normalClosure, reason: "bye")
/// ```
public struct WebSocketCloseCode: Sendable, Hashable, CustomStringConvertible {
    /// The code as sent on the wire.
    public var rawValue: UInt16

    /// A code; any value, even one that may not be sent (see ``isValidInCloseFrame``).
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    /// 1000: the purpose of the connection was fulfilled.
    public static let normalClosure = WebSocketCloseCode(1000)
    /// 1001: the endpoint is going away (server shutting down, page navigated away).
    public static let goingAway = WebSocketCloseCode(1001)
    /// 1002: the peer broke the protocol (reserved bits or opcodes, bad fragmentation, unmasked client frame).
    public static let protocolError = WebSocketCloseCode(1002)
    /// 1003: a kind of data the endpoint cannot accept (binary to a text-only endpoint).
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// 1007: a text message or close reason that is not valid UTF-8.
    public static let invalidPayloadData = WebSocketCloseCode(1007)
    /// 1008: a message that violates the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(1008)
    /// 1009: a frame or message too big to process.
    public static let messageTooBig = WebSocketCloseCode(1009)
    /// 1010: (client) the server did not negotiate an extension the client requires.
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    /// 1011: the server met an unexpected condition.
    public static let internalError = WebSocketCloseCode(1011)

    /// Whether a peer may send this code in a close frame: 1000–1003, 1007–1011 (RFC 6455 §7.4.1 and the
    /// IANA registry) and 3000–4999 (libraries, frameworks and applications). 1004–1006 and 1015 are reserved
    /// for reporting and must never be sent; anything else is not assigned.
    public var isValidInCloseFrame: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }

    public var description: String { String(rawValue) }
}
