extension JSONValue: CustomStringConvertible {
    /// How ``JSONValue/serialized(_:)`` lays out its output.
    public enum OutputStyle: Sendable, Hashable {
        /// No whitespace at all: what `jsonBody` sends on the wire.
        case compact
        /// Two-space indentation, one member per line, `"key": value`: what the admin API returns.
        case pretty
    }

    /// The value as JSON text. Object keys keep their order, numbers are written as their literal
    /// text, and `"`, `\` and control characters in strings are escaped.
    ///
    /// ```swift
    /// let body: JSONValue = ["login": "octocat", "followers": 20]
    /// body.serialized()  // {"login":"octocat","followers":20}
    /// ```
    public func serialized(_ style: OutputStyle = .compact) -> String {
        String(decoding: serializedBytes(style), as: UTF8.self)
    }

    /// The value as UTF-8 JSON bytes; see ``serialized(_:)``.
    public func serializedBytes(_ style: OutputStyle = .compact) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        write(into: &output, indent: style == .pretty ? 0 : nil)
        return output
    }

    /// The compact serialization.
    public var description: String { serialized() }

    /// Appends the value; `indent` is the current depth for pretty output, `nil` for compact.
    package func write(into output: inout [UInt8], indent: Int?) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let elements):
            Self.writeContainer("[", elements, "]", into: &output, indent: indent) { element, output, inner in
                element.write(into: &output, indent: inner)
            }
        case .object(let members):
            Self.writeContainer("{", members, "}", into: &output, indent: indent) { member, output, inner in
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                if inner != nil { output.append(UInt8(ascii: " ")) }
                member.value.write(into: &output, indent: inner)
            }
        }
    }

    /// Appends `items` between `open` and `close`, separated by commas, each written by `writeItem` at the
    /// inner depth (one a line when pretty); `[]` or `{}` when there are none.
    private static func writeContainer<Items: Collection>(
        _ open: Unicode.Scalar, _ items: Items, _ close: Unicode.Scalar, into output: inout [UInt8], indent: Int?,
        _ writeItem: (Items.Element, inout [UInt8], _ indent: Int?) -> Void
    ) {
        output.append(UInt8(ascii: open))
        guard !items.isEmpty else { return output.append(UInt8(ascii: close)) }
        let inner = indent.map { $0 + 1 }
        for (position, item) in items.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(&output, inner)
            writeItem(item, &output, inner)
        }
        newline(&output, indent)
        output.append(UInt8(ascii: close))
    }

    static func newline(_ output: inout [UInt8], _ indent: Int?) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// `text` as a JSON string literal, quotes included.
    package static func escapedString(_ text: String) -> String {
        var output: [UInt8] = []
        writeString(text, into: &output)
        return String(decoding: output, as: UTF8.self)
    }

    package static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20, 0x7F:
                output.append(contentsOf: "\\u\(hex(UInt32(byte), width: 4))".utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
