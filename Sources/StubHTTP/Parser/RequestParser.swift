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
    private let endpoints: HTTPEndpoints?  // formatted once per connection, given to each request

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
