import StubModel

/// A YAML 1.2 reader for OpenAPI documents: one document of the core schema turned into a ``JSONValue``.
///
/// It reads block and flow collections, every scalar style, comments, directives (skipped), anchors and aliases
/// (bounded by ``YAMLLimits/maxAliasExpansion``), merge keys (`<<`), the core schema's tags and explicit `?` keys
/// that are scalars. JSON is YAML 1.2 flow syntax, so JSON text reads through the same entry point.
///
/// YAML 1.2 is not YAML 1.1: here `on`, `yes`, `no`, `off` are strings, not booleans, and `0755` is the decimal 755,
/// not an octal number, as ruamel.yaml reads them in its default 1.2 mode, where PyYAML, and Yams (whose default
/// resolver swift-openapi-generator reads documents with) take 1.1's booleans and octals. Plain scalars resolve by
/// the 1.2 core schema only: ruamel.yaml also reads `1_000`, `0b101`, `+0x1F` as integers and `2001-12-14` as a
/// date, which are strings here.
package enum YAML {
    /// Parses one YAML 1.2 document (core schema) into JSON.
    package static func parse(_ text: String, limits: YAMLLimits = .default) throws(YAMLError) -> JSONValue {
        let count = text.utf8.count
        if count > limits.maxBytes {
            throw YAMLError(
                line: 1, column: 1, message: "the document is \(count) bytes, more than \(limits.maxBytes) (maxBytes)")
        }
        // A copy with zero bytes after the end, so that looking a few bytes ahead needs no bounds check.
        let padding = 8
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: count + padding)
        defer { storage.deallocate() }
        var copy = text
        copy.withUTF8 { source in
            if let base = source.baseAddress { storage.initialize(from: base, count: source.count) }
        }
        (storage + count).initialize(repeating: 0, count: padding)
        let bytes = UnsafePointer(storage)
        do throws(YAMLFailure) {
            var composer = YAMLComposer(bytes: bytes, count: count, limits: limits)
            return try composer.composeDocument()
        } catch {
            let (line, column) = YAMLFailure.position(of: error.offset, in: bytes, count: count)
            throw YAMLError(line: line, column: column, message: error.message)
        }
    }
}

/// Bounds on what one ``YAML/parse(_:limits:)`` call may build.
package struct YAMLLimits: Sendable {
    /// Collections nested deeper than this are an error.
    package var maxDepth = 256
    /// Total nodes produced via aliases (each alias counts the nodes of what it names): a billion laughs is an error.
    package var maxAliasExpansion = 1_000_000
    /// Longer text is refused before reading.
    package var maxBytes = 64 << 20

    package static let `default` = YAMLLimits()

    package init() {}
}

/// Why a YAML text was refused, with the 1-based line and column of the offending character.
package struct YAMLError: Error, Sendable, Equatable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String

    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    package var description: String { "line \(line), column \(column): \(message)" }
}

/// An error inside the reader, at a byte offset; ``YAML/parse(_:limits:)`` turns the offset into a line and column.
struct YAMLFailure: Error {
    let offset: Int
    let message: String

    init(_ message: String, at offset: Int) {
        self.offset = offset
        self.message = message
    }

    /// The 1-based line and column (in characters, counted as Unicode scalars) of a byte offset.
    static func position(of offset: Int, in bytes: UnsafePointer<UInt8>, count: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, count)
        while index < end {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && bytes[index + 1] != 0x0A) {
                line += 1
                column = 1
            } else if byte != 0x0D && byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}
