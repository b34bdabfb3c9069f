/// The 4-byte key a client masks its frames' payload with (RFC 6455 §5.3): payload byte `i` is XOR-ed with
/// key byte `i % 4`. Masking again with the same key unmasks.
public struct WebSocketMaskingKey: Sendable, Hashable {
    /// The four bytes as they appear on the wire.
    public var bytes: [UInt8]

    /// A key from its four wire bytes; `nil` unless there are exactly four.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 4 else { return nil }
        self.bytes = bytes
    }

    /// XORs `payload` with the key in place; `offset` is how many bytes of the frame's payload come before it.
    public func apply(to payload: inout [UInt8], offset: Int = 0) {
        payload.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] ^= bytes[(index + offset) & 3] }
        }
    }
}

/// One WebSocket frame (RFC 6455 §5.2) with its payload unmasked.
///
/// ```swift
/// let hello = WebSocketFrame.text("Hello")
/// let bytes = WebSocketFrameSerializer.serialize(hello)   // 0x81 0x05 "Hello"
/// ```
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the final fragment of its message (always `true` for control frames).
    public var fin: Bool
    /// RSV1, RSV2 and RSV3 as the low three bits (RSV1 = 0b100); zero unless an extension defines them.
    public var reservedBits: UInt8
    /// What the frame carries.
    public var opcode: WebSocketOpcode
    /// The key the payload was (or is to be) masked with: a client's frames have one, a server's never do.
    public var maskingKey: WebSocketMaskingKey?
    /// The application data, unmasked.
    public var payload: [UInt8]

    /// A frame; `payload` is the unmasked data.
    public init(
        fin: Bool = true, reservedBits: UInt8 = 0, opcode: WebSocketOpcode, maskingKey: WebSocketMaskingKey? = nil,
        payload: [UInt8] = []
    ) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// A single-frame text message.
    public static func text(_ text: String) -> WebSocketFrame {
        WebSocketFrame(opcode: .text, payload: Array(text.utf8))
    }

    /// A single-frame binary message.
    public static func binary(_ bytes: [UInt8]) -> WebSocketFrame {
        WebSocketFrame(opcode: .binary, payload: bytes)
    }

    /// A ping; its application data is cut to the 125 bytes a control frame may carry.
    public static func ping(_ bytes: [UInt8] = []) -> WebSocketFrame {
        WebSocketFrame(opcode: .ping, payload: Array(bytes.prefix(125)))
    }

    /// A pong, answering a ping with its application data (cut to 125 bytes).
    public static func pong(_ bytes: [UInt8] = []) -> WebSocketFrame {
        WebSocketFrame(opcode: .pong, payload: Array(bytes.prefix(125)))
    }

    /// A close frame: the code in two bytes, then `reason` in UTF-8, cut at a character boundary to fit the
    /// 125 bytes of a control frame. With no code, an empty payload (the reason is then ignored).
    public static func close(code: WebSocketCloseCode?, reason: String = "") -> WebSocketFrame {
        guard let code else { return WebSocketFrame(opcode: .close) }
        var payload = [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        for character in reason {
            let utf8 = Array(String(character).utf8)
            guard payload.count + utf8.count <= 125 else { break }
            payload += utf8
        }
        return WebSocketFrame(opcode: .close, payload: payload)
    }
}
