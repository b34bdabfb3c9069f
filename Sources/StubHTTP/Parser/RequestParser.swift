#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the parser produced from the bytes buffered so far.
public enum ParseEvent: Sendable, Equatable {
    /// The head of a request with `Expect: 100-continue` whose body has not fully arrived yet; the connection
    /// should write `HTTP/1.1 100 Continue\r\n\r\n` now. Emitted at most once per request, before its `.request`.
    case expectContinue
    /// A complete request (head + de-chunked body + trailers).
    case request(HTTPRequest)
}

/// A pure, incremental HTTP/1.1 request parser (RFC 9112). It does no I/O: the connection appends the bytes it
/// reads and calls ``next()`` until it returns nil.
///
/// ```swift
/// var parser = RequestParser()
/// parser.append(contentsOf: Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
/// while let event = try parser.next() {
///     switch event {
///     case .expectContinue: write("HTTP/1.1 100 Continue\r\n\r\n")
///     case .request(let request): respond(to: request)
///     }
/// }
/// ```
///
/// The parser is strict: CRLF line endings only, no obsolete line folding, no whitespace before a header colon,
/// no CTL bytes in the target or in field values, `Content-Length` with `Transfer-Encoding` is refused, and only
/// the `chunked` transfer coding is understood. An HTTP/1.1 request must carry exactly one `Host` field (any
/// request at most one), as RFC 9112 §3.2 requires. Limits come from ``ParserLimits``. Up to
/// ``maxLeadingEmptyLines`` empty lines before a request line are skipped (RFC 9112 §2.2). Field values are
/// decoded as UTF-8, invalid sequences (e.g. Latin-1 obs-text) becoming U+FFFD.
public struct RequestParser: Sendable {
    /// The most empty lines (CRLF) skipped before a request line; one more is a malformed request line.
    public static let maxLeadingEmptyLines = 8

    private enum Phase: Sendable {
        case requestLine, headerLines, fixedBody(length: Int), chunkedBody, failed
    }

    /// The limits this parser enforces.
    public let limits: ParserLimits
    /// Bytes read from the socket; `buffer[readIndex...]` is not consumed yet.
    private(set) var buffer: [UInt8] = []
    private(set) var readIndex = 0
    /// Bytes of the current, not yet returned, request already consumed from `buffer`.
    private var consumedByCurrentRequest = 0
    private var phase = Phase.requestLine
    private var failure: ParserError?
    private var scanner = LineScanner()
    private var emptyLinesSkipped = 0
    /// Bytes of the current request's head so far: request line and header lines, CRLFs included.
    private var headBytes = 0
    private var method = HTTPMethod.get
    private var target = ""
    private var version = HTTPVersion.http1_1
    private var headers = HTTPHeaders()
    /// The ``FramingField`` raw values seen in `headers`, OR-ed.
    private var framingFields: UInt8 = 0
    /// `Host` fields seen in `headers`.
    private var hostFields = 0
    private var expectsContinue = false
    private var sentContinue = false
    private var chunked: ChunkedDecoder
    /// A `Content-Length` body that did not arrive with its head: collected here as it comes, in storage
    /// reserved at exactly its length, and handed to the request without a copy (see ``collect(_:length:)``).
    private var body: [UInt8] = []
    let endpoints: HTTPEndpoints?  // formatted once per connection, given to each request

    /// - Parameters:
    ///   - limits: the bounds on request lines, headers and bodies.
    ///   - endpoints: the connection's addresses, set on each request parsed (``HTTPRequest/endpoints``).
    public init(limits: ParserLimits = ParserLimits(), endpoints: HTTPEndpoints? = nil) {
        self.limits = limits
        self.endpoints = endpoints
        self.chunked = ChunkedDecoder(limits: limits)
    }

    /// Buffers bytes read from the socket. Bytes appended after ``next()`` has thrown are ignored.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        compact()
        bytes.withMemoryRebound(to: UInt8.self) { buffer.append(contentsOf: $0) }
    }

    /// Buffers bytes read from the socket. Bytes appended after ``next()`` has thrown are ignored.
    public mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        guard failure == nil else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Parses what is buffered. Returns nil when more bytes are needed. Call repeatedly until nil (pipelining:
    /// several requests may be buffered). After it throws, the parser is dead: every later call rethrows the
    /// same error.
    /// - Throws: ``ParserError``; its ``ParserError/status`` is the response to send before closing.
    public mutating func next() throws(ParserError) -> ParseEvent? {
        if let failure { throw failure }
        let storage = buffer
        // A Result, not a typed-throws closure: `withUnsafeBufferPointer` rethrows typed errors only in newer
        // standard libraries than Swift 6.1's.
        let result = storage.withUnsafeBufferPointer { all -> Result<ParseEvent?, ParserError> in
            do throws(ParserError) { return .success(try parse(all)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let event):
            return event
        case .failure(let error):
            failure = error
            phase = .failed
            throw error
        }
    }

    /// Bytes buffered but not yet consumed by a returned request: the bytes of a partial request (including any
    /// empty lines skipped before it) plus any pipelined bytes after it. 0 between requests.
    public var bufferedByteCount: Int { buffer.count - readIndex + consumedByCurrentRequest }

    /// True when no bytes of a partial request are buffered (between requests). The connection uses this for
    /// idle vs header-read timeouts.
    public var isIdle: Bool { bufferedByteCount == 0 }

    /// True when a request's head is complete and its body is still arriving: the connection then times out
    /// on inactivity rather than on the time since the request's first byte.
    public var isReadingBody: Bool {
        switch phase {
        case .fixedBody, .chunkedBody: true
        case .requestLine, .headerLines, .failed: false
        }
    }

    /// The capacity of the internal buffer, for tests of compaction.
    var storageCapacity: Int { buffer.capacity }

    // MARK: - Parsing

    private mutating func parse(_ all: UnsafeBufferPointer<UInt8>) throws(ParserError) -> ParseEvent? {
        while true {
            let input = UnsafeBufferPointer(rebasing: all[readIndex...])
            switch phase {
            case .requestLine:
                guard try requestLine(input) else { return nil }
            case .headerLines:
                guard try headerLine(input) else { return nil }
            case .fixedBody(let length):
                if body.isEmpty && input.count >= length {
                    let whole = length == 0 ? [] : Array(UnsafeBufferPointer(rebasing: input[0..<length]))
                    consume(length)
                    return .request(finishRequest(body: whole, trailers: HTTPHeaders()))
                }
                if let whole = collect(input, length: length) {
                    return .request(finishRequest(body: whole, trailers: HTTPHeaders()))
                }
                return continueIfExpected()
            case .chunkedBody:
                consume(try chunked.decode(input))
                if chunked.isComplete {
                    let (body, trailers) = chunked.take()
                    return .request(finishRequest(body: body, trailers: trailers))
                }
                return continueIfExpected()
            case .failed:
                throw failure ?? ParserError(.invalidRequestLine, "parser failed")
            }
        }
    }

    /// Parses the request line (skipping leading empty lines). Returns false when more bytes are needed.
    private mutating func requestLine(_ input: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Bool {
        let length: Int, crlf: Bool
        switch scanner.scan(input) {
        case .partial(let partialLength):
            try checkRequestLineLimits(length: partialLength)
            return false
        case .line(let lineLength, let lineCRLF):
            length = lineLength
            crlf = lineCRLF
        }
        if length == 0 && crlf {
            emptyLinesSkipped += 1
            guard emptyLinesSkipped <= Self.maxLeadingEmptyLines else {
                throw ParserError(
                    .invalidRequestLine, "more than \(Self.maxLeadingEmptyLines) empty lines before the request line")
            }
            consume(2)
            return true
        }
        try checkRequestLineLimits(length: length)
        guard crlf else { throw ParserError(.invalidRequestLine, "request line ends with a bare LF instead of CRLF") }
        guard length + 2 <= limits.maxHeaderBytes else { throw headerSectionTooLarge() }
        let parts = try RequestLine.parse(UnsafeBufferPointer(rebasing: input[0..<length]))
        method = parts.method
        target = parts.target
        version = parts.version
        headBytes = length + 2
        consume(length + 2)
        phase = .headerLines
        return true
    }

    private func checkRequestLineLimits(length: Int) throws(ParserError) {
        switch LimitBreach.check(
            length: length, first: limits.maxRequestLineBytes + 1,
            second: limits.maxHeaderBytes + 1)
        {
        case .none: return
        case .first:
            throw ParserError(
                .requestLineTooLong,
                "request line is longer than \(limits.maxRequestLineBytes) bytes")
        case .second: throw headerSectionTooLarge()
        }
    }

    /// Parses one header line, or the empty line ending the head. Returns false when more bytes are needed.
    private mutating func headerLine(_ input: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Bool {
        let length: Int, crlf: Bool
        switch scanner.scan(input) {
        case .partial(let partialLength):
            try checkHeaderLineLimits(length: partialLength)
            return false
        case .line(let lineLength, let lineCRLF):
            length = lineLength
            crlf = lineCRLF
        }
        try checkHeaderLineLimits(length: length)
        guard crlf else { throw ParserError(.invalidHeader, "header line ends with a bare LF instead of CRLF") }
        if length == 0 {
            consume(2)
            try startBody()
            return true
        }
        guard headBytes + length + 2 <= limits.maxHeaderBytes else { throw headerSectionTooLarge() }
        if headers.fields.isEmpty { headers.fields.reserveCapacity(8) }
        var framing: FramingField?
        headers.fields.append(try FieldLine.parse(UnsafeBufferPointer(rebasing: input[0..<length]), framing: &framing))
        if let framing {
            framingFields |= framing.rawValue
            if framing == .host {
                hostFields += 1
                // RFC 9112 §3.2: more than one Host field line → 400, whatever the version.
                guard hostFields == 1 else {
                    throw ParserError(.invalidHost, "request has more than one Host header field")
                }
            }
        }
        headBytes += length + 2
        consume(length + 2)
        return true
    }

    private func checkHeaderLineLimits(length: Int) throws(ParserError) {
        switch LimitBreach.check(
            length: length, first: headers.count >= limits.maxHeaderCount ? 1 : Int.max,
            second: limits.maxHeaderBytes - headBytes + 1)
        {
        case .none: return
        case .first: throw ParserError(.headerOverflow, "more than \(limits.maxHeaderCount) header fields")
        case .second: throw headerSectionTooLarge()
        }
    }

    private func headerSectionTooLarge() -> ParserError {
        ParserError(.headerOverflow, "header section is larger than \(limits.maxHeaderBytes) bytes")
    }

    /// Chooses the body framing once the head is complete.
    private mutating func startBody() throws(ParserError) {
        // RFC 9112 §3.2: an HTTP/1.1 request must name its host (HTTP/1.0 clients may leave it out).
        guard hostFields > 0 || version != .http1_1 else {
            throw ParserError(.invalidHost, "HTTP/1.1 request has no Host header field")
        }
        let framing = try BodyFraming(
            headers: headers, present: framingFields & FramingField.bodyFramingMask,
            version: version, limits: limits)
        expectsContinue = framing.expectsContinue
        sentContinue = false
        switch framing.kind {
        case .none: phase = .fixedBody(length: 0)
        case .contentLength(let length): phase = .fixedBody(length: length)
        case .chunked: phase = .chunkedBody
        }
    }

    /// Moves the buffered part of a `Content-Length` body into ``body``, so the read buffer stays small and
    /// the body is held once, in storage of exactly its length (not a buffer doubled past it, then a copy).
    /// The length is within ``ParserLimits/maxBodyBytes``; reserved pages cost memory only once written.
    /// Returns the body once complete.
    private mutating func collect(_ input: UnsafeBufferPointer<UInt8>, length: Int) -> [UInt8]? {
        if body.capacity < length { body.reserveCapacity(length) }
        let taken = min(input.count, length - body.count)
        body.append(contentsOf: UnsafeBufferPointer(rebasing: input[0..<taken]))
        consume(taken)
        guard body.count == length else { return nil }
        var whole: [UInt8] = []
        swap(&whole, &body)
        return whole
    }

    private mutating func continueIfExpected() -> ParseEvent? {
        guard expectsContinue && !sentContinue else { return nil }
        sentContinue = true
        return .expectContinue
    }

    @inline(__always)
    private mutating func consume(_ count: Int) {
        readIndex += count
        consumedByCurrentRequest += count
        scanner.reset()
    }

    private mutating func finishRequest(body: [UInt8], trailers: HTTPHeaders) -> HTTPRequest {
        if readIndex == buffer.count && buffer.capacity > 1 << 20 {
            // Nothing after this request: give a large buffer back now, not at the next read (which may
            // never come while the response is prepared).
            buffer = []
            readIndex = 0
        }
        var taken = HTTPHeaders()
        swap(&taken, &headers)
        let request = HTTPRequest(
            method: method, target: target, version: version, headers: taken,
            body: body, trailers: trailers, endpoints: endpoints)
        target = ""
        phase = .requestLine
        consumedByCurrentRequest = 0
        emptyLinesSkipped = 0
        headBytes = 0
        framingFields = 0
        hostFields = 0
        expectsContinue = false
        sentContinue = false
        return request
    }

    /// Drops consumed bytes so a long keep-alive connection does not grow its buffer: all of them when everything
    /// is consumed, otherwise the consumed prefix once it is at least half of the buffer.
    private mutating func compact() {
        guard readIndex > 0 else { return }
        if readIndex == buffer.count {
            if buffer.capacity > 1 << 20 {
                buffer = []
            } else {
                buffer.removeAll(keepingCapacity: true)
            }
            readIndex = 0
        } else if readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}

extension RequestParser {
    /// The bytes buffered after the last request returned and not parsed yet. After a protocol switch (a
    /// WebSocket's `101 Switching Protocols`) they belong to the new protocol: a client may send its first frames
    /// in the same segment as the upgrade request.
    public var unparsedBytes: ArraySlice<UInt8> { buffer[readIndex...] }
}

/// Finds the end of the line that starts at the beginning of the unconsumed bytes, without re-scanning bytes
/// already searched on an earlier call (a line may arrive over many reads).
struct LineScanner: Sendable {
    /// What is known about the current line.
    enum Result: Equatable {
        /// The line is complete. `length` is its content length: the bytes before CRLF, or before a bare LF when
        /// `crlf` is false (which callers reject). `length + 2` bytes make up a CRLF-terminated line.
        case line(length: Int, crlf: Bool)
        /// No LF yet. `length` is how long the line content is known to be: the bytes buffered, less a trailing
        /// CR that may be the start of CRLF. It only grows as bytes arrive, so limit checks on it are monotonic.
        case partial(length: Int)
    }

    /// Bytes after the line start already known to contain no LF.
    private var scanned = 0

    /// Forgets the current line; call after consuming it.
    @inline(__always)
    mutating func reset() { scanned = 0 }

    /// Looks for the LF ending the line that starts at `bytes[0]`.
    @inline(__always)
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        let count = bytes.count
        if scanned < count, let base = bytes.baseAddress {
            if let hit = memchr(base + scanned, Int32(ByteClass.lf), count - scanned) {
                let lf = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                scanned = 0
                if lf > 0 && bytes[lf - 1] == ByteClass.cr { return .line(length: lf - 1, crlf: true) }
                return .line(length: lf, crlf: false)
            }
            scanned = count
        }
        if count > 0 && bytes[count - 1] == ByteClass.cr { return .partial(length: count - 1) }
        return .partial(length: count)
    }
}

/// Which of two limits a growing line breaches first, as a reader fed one byte at a time would see it.
///
/// A line may be complete in one read or arrive byte by byte; treating each limit as "the line content reached
/// `threshold` bytes" and reporting the smallest threshold reached (the first on a tie) makes the error independent
/// of how the bytes were split.
enum LimitBreach {
    case none, first, second

    @inline(__always)
    static func check(length: Int, first: Int, second: Int) -> LimitBreach {
        guard length >= min(first, second) else { return .none }
        return first <= second ? .first : .second
    }
}

/// Parses a request line, `method SP request-target SP HTTP-version` (RFC 9112 §3), CRLF already removed.
enum RequestLine {
    struct Parts {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
    }

    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws(ParserError) -> Parts {
        let count = line.count
        var methodEnd = 0
        while methodEnd < count && ByteClass.isTokenChar(line[methodEnd]) { methodEnd += 1 }
        guard methodEnd > 0, methodEnd < count, line[methodEnd] == ByteClass.space else {
            if methodEnd == count || methodEnd == 0 && count > 0 && line[0] == ByteClass.space {
                throw ParserError(.invalidRequestLine, "request line is not \"method SP target SP version\"")
            }
            throw ParserError(
                .invalidRequestLine,
                "method contains byte \(ByteClass.describe(line[methodEnd])), not a token character")
        }
        let targetStart = methodEnd + 1
        var targetEnd = targetStart
        while targetEnd < count && line[targetEnd] != ByteClass.space { targetEnd += 1 }
        guard targetEnd < count else {
            throw ParserError(.invalidRequestLine, "request line is not \"method SP target SP version\"")
        }

        let version = try parseVersion(UnsafeBufferPointer(rebasing: line[(targetEnd + 1)...]))

        guard targetEnd > targetStart else { throw ParserError(.invalidRequestLine, "request target is empty") }
        for i in targetStart..<targetEnd where !ByteClass.isTargetByte(line[i]) {
            throw ParserError(.invalidRequestLine, "request target contains byte \(ByteClass.describe(line[i]))")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[0..<methodEnd])
        let targetBytes = UnsafeBufferPointer(rebasing: line[targetStart..<targetEnd])
        try checkForm(of: targetBytes, method: methodBytes)

        return Parts(
            method: method(methodBytes),
            target: String(decoding: targetBytes, as: UTF8.self),
            version: version)
    }

    /// `HTTP/1.0` or `HTTP/1.1`; another well-formed `HTTP/d.d` is unsupported (505), anything else malformed.
    static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>) throws(ParserError) -> HTTPVersion {
        guard bytes.count == 8, bytes[0] == UInt8(ascii: "H"), bytes[1] == UInt8(ascii: "T"),
            bytes[2] == UInt8(ascii: "T"), bytes[3] == UInt8(ascii: "P"), bytes[4] == UInt8(ascii: "/"),
            ByteClass.isDigit(bytes[5]), bytes[6] == UInt8(ascii: "."), ByteClass.isDigit(bytes[7])
        else {
            throw ParserError(.invalidRequestLine, "HTTP version is not \"HTTP/1.1\" or \"HTTP/1.0\"")
        }
        let major = Int(bytes[5] &- UInt8(ascii: "0")), minor = Int(bytes[7] &- UInt8(ascii: "0"))
        guard major == 1, minor <= 1 else {
            throw ParserError(.unsupportedVersion, "HTTP/\(major).\(minor) is not supported; use HTTP/1.1")
        }
        return minor == 1 ? .http1_1 : .http1_0
    }

    /// Origin-form (`/…`) or absolute-form (`scheme://…`) for any method, `*` only for OPTIONS, and authority-form
    /// (`host:port`) only for CONNECT.
    static func checkForm(of target: UnsafeBufferPointer<UInt8>, method: UnsafeBufferPointer<UInt8>) throws(ParserError)
    {
        let first = target[0]
        if method.elementsEqual("CONNECT".utf8) {
            // authority-form: host ":" port, no path.
            guard first != UInt8(ascii: "/"), target.contains(ByteClass.colon), !target.contains(UInt8(ascii: "/"))
            else {
                throw ParserError(.invalidRequestLine, "CONNECT needs an authority-form target \"host:port\"")
            }
            return
        }
        if first == UInt8(ascii: "/") { return }
        if target.count == 1 && first == UInt8(ascii: "*") {
            guard method.elementsEqual("OPTIONS".utf8) else {
                throw ParserError(.invalidRequestLine, "request target \"*\" is only allowed with OPTIONS")
            }
            return
        }
        // absolute-form with an authority: scheme "://", scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
        guard ByteClass.isAlpha(first) else {
            throw ParserError(.invalidRequestLine, "request target must start with \"/\" or be an absolute URI")
        }
        var i = 1
        while i < target.count {
            let c = target[i]
            if c == ByteClass.colon {
                if i + 2 < target.count && target[i + 1] == UInt8(ascii: "/") && target[i + 2] == UInt8(ascii: "/") {
                    return
                }
                break
            }
            guard
                ByteClass.isAlpha(c) || ByteClass.isDigit(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
                    || c == UInt8(ascii: ".")
            else { break }
            i += 1
        }
        throw ParserError(.invalidRequestLine, "request target must start with \"/\" or be an absolute URI")
    }

    /// The method, sharing the common constants' storage.
    @inline(__always)
    static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        if bytes.count == 3 && bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E")
            && bytes[2] == UInt8(ascii: "T")
        {
            return .get
        }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }
}

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

/// Byte classes of RFC 9110/9112, as small inlinable predicates for the parser's hot loops.
enum ByteClass {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let colon = UInt8(ascii: ":")

    /// `tchar` (RFC 9110 §5.6.2): the characters of a token such as a method or a field name.
    @inline(__always)
    static func isTokenChar(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// A byte allowed in a field value: HTAB, SP, VCHAR and obs-text (0x80–0xFF). Every other CTL (NUL, CR,
    /// LF, DEL, …) is not.
    @inline(__always)
    static func isFieldValueByte(_ c: UInt8) -> Bool {
        (c >= 0x20 && c != 0x7F) || c == tab
    }

    /// A byte allowed in a request target: VCHAR (0x21–0x7E). No space, CTL, NUL or non-ASCII byte.
    @inline(__always)
    static func isTargetByte(_ c: UInt8) -> Bool {
        c >= 0x21 && c <= 0x7E
    }

    /// Optional whitespace (OWS/BWS): SP or HTAB.
    @inline(__always)
    static func isWhitespace(_ c: UInt8) -> Bool {
        c == space || c == tab
    }

    @inline(__always)
    static func isDigit(_ c: UInt8) -> Bool {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    @inline(__always)
    static func isAlpha(_ c: UInt8) -> Bool {
        (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
    }

    /// The value of a hexadecimal digit, or nil.
    @inline(__always)
    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c &- UInt8(ascii: "a")) &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c &- UInt8(ascii: "A")) &+ 10
        default: nil
        }
    }

    /// Renders a byte for an error message, e.g. `0x00`.
    static func describe(_ c: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "0x" + String(decoding: [digits[Int(c >> 4)], digits[Int(c & 0x0F)]], as: UTF8.self)
    }
}
