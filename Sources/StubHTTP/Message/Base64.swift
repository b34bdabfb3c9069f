/// Standard base64 (RFC 4648 §4): stub files' `base64Body`, the journal's bodies, and the WebSocket handshake's
/// `Sec-WebSocket-Key` and `Sec-WebSocket-Accept`. Decoding accepts missing padding and ignores ASCII whitespace
/// (line-wrapped bodies), and rejects anything else with the offending position.
package enum Base64 {
    /// Why a base64 string could not be decoded.
    package struct DecodingError: Error, CustomStringConvertible {
        package let description: String
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded base64 text of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = (0..<3).map { index + $0 < bytes.count ? UInt32(bytes[index + $0]) : 0 }
            let value = chunk[0] << 16 | chunk[1] << 8 | chunk[2]
            let available = min(3, bytes.count - index)
            for position in 0..<4 {
                output.append(
                    position <= available
                        ? alphabet[Int(value >> (18 - 6 * UInt32(position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes; throws on a character outside the alphabet, data after padding, or a truncated
    /// final group.
    package static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for (position, byte) in text.utf8.enumerated() {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: " "), 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "="):
                padding += 1
                continue
            default:
                throw DecodingError(description: "unexpected character at offset \(position)")
            }
            guard padding == 0 else { throw DecodingError(description: "data after '=' padding at offset \(position)") }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // 6 leftover bits can never be a whole byte: the input was truncated.
        guard bits < 6, padding <= 2 else { throw DecodingError(description: "truncated input") }
        return output
    }
}
