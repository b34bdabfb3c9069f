/// What the parser produced from the bytes buffered so far.
public enum ParseEvent: Sendable, Equatable {
    /// The head of a request with `Expect: 100-continue` whose body has not fully arrived yet; the connection
    /// should write `HTTP/1.1 100 Continue\r\n\r\n` now. Emitted at most once per request, before its `.request`.
    case expectContinue
    /// A complete request (head + de-chunked body + trailers).
    case request(HTTPRequest)
}

/// A pure, incremental HTTP/1.1 request parser (work in progress: API only).
public struct RequestParser: Sendable {
    public let limits: ParserLimits
    private var buffer: [UInt8] = []
    private var readIndex = 0

    public init(limits: ParserLimits = ParserLimits()) {
        self.limits = limits
    }

    /// Buffers bytes read from the socket.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Buffers bytes read from the socket.
    public mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        buffer.append(contentsOf: bytes)
    }

    /// Parses what is buffered. Returns nil when more bytes are needed.
    public mutating func next() throws(ParserError) -> ParseEvent? {
        nil
    }

    /// Bytes buffered but not yet consumed by a returned request.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// True when no bytes of a partial request are buffered (between requests).
    public var isIdle: Bool { bufferedByteCount == 0 }
}
