/// Parses one header or trailer field line, `name ":" OWS value OWS` (RFC 9112 §5), CRLF already removed.
///
/// The name must be a non-empty token directly followed by the colon. The value has its optional whitespace
/// trimmed on both sides and may contain HTAB, SP, visible ASCII and obs-text (bytes 0x80–0xFF); any other control
/// byte, including NUL and a bare CR, is rejected. Values are decoded as UTF-8; invalid sequences (e.g. Latin-1
/// obs-text) become U+FFFD. A line starting with SP or HTAB is obsolete line folding and is rejected.
enum FieldLine {
    /// - Parameter framing: set to the ``FramingField`` the name denotes, if any.
    static func parse(
        _ line: UnsafeBufferPointer<UInt8>,
        framing: inout FramingField?
    ) throws(ParserError) -> HTTPHeaders.Field {
        let count = line.count
        guard count > 0 else { throw ParserError(.invalidHeader, "empty header line") }
        if ByteClass.isWhitespace(line[0]) {
            throw ParserError(.obsoleteLineFolding, "header line starts with whitespace (obsolete line folding)")
        }
        var colon = 0
        while colon < count && ByteClass.isTokenChar(line[colon]) { colon += 1 }
        guard colon < count else {
            throw ParserError(.invalidHeader, "header line \"\(printable(line, upTo: colon))\" has no colon")
        }
        guard line[colon] == ByteClass.colon else {
            let name = printable(line, upTo: colon)
            if ByteClass.isWhitespace(line[colon]) {
                throw ParserError(.invalidHeader, "header name \"\(name)\" is followed by whitespace before the colon")
            }
            throw ParserError(
                .invalidHeader,
                "header name \"\(name)\" contains byte \(ByteClass.describe(line[colon])), not a token character")
        }
        guard colon > 0 else { throw ParserError(.invalidHeader, "header line has an empty name") }

        var start = colon + 1
        var end = count
        for i in start..<end where !ByteClass.isFieldValueByte(line[i]) {
            throw ParserError(
                .invalidHeader,
                "value of header \"\(printable(line, upTo: colon))\" contains "
                    + "control byte \(ByteClass.describe(line[i]))")
        }
        while start < end && ByteClass.isWhitespace(line[start]) { start += 1 }
        while end > start && ByteClass.isWhitespace(line[end - 1]) { end -= 1 }

        let nameBytes = UnsafeBufferPointer(rebasing: line[0..<colon])
        framing = FramingField.classify(nameBytes)
        let name = String(decoding: nameBytes, as: UTF8.self)
        let value = String(decoding: UnsafeBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
        return HTTPHeaders.Field(name: name, value: value)
    }

    /// The first `end` bytes of a line (at most 64) for an error message; they are token characters.
    static func printable(_ line: UnsafeBufferPointer<UInt8>, upTo end: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: line[0..<min(end, 64)]), as: UTF8.self)
    }
}
