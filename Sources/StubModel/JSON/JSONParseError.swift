/// Why a JSON document could not be parsed, and where.
///
/// `line` and `column` are 1-based; the column counts Unicode scalars from the start of the line, so it
/// matches what an editor shows for UTF-8 text.
///
/// ```swift
/// do { _ = try JSONParser.parse("{\"a\": 1 \"b\": 2}") }
/// catch { print(error) } // line 1, column 10: expected ',' or '}' after object member
/// ```
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line of the offending byte.
    public let line: Int
    /// 1-based column (in Unicode scalars) of the offending byte.
    public let column: Int
    /// What was wrong, without the position, e.g. `expected ',' or '}' after object member`.
    public let message: String
    /// Byte offset of the offending byte in the input.
    public let offset: Int

    public init(line: Int, column: Int, message: String, offset: Int) {
        self.line = line
        self.column = column
        self.message = message
        self.offset = offset
    }

    /// `line L, column C: message`.
    public var description: String { "line \(line), column \(column): \(message)" }

    /// Builds an error for `offset` in `bytes`, computing line and column.
    static func at(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>, _ message: String) -> JSONParseError {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Count scalar starts only; continuation bytes belong to the previous column.
                column += 1
            }
            index += 1
        }
        return JSONParseError(line: line, column: column, message: message, offset: offset)
    }
}
