import StubHTTP
import StubModel

/// The parts of a `multipart/…` body (RFC 2046): each part's header fields and body, cut out of the
/// request body without copying it.
///
/// `nil` when the body is not multipart as WireMock reads it: no `boundary` parameter, no opening
/// delimiter, lines not ended by CRLF, a part with no blank line after its headers, no closing
/// delimiter, or more than ``maxParts`` parts. (WireMock 2.35.1 answers 500 to such a request; here it
/// just does not match.) The work is linear in the body's length.
struct MultipartBody {
    struct Part {
        /// Header fields in order, names as sent.
        var headers: [(name: String, value: String)]
        /// The part's body, between the blank line after its headers and the CRLF before the next delimiter.
        var body: ArraySlice<UInt8>

        /// The values of the header fields named `name`, in any case.
        func values(of name: String) -> [String] {
            headers.filter { StubHTTPHeaders.equalsIgnoringCase($0.name, name) }.map(\.value)
        }

        /// The `filename` parameter of `Content-Disposition`, unquoted.
        var fileName: String? {
            guard let disposition = values(of: "Content-Disposition").first else { return nil }
            return MultipartBody.parameter("filename", in: disposition)
        }
    }

    /// The most parts read; a body with more is not matched as multipart.
    static let maxParts = 1000

    let parts: [Part]

    /// Reads `body` as the multipart body `contentType` (e.g. `multipart/form-data; boundary=XyZ`) announces.
    init?(contentType: String, body: [UInt8]) {
        guard let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty,
            boundary.utf8.count <= 200
        else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        // The first delimiter opens the body (a preamble before it is skipped); each later one follows a CRLF.
        guard var position = Self.find(delimiter, in: body, from: 0) else { return nil }
        let crlfDelimiter = [13, 10] + delimiter
        var parts: [Part] = []
        while true {
            position += delimiter.count
            if body[position...].starts(with: [45, 45]) { break }  // "--": the close delimiter
            // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
            while position < body.count, body[position] == 32 || body[position] == 9 { position += 1 }
            guard body[position...].starts(with: [13, 10]) else { return nil }
            position += 2
            guard parts.count < Self.maxParts,
                let next = Self.find(crlfDelimiter, in: body, from: position),
                let part = Self.part(body[position..<next])
            else { return nil }
            parts.append(part)
            position = next + 2
        }
        self.parts = parts
    }

    /// One part: header lines, a blank line, the body.
    private static func part(_ bytes: ArraySlice<UInt8>) -> Part? {
        var headers: [(name: String, value: String)] = []
        var position = bytes.startIndex
        while true {
            guard let end = find([13, 10], in: bytes, from: position) else { return nil }
            if end == position { return Part(headers: headers, body: bytes[(end + 2)...]) }
            let line = bytes[position..<end]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
            headers.append((name, String(value)))
            position = end + 2
        }
    }

    /// The first occurrence of `needle` in `haystack` at or after `start` (linear in practice: the first
    /// byte is searched for, then the rest compared).
    static func find<C: RandomAccessCollection>(_ needle: [UInt8], in haystack: C, from start: C.Index) -> C.Index?
    where C.Element == UInt8, C.Index == Int {
        guard let first = needle.first, haystack.endIndex - start >= needle.count else { return nil }
        var index = start
        let last = haystack.endIndex - needle.count
        while index <= last {
            guard let found = haystack[index...last].firstIndex(of: first) else { return nil }
            if haystack[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }

    /// A `name=value` or `name="value"` parameter of a header value such as `Content-Type` (name in any case).
    static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let trimmed = piece.trimmingSpaces()
            guard let equals = trimmed.firstIndex(of: "="),
                StubHTTPHeaders.equalsIgnoringCase(String(trimmed[..<equals].trimmingSpaces()), name)
            else { continue }
            var result = trimmed[trimmed.index(after: equals)...].trimmingSpaces()
            if result.count >= 2, result.first == "\"", result.last == "\"" { result = result.dropFirst().dropLast() }
            return String(result)
        }
        return nil
    }
}
