import StubHTTP
import StubModel

/// Reads an upstream's HTTP/1.1 response from the bytes as they arrive: the head (at most
/// ``maxHeadBytes``), interim `1xx` heads skipped, then the body framed by `Content-Length`,
/// `chunked`, or the end of the connection, at most `maxBodyBytes`.
struct UpstreamResponseParser {
    /// What ended the parse early.
    enum Failure: Error, Equatable {
        /// Not HTTP/1.x, or broken framing: the detail, for the 502's body.
        case malformed(String)
        /// The connection ended before a complete answer.
        case closedEarly(String)
        /// The body went beyond the limit.
        case tooLarge(Int)
    }

    private enum Framing {
        case none, length(Int), untilClose
        case chunkSize, chunkData(Int), chunkEnd, trailers
    }

    /// The longest response head taken, in bytes.
    static let maxHeadBytes = 64 * 1024

    let isHeadRequest: Bool
    let maxBodyBytes: Int
    private var buffer: [UInt8] = []
    private var framing: Framing?
    private(set) var status: StubHTTPStatus?
    private(set) var headers: [(name: String, value: String)] = []
    private(set) var body: [UInt8] = []
    /// Whether a complete response has been read.
    private(set) var isComplete = false

    init(isHeadRequest: Bool, maxBodyBytes: Int) {
        self.isHeadRequest = isHeadRequest
        self.maxBodyBytes = maxBodyBytes
    }

    /// Takes the next bytes read from the connection.
    mutating func feed(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        buffer.append(contentsOf: bytes)
        var position = 0
        defer { buffer.removeFirst(position) }
        while !isComplete {
            guard let framing else {
                guard let end = Self.headEnd(in: buffer, from: position) else {
                    if buffer.count - position > Self.maxHeadBytes {
                        throw .malformed("a response head longer than \(Self.maxHeadBytes) bytes")
                    }
                    return
                }
                try parseHead(buffer[position..<end])
                position = end
                continue
            }
            switch framing {
            case .none:
                isComplete = true
            case .length(let remaining):
                let taken = min(remaining, buffer.count - position)
                try append(buffer[position..<position + taken])
                position += taken
                self.framing = .length(remaining - taken)
                if remaining == taken { isComplete = true } else { return }
            case .untilClose:
                try append(buffer[position...])
                position = buffer.count
                return
            case .chunkSize, .chunkEnd, .trailers:
                guard let lineEnd = buffer[position...].firstIndex(of: UInt8(ascii: "\n")) else {
                    if buffer.count - position > 4096 { throw .malformed("a chunk-size line longer than 4096 bytes") }
                    return
                }
                let line = Self.trimmed(buffer[position..<lineEnd])
                position = lineEnd + 1
                try chunkLine(line, framing)
            case .chunkData(let remaining):
                let taken = min(remaining, buffer.count - position)
                try append(buffer[position..<position + taken])
                position += taken
                guard remaining == taken else {
                    self.framing = .chunkData(remaining - taken)
                    return
                }
                self.framing = .chunkEnd
            }
        }
    }

    /// The connection ended: complete if the body runs to the end of the connection.
    mutating func finish() throws(Failure) {
        guard !isComplete else { return }
        guard case .untilClose = framing else {
            throw .closedEarly(
                status == nil && buffer.isEmpty
                    ? "the connection closed without an answer" : "the connection closed before a complete answer")
        }
        isComplete = true
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        guard body.count + bytes.count <= maxBodyBytes else { throw .tooLarge(maxBodyBytes) }
        body.append(contentsOf: bytes)
    }

    private mutating func chunkLine(_ line: ArraySlice<UInt8>, _ state: Framing) throws(Failure) {
        switch state {
        case .chunkEnd:
            guard line.isEmpty else { throw .malformed("no CRLF after a chunk's data") }
            framing = .chunkSize
        case .trailers:
            if line.isEmpty { isComplete = true }
        case .chunkSize, .none, .length, .untilClose, .chunkData:  // only the line states reach here
            let digits = line.prefix { $0 != UInt8(ascii: ";") }
            guard !digits.isEmpty, digits.count <= 15,
                let size = Int(Self.trimmedSpace(String(decoding: digits, as: UTF8.self)), radix: 16), size >= 0
            else {
                throw .malformed("a bad chunk size '\(String(decoding: line.prefix(40), as: UTF8.self))'")
            }
            framing = size == 0 ? .trailers : .chunkData(size)
        }
    }

    private mutating func parseHead(_ head: ArraySlice<UInt8>) throws(Failure) {
        var lines = head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Self.trimmed)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first.map({ String(decoding: $0, as: UTF8.self) }),
            statusLine.hasPrefix("HTTP/1."),
            let code = Int(statusLine.dropFirst(9).prefix(3)), (100...999).contains(code),
            statusLine.count == 12 || statusLine.dropFirst(12).first == " "
        else {
            throw .malformed(
                "not an HTTP/1.x status line: '\(String(decoding: (lines.first ?? []).prefix(60), as: UTF8.self))'")
        }
        var fields: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex else {
                throw .malformed("a header line without a name: '\(String(decoding: line.prefix(60), as: UTF8.self))'")
            }
            fields.append(
                (
                    String(decoding: line[..<colon], as: UTF8.self),
                    Self.trimmedSpace(String(decoding: line[(colon + 1)...], as: UTF8.self))
                ))
        }
        if (100..<200).contains(code) && code != 101 { return }  // interim: the real answer follows
        let reason = String(statusLine.dropFirst(13))
        status = StubHTTPStatus(code: code, reasonPhrase: reason.isEmpty ? nil : reason)
        headers = fields
        framing = try Self.framing(code: code, fields: fields, isHeadRequest: isHeadRequest)
    }

    private static func framing(code: Int, fields: [(name: String, value: String)], isHeadRequest: Bool) throws(Failure)
        -> Framing
    {
        if isHeadRequest || code == 204 || code == 304 || (100..<200).contains(code) { return .none }
        let value = { (name: String) in fields.filter { StubHTTPHeaders.equalsIgnoringCase($0.name, name) }.map(\.value)
        }
        if value("Transfer-Encoding").joined(separator: ",").lowercased().contains("chunked") { return .chunkSize }
        let lengths = Set(
            value("Content-Length").flatMap { $0.split(separator: ",") }
                .map { Self.trimmedSpace(String($0)) })
        guard let text = lengths.first else { return .untilClose }
        guard lengths.count == 1, let length = Int(text), length >= 0 else {
            throw .malformed("a bad Content-Length '\(lengths.sorted().joined(separator: ", "))'")
        }
        return length == 0 ? .none : .length(length)
    }

    /// The index just past the blank line that ends a head (`\r\n\r\n` or `\n\n`), searching from `start`.
    private static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                return next + 2
            }
            index = next
        }
        return nil
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmedSpace(_ text: String) -> String {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(text[first...last])
    }

    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        line.last == UInt8(ascii: "\r") ? line.dropLast() : line
    }
}
