/// Writes ``WebSocketFrame``s as wire bytes (RFC 6455 §5.2): the shortest length encoding, and the payload
/// masked when the frame has a masking key (a client's frames). A server's frames have none.
public enum WebSocketFrameSerializer {
    /// The wire bytes of `frame`.
    public static func serialize(_ frame: WebSocketFrame) -> [UInt8] {
        var bytes = header(frame)
        let start = bytes.count
        bytes += frame.payload
        if let key = frame.maskingKey {
            var payload = Array(bytes[start...])
            key.apply(to: &payload)
            bytes.replaceSubrange(start..., with: payload)
        }
        return bytes
    }

    /// The header of `frame`: the first two bytes, the extended length, and the masking key if any.
    public static func header(_ frame: WebSocketFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(14)
        bytes.append((frame.fin ? 0x80 : 0) | (frame.reservedBits & 0x7) << 4 | frame.opcode.rawValue)
        let mask: UInt8 = frame.maskingKey == nil ? 0 : 0x80
        let length = frame.payload.count
        if length <= 125 {
            bytes.append(mask | UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(mask | 126)
            bytes += [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        } else {
            bytes.append(mask | 127)
            let wide = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: wide >> shift)) }
        }
        if let key = frame.maskingKey { bytes += key.bytes }
        return bytes
    }
}
