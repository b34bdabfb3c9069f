extension JSONByteParser {
    /// Parses a string starting at the opening quote; validates UTF-8 and decodes escapes.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var buffer: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else {
                throw error("unterminated string")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try parseEscape(into: &buffer)
                runStart = index
            case 0x00..<0x20:
                throw error("control character U+\(hex(UInt32(byte), width: 4)) must be escaped in a string")
            case 0x80...:
                guard let length = utf8SequenceLength(at: index) else {
                    throw error("invalid UTF-8 byte 0x\(hex(UInt32(byte), width: 2)) in string")
                }
                index += length
            default:
                index += 1
            }
        }
    }

    /// Decodes one escape sequence at `index` (the backslash) and appends its UTF-8.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard let kind = peek() else { throw error("unterminated string") }
        if let byte = JSONParser.unescaped(kind) {
            buffer.append(byte)
            index += 1
            return
        }
        guard kind == UInt8(ascii: "u") else { throw error("invalid escape '\\\(describeEscape(kind))' in string") }
        index += 1
        let unit = try parseHex4()
        var scalarValue = UInt32(unit)
        if (0xD800...0xDBFF).contains(unit) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                index = escapeStart
                throw error("high surrogate \\u\(hex(UInt32(unit), width: 4)) not followed by a low surrogate")
            }
            let lowStart = index
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                index = lowStart
                throw error("high surrogate \\u\(hex(UInt32(unit), width: 4)) not followed by a low surrogate")
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            index = escapeStart
            throw error("unpaired low surrogate \\u\(hex(UInt32(unit), width: 4))")
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            index = escapeStart
            throw error("invalid unicode escape")
        }
        buffer.append(contentsOf: Array(String(scalar).utf8))
    }

    private func describeEscape(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "U+\(hex(UInt32(byte), width: 4))"
    }

    /// Reads four hex digits at `index`.
    private mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("unterminated string") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected 4 hex digits after '\\u'")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence starting at `position`, or `nil` if it is
    /// ill-formed (overlong, surrogate, above U+10FFFF, truncated).
    func utf8SequenceLength(at position: Int) -> Int? {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return nil
        }
        guard position + length <= bytes.count, secondRange.contains(bytes[position + 1]) else { return nil }
        for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }
}

extension JSONParser {
    /// The byte a one-letter escape stands for: `"`, `\` and `/` themselves, `b`, `f`, `n`, `r` and `t` their
    /// control characters; `nil` for `u` (four hex digits follow) and for a letter that is no escape. GraphQL's
    /// strings escape as JSON's do.
    package static func unescaped(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }
}
