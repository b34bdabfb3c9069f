import StubModel

/// Why a GraphQL document could not be read: what was expected, and where (a UTF-8 byte offset).
struct GraphQLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String
    var offset: Int
    var description: String { "GraphQL syntax error at byte \(offset): \(message)" }
}

/// A lexical token of a GraphQL executable document (October 2021 spec, §2.1).
enum GraphQLToken: Equatable {
    /// `! $ & ( ) : = @ [ ] { | }`, or `...` (as `.`).
    case punctuator(UInt8)
    case name(String)
    case int(String)
    case float(String)
    /// A string or block string, by value (escapes resolved, block indentation removed).
    case string(String)
    case end

    var description: String {
        switch self {
        case .punctuator(UInt8(ascii: ".")): "'...'"
        case .punctuator(let byte): "'\(Character(Unicode.Scalar(byte)))'"
        case .name(let name): "name '\(name)'"
        case .int(let text), .float(let text): "number \(text)"
        case .string: "a string"
        case .end: "the end of the document"
        }
    }
}

/// Splits a GraphQL document into tokens, skipping whitespace, commas, comments and a byte order mark.
struct GraphQLLexer {
    /// The largest document read: 1 MiB.
    static let maxBytes = 1 << 20
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ text: String) throws(GraphQLSyntaxError) {
        bytes = Array(text.utf8)
        guard bytes.count <= Self.maxBytes else {
            throw GraphQLSyntaxError(
                message: "the document is \(bytes.count) bytes; at most \(Self.maxBytes) are read", offset: 0)
        }
    }

    private func error(_ message: String, at offset: Int) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message: message, offset: offset)
    }

    private func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }

    static func isNameStart(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
            || b == UInt8(ascii: "_")
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func skipIgnored() {
        while let b = byte(offset) {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","): offset += 1
            case 0xEF where byte(offset + 1) == 0xBB && byte(offset + 2) == 0xBF: offset += 3
            case UInt8(ascii: "#"):
                while let c = byte(offset), c != 0x0A, c != 0x0D { offset += 1 }
            default: return
            }
        }
    }

    /// The next token and the byte offset it starts at.
    mutating func next() throws(GraphQLSyntaxError) -> (token: GraphQLToken, offset: Int) {
        skipIgnored()
        let start = offset
        guard let b = byte(offset) else { return (.end, start) }
        switch b {
        case UInt8(ascii: "."):
            guard byte(offset + 1) == b, byte(offset + 2) == b else { throw error("expected '...'", at: start) }
            offset += 3
            return (.punctuator(b), start)
        case _ where "!$&():=@[]{|}".utf8.contains(b):
            offset += 1
            return (.punctuator(b), start)
        case _ where Self.isNameStart(b):
            while let c = byte(offset), Self.isNameStart(c) || Self.isDigit(c) { offset += 1 }
            return (.name(String(decoding: bytes[start..<offset], as: UTF8.self)), start)
        case _ where Self.isDigit(b) || b == UInt8(ascii: "-"):
            return (try number(), start)
        case UInt8(ascii: "\""):
            if byte(offset + 1) == b, byte(offset + 2) == b { return (.string(try blockString()), start) }
            return (.string(try string()), start)
        default:
            let shown = b < 0x80 && b >= 0x20 ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
            throw error("unexpected character \(shown)", at: start)
        }
    }

    private mutating func digits(required: Bool) throws(GraphQLSyntaxError) {
        let start = offset
        while let c = byte(offset), Self.isDigit(c) { offset += 1 }
        if required, offset == start { throw error("expected a digit", at: offset) }
    }

    private mutating func number() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = offset
        if byte(offset) == UInt8(ascii: "-") { offset += 1 }
        if byte(offset) == UInt8(ascii: "0") {
            offset += 1
            if let c = byte(offset), Self.isDigit(c) { throw error("a number may not start with 0", at: start) }
        } else {
            try digits(required: true)
        }
        var isFloat = false
        if byte(offset) == UInt8(ascii: ".") {
            isFloat = true
            offset += 1
            try digits(required: true)
        }
        if let e = byte(offset), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isFloat = true
            offset += 1
            if let s = byte(offset), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { offset += 1 }
            try digits(required: true)
        }
        if let c = byte(offset), c == UInt8(ascii: ".") || Self.isNameStart(c) {
            throw error("unexpected character after the number", at: offset)
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        return isFloat ? .float(text) : .int(text)
    }

    private mutating func string() throws(GraphQLSyntaxError) -> String {
        let start = offset
        offset += 1
        var value: [UInt8] = []
        while true {
            guard let c = byte(offset), c != 0x0A, c != 0x0D else {
                throw error("unterminated string", at: start)
            }
            offset += 1
            if c == UInt8(ascii: "\"") { break }
            guard c == UInt8(ascii: "\\") else {
                value.append(c)
                continue
            }
            guard let e = byte(offset) else { throw error("unterminated string", at: start) }
            offset += 1
            if let unescaped = JSONParser.unescaped(e) {
                value.append(unescaped)
            } else if e == UInt8(ascii: "u") {
                value.append(contentsOf: try unicodeEscape())
            } else {
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'", at: offset - 2)
            }
        }
        return String(decoding: value, as: UTF8.self)
    }

    private mutating func hex4() throws(GraphQLSyntaxError) -> UInt32 {
        guard offset + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16),
            bytes[offset..<offset + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw error("expected four hex digits after '\\u'", at: offset) }
        offset += 4
        return value
    }

    /// `\uXXXX` (a surrogate pair as two escapes) as UTF-8.
    private mutating func unicodeEscape() throws(GraphQLSyntaxError) -> [UInt8] {
        let start = offset - 2
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard byte(offset) == UInt8(ascii: "\\"), byte(offset + 1) == UInt8(ascii: "u") else {
                throw error("a high surrogate must be followed by a low one", at: start)
            }
            offset += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("a high surrogate must be followed by a low one", at: start)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid Unicode escape", at: start) }
        return Array(String(Character(unicode)).utf8)
    }

    /// A `"""` block string, its value per the spec's BlockStringValue (common indentation and blank first
    /// and last lines removed).
    private mutating func blockString() throws(GraphQLSyntaxError) -> String {
        let start = offset
        offset += 3
        var raw: [UInt8] = []
        while true {
            guard let c = byte(offset) else { throw error("unterminated block string", at: start) }
            if c == UInt8(ascii: "\""), byte(offset + 1) == c, byte(offset + 2) == c {
                offset += 3
                break
            }
            if c == UInt8(ascii: "\\"), byte(offset + 1) == UInt8(ascii: "\""), byte(offset + 2) == UInt8(ascii: "\""),
                byte(offset + 3) == UInt8(ascii: "\"")
            {
                raw.append(contentsOf: Array("\"\"\"".utf8))
                offset += 4
                continue
            }
            raw.append(c)
            offset += 1
        }
        return Self.blockStringValue(String(decoding: raw, as: UTF8.self))
    }

    static func blockStringValue(_ raw: String) -> String {
        var lines = raw.replacingLineBreaks().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func indent(_ line: String) -> Int { line.prefix { $0 == " " || $0 == "\t" }.count }
        let common = lines.dropFirst().filter { indent($0) < $0.count }.map(indent).min()
        if let common {
            for index in lines.indices.dropFirst() { lines[index] = String(lines[index].dropFirst(common)) }
        }
        func blank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }
        while let first = lines.first, blank(first) { lines.removeFirst() }
        while let last = lines.last, blank(last) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// `\r\n` and `\r` as `\n`.
    fileprivate func replacingLineBreaks() -> String {
        var result = ""
        var previousCR = false
        for scalar in unicodeScalars {
            if scalar == "\r" {
                result.append("\n")
                previousCR = true
                continue
            }
            if scalar == "\n", previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
