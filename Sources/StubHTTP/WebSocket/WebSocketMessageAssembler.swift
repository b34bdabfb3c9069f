/// Joins the frames a ``WebSocketFrameParser`` returns into ``WebSocketMessage``s (RFC 6455 §5.4): a message's
/// first frame (text or binary) and its continuation frames, with control frames handed back as they come,
/// between fragments too.
///
/// It refuses a continuation with no message started and a new message before the last one finished (1002),
/// a message over ``WebSocketLimits/maxMessageBytes`` (1009), and text that is not UTF-8 (1007), checked
/// fragment by fragment, so an invalid byte fails at the fragment that carries it. A close frame's payload is
/// checked too: a lone byte or a code that may not be sent (1002), a reason that is not UTF-8 (1007). After it
/// throws, the assembler is dead: every later call rethrows the same error.
public struct WebSocketMessageAssembler: Sendable {
    /// The limits this assembler enforces (``WebSocketLimits/maxMessageBytes``).
    public let limits: WebSocketLimits
    /// The data message being assembled: its opcode (text or binary) and bytes so far.
    private var partial: (opcode: WebSocketOpcode, bytes: [UInt8])?
    /// The partial text message's UTF-8 state.
    private var validator = WebSocketUTF8Validator()
    /// The error that stopped the assembler.
    private var failure: WebSocketError?

    /// An assembler enforcing `limits`.
    public init(limits: WebSocketLimits = WebSocketLimits()) {
        self.limits = limits
    }

    /// Whether a fragmented message has started and not finished.
    public var isAssembling: Bool { partial != nil }

    /// Takes the next frame; returns the message it completes, or nil when it was a fragment of one.
    /// - Throws: ``WebSocketError``; its ``WebSocketError/closeCode`` is the code to close with.
    public mutating func push(_ frame: WebSocketFrame) throws(WebSocketError) -> WebSocketMessage? {
        if let failure { throw failure }
        do {
            return try accept(frame)
        } catch {
            failure = error
            partial = nil
            throw error
        }
    }

    private mutating func accept(_ frame: WebSocketFrame) throws(WebSocketError) -> WebSocketMessage? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .continuation:
            guard var message = partial else {
                throw WebSocketError(.unexpectedContinuation, "a continuation frame with no message started")
            }
            partial = nil
            try append(frame.payload, to: &message.bytes, text: message.opcode == .text)
            guard frame.fin else {
                partial = message
                return nil
            }
            return try finish(message.opcode, message.bytes)
        case .text, .binary:
            guard partial == nil else {
                throw WebSocketError(
                    .expectedContinuation, "a new \(frame.opcode) frame before the fragmented message finished")
            }
            validator = WebSocketUTF8Validator()
            var bytes: [UInt8] = []
            try append(frame.payload, to: &bytes, text: frame.opcode == .text)
            guard frame.fin else {
                partial = (frame.opcode, bytes)
                return nil
            }
            return try finish(frame.opcode, bytes)
        }
    }

    /// Adds a fragment's bytes, checking the message's size and, for text, its UTF-8 so far.
    private mutating func append(_ payload: [UInt8], to bytes: inout [UInt8], text: Bool) throws(WebSocketError) {
        guard payload.count <= limits.maxMessageBytes - bytes.count else {
            throw WebSocketError(
                .messageTooLarge,
                "a message of more than \(limits.maxMessageBytes) bytes (\(bytes.count + payload.count) so far)")
        }
        if text, !validator.consume(payload) {
            throw WebSocketError(.invalidUTF8, "a text message that is not valid UTF-8")
        }
        bytes += payload
    }

    private func finish(_ opcode: WebSocketOpcode, _ bytes: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        guard opcode == .text else { return .binary(bytes) }
        guard validator.isAtBoundary else {
            throw WebSocketError(.invalidUTF8, "a text message that ends inside a UTF-8 sequence")
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    /// A close frame's payload read (RFC 6455 §5.5.1, §7.4.1): empty, or a valid code and a UTF-8 reason.
    private static func close(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketMessage {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else {
            throw WebSocketError(.invalidClosePayload, "a close frame with a 1-byte payload")
        }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidInCloseFrame else {
            throw WebSocketError(.invalidClosePayload, "a close frame with code \(code), which may not be sent")
        }
        var validator = WebSocketUTF8Validator()
        let reason = payload.dropFirst(2)
        guard validator.consume(reason), validator.isAtBoundary else {
            throw WebSocketError(.invalidUTF8, "a close frame whose reason is not valid UTF-8")
        }
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }
}
