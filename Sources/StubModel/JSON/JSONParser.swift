/// A strict RFC 8259 JSON parser producing ``JSONValue``.
///
/// - Object keys keep their order; a duplicate key is an error.
/// - Numbers keep their literal text (`1.50` stays `"1.50"`).
/// - Strings accept every escape, including surrogate pairs; invalid UTF-8, unescaped control
///   characters and lone surrogates are errors.
/// - A UTF-8 byte order mark at the very start is skipped (RFC 8259 §8.1 allows ignoring it).
/// - Nesting is limited (``defaultMaximumDepth``) so hostile input cannot exhaust the stack.
///
/// ```swift
/// let value = try JSONParser.parse(#"{"login": "octocat", "followers": 20}"#)
/// value["login"] // .string("octocat")
/// ```
public enum JSONParser {
    /// The default limit on nested arrays and objects: 128.
    ///
    /// The parser and everything that walks a ``JSONValue`` (matching, serializing, comparing, releasing)
    /// recurse once per level. 128 levels fit, with room to spare, in a debug build on a 512 KiB stack: the
    /// size Darwin gives secondary threads, including the ones XCTest and Swift Testing run tests on. Real
    /// documents nest far less; a deeper one is rejected with a clear error rather than crashing the process.
    public static let defaultMaximumDepth = 128

    /// Parses one JSON document from UTF-8 bytes.
    /// - Parameters:
    ///   - bytes: The document, UTF-8 encoded.
    ///   - maximumDepth: How many arrays/objects may nest. Defaults to ``defaultMaximumDepth``.
    /// - Returns: The parsed value.
    /// - Throws: ``JSONParseError`` with the 1-based line and column of the first problem.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError)
        -> JSONValue
    {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONByteParser(bytes: buffer, maximumDepth: maximumDepth)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON document from a string.
    /// - Throws: ``JSONParseError`` with the 1-based line and column of the first problem.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError)
        -> JSONValue
    {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }
}

/// The recursive-descent parser over a byte buffer. Internal: use ``JSONParser``.
struct JSONByteParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describeCurrent()) after the JSON value")
        }
        return value
    }

    // MARK: Values

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        var seen: Set<String> = []
        if try isEmptyContainer(depth: depth, closedBy: "}") { return .object(members) }
        while true {
            guard peek() == UInt8(ascii: "\"") else {
                throw error("expected a string key, found \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            guard seen.insert(key).inserted else {
                index = keyStart
                throw error("duplicate key '\(key)' in object")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after object key '\(key)'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth)))
            if try isClosed(by: "}", after: "object member") { return .object(members) }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        var elements: [JSONValue] = []
        if try isEmptyContainer(depth: depth, closedBy: "]") { return .array(elements) }
        while true {
            elements.append(try parseValue(depth: depth))
            if try isClosed(by: "]", after: "array element") { return .array(elements) }
        }
    }

    /// Enters the array or object whose bracket is at `index`, `depth` levels deep, skipping the bracket and
    /// the white space after it; whether `close` follows at once (then skipped too: the container is empty).
    private mutating func isEmptyContainer(depth: Int, closedBy close: Unicode.Scalar) throws(JSONParseError) -> Bool {
        guard depth <= maximumDepth else {
            throw error("nesting deeper than \(maximumDepth) levels of arrays and objects")
        }
        index += 1
        skipWhitespace()
        guard peek() == UInt8(ascii: close) else { return false }
        index += 1
        return true
    }

    /// After a member or element (`what`): whether `close` ends the container (skipped), or a `,` and white space
    /// lead to the next one (skipped).
    private mutating func isClosed(by close: Unicode.Scalar, after what: String) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            return false
        case UInt8(ascii: close):
            index += 1
            return true
        default:
            throw error("expected ',' or '\(close)' after \(what)")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit after '-'") }
        index += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw error("leading zeros are not allowed in numbers")
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw error("expected a digit after '.' in number") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw error("expected a digit in number exponent") }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        let literalBytes = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for offset in 0..<count {
            guard start + offset < bytes.count, bytes[start + offset] == literalBytes[offset] else {
                index = start
                throw error("unexpected \(describeCurrent()), expected a value")
            }
        }
        index += count
    }

    // MARK: Helpers

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { index += 1 }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    func error(_ message: String) -> JSONParseError {
        JSONParseError.at(index, in: bytes, message)
    }

    /// `'x'`, `U+201C`, `byte 0xFF` or `end of input`, for messages.
    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "character U+\(hex(UInt32(byte), width: 4))" }
        if let length = utf8SequenceLength(at: index) {
            let slice = UnsafeBufferPointer(rebasing: bytes[index..<index + length])
            if let scalar = String(decoding: slice, as: UTF8.self).unicodeScalars.first {
                return "character U+\(hex(scalar.value, width: 4))"
            }
        }
        return "byte 0x\(hex(UInt32(byte), width: 2)) (invalid UTF-8)"
    }
}

package func hex(_ value: UInt32, width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
