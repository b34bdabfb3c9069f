/// A token of an XPath 1.0 expression.
enum XPathToken: Sendable, Equatable {
    case slash, doubleSlash, leftBracket, rightBracket, leftParen, rightParen, at, dot, dotDot, comma, pipe
    case star, plus, minus, equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    /// `and`, `or`, `div`, `mod` where an operator is expected.
    case operatorName(String)
    /// A name test or function name: `a`, `p:a`, `p:*`.
    case name(String)
    /// `child::` and the other axes.
    case axis(String)
    case literal(String)
    case number(Double)
}

/// Splits an XPath expression into tokens, following the spec's disambiguation rules.
enum XPathLexer {
    static func tokens(_ text: String) throws(XPathError) -> [XPathToken] {
        let bytes = Array(text.utf8)
        var tokens: [XPathToken] = []
        var index = 0
        func isNameStart(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte >= 0x80
        }
        func isNameByte(_ byte: UInt8) -> Bool {
            isNameStart(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        /// Whether the previous token makes `*` and names operators (XPath 1.0 section 3.7).
        func operatorExpected() -> Bool {
            guard let last = tokens.last else { return false }
            switch last {
            case .at, .axis, .leftParen, .leftBracket, .comma, .slash, .doubleSlash, .pipe, .plus, .minus, .equal,
                .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .operatorName:
                return false
            case .rightBracket, .rightParen, .dot, .dotDot, .star, .name, .literal, .number: return true
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : nil
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "/"):
                if next == UInt8(ascii: "/") {
                    tokens.append(.doubleSlash)
                    index += 2
                } else {
                    tokens.append(.slash)
                    index += 1
                }
            case UInt8(ascii: "["): tokens.append(.leftBracket); index += 1
            case UInt8(ascii: "]"): tokens.append(.rightBracket); index += 1
            case UInt8(ascii: "("): tokens.append(.leftParen); index += 1
            case UInt8(ascii: ")"): tokens.append(.rightParen); index += 1
            case UInt8(ascii: "@"): tokens.append(.at); index += 1
            case UInt8(ascii: ","): tokens.append(.comma); index += 1
            case UInt8(ascii: "|"): tokens.append(.pipe); index += 1
            case UInt8(ascii: "+"): tokens.append(.plus); index += 1
            case UInt8(ascii: "-"): tokens.append(.minus); index += 1
            case UInt8(ascii: "="): tokens.append(.equal); index += 1
            case UInt8(ascii: "*"):
                tokens.append(operatorExpected() ? .operatorName("*") : .star)
                index += 1
            case UInt8(ascii: "!"):
                guard next == UInt8(ascii: "=") else { throw XPathError("expected '!=' at offset \(index)") }
                tokens.append(.notEqual)
                index += 2
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                let orEqual = next == UInt8(ascii: "=")
                if byte == UInt8(ascii: "<") {
                    tokens.append(orEqual ? .lessOrEqual : .less)
                } else {
                    tokens.append(orEqual ? .greaterOrEqual : .greater)
                }
                index += orEqual ? 2 : 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let end = bytes[(index + 1)...].firstIndex(of: byte) else {
                    throw XPathError("unterminated string literal at offset \(index)")
                }
                tokens.append(.literal(String(decoding: bytes[(index + 1)..<end], as: UTF8.self)))
                index = end + 1
            case UInt8(ascii: "."):
                if next == UInt8(ascii: ".") {
                    tokens.append(.dotDot)
                    index += 2
                } else if let next, isDigit(next) {
                    fallthrough
                } else {
                    tokens.append(.dot)
                    index += 1
                }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.count, isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".") { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                guard let value = Double(text) else { throw XPathError("malformed number '\(text)'") }
                tokens.append(.number(value))
            case UInt8(ascii: "$"):
                throw XPathError("variables ($name) are not supported")
            default:
                guard isNameStart(byte) else {
                    throw XPathError("unexpected character '\(Character(Unicode.Scalar(byte)))' at offset \(index)")
                }
                let start = index
                while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] != UInt8(ascii: ":") {
                    if bytes[index + 1] == UInt8(ascii: "*") {
                        index += 2
                    } else if isNameStart(bytes[index + 1]) {
                        index += 1
                        while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
                    }
                }
                let name = String(decoding: bytes[start..<index], as: UTF8.self)
                if operatorExpected(), ["and", "or", "div", "mod"].contains(name) {
                    tokens.append(.operatorName(name))
                } else if index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"),
                    bytes[index + 1] == UInt8(ascii: ":")
                {
                    tokens.append(.axis(name))
                    index += 2
                } else {
                    tokens.append(.name(name))
                }
            }
        }
        return tokens
    }
}

/// Why an XPath expression cannot be used: a syntax error, an unknown function or axis, an undeclared
/// prefix.
public struct XPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what was expected.
    public var message: String
    init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
