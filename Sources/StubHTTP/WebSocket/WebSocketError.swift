/// Why a WebSocket peer's bytes were refused, and the close code to answer with before closing
/// (RFC 6455 §7.1.7: fail the connection).
///
/// ```swift
/// do { ... } catch {
///     send(WebSocketFrame.close(code: error.closeCode, reason: error.detail))
/// }
/// ```
public struct WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// A frame with RSV1, RSV2 or RSV3 set while no extension was negotiated. 1002.
        case reservedBits
        /// A frame with an opcode RFC 6455 reserves (3–7, 11–15). 1002.
        case reservedOpcode
        /// A control frame (close, ping, pong) that is fragmented or carries more than 125 bytes. 1002.
        case invalidControlFrame
        /// A client frame without a masking key (RFC 6455 §5.1: the server must close). 1002.
        case unmaskedFrame
        /// A 64-bit payload length with its most significant bit set. 1002.
        case invalidLength
        /// A frame whose payload exceeds ``WebSocketLimits/maxFramePayloadBytes``. 1009.
        case frameTooLarge
        /// A message whose fragments together exceed ``WebSocketLimits/maxMessageBytes``. 1009.
        case messageTooLarge
        /// A continuation frame with no fragmented message in progress. 1002.
        case unexpectedContinuation
        /// A text or binary frame while a fragmented message still waits for its continuation frames. 1002.
        case expectedContinuation
        /// A text message, or a close frame's reason, that is not valid UTF-8. 1007.
        case invalidUTF8
        /// A close frame with a 1-byte payload, or a close code that may not be sent. 1002.
        case invalidClosePayload
    }

    /// What went wrong.
    public var kind: Kind
    /// A sentence for logs and for the close frame's reason.
    public var detail: String

    /// An error of `kind`, explained by `detail`.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The close code to send (RFC 6455 §7.4.1): 1009 for sizes, 1007 for invalid UTF-8, 1002 otherwise.
    public var closeCode: WebSocketCloseCode {
        switch kind {
        case .frameTooLarge, .messageTooLarge: .messageTooBig
        case .invalidUTF8: .invalidPayloadData
        case .reservedBits, .reservedOpcode, .invalidControlFrame, .unmaskedFrame, .invalidLength,
            .unexpectedContinuation, .expectedContinuation, .invalidClosePayload:
            .protocolError
        }
    }

    public var description: String { "\(closeCode) \(detail)" }
}
