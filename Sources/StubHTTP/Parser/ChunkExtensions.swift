/// Validates chunk extensions (RFC 9112 §7.1.1), which the engine accepts and ignores:
/// `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`, where a value is a token or a quoted-string.
enum ChunkExtensions {
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParserError) {
        var i = 0
        let count = bytes.count
        func skipWhitespace() {
            while i < count && ByteClass.isWhitespace(bytes[i]) { i += 1 }
        }
        func token() throws(ParserError) {
            let start = i
            while i < count && ByteClass.isTokenChar(bytes[i]) { i += 1 }
            guard i > start else { throw invalid("a token") }
        }
        while i < count {
            skipWhitespace()
            guard i < count, bytes[i] == UInt8(ascii: ";") else { throw invalid("\";\"") }
            i += 1
            skipWhitespace()
            try token()
            skipWhitespace()
            guard i < count, bytes[i] == UInt8(ascii: "=") else { continue }
            i += 1
            skipWhitespace()
            if i < count && bytes[i] == UInt8(ascii: "\"") {
                try quotedString(bytes, &i)
            } else {
                try token()
            }
        }
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE`, starting at the opening quote.
    private static func quotedString(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int) throws(ParserError) {
        i += 1
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return
            }
            if c == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count, ByteClass.isFieldValueByte(bytes[i]) else { break }
            } else if !ByteClass.isFieldValueByte(c) {
                break
            }
            i += 1
        }
        throw invalid("a closed quoted string")
    }

    private static func invalid(_ expected: String) -> ParserError {
        ParserError(.invalidChunk, "malformed chunk extension: expected \(expected)")
    }
}
