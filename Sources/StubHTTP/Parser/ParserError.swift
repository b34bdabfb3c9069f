/// Why a request could not be parsed, and the status the server answers with before closing.
///
/// ```swift
/// do { ... } catch let error as ParserError {
///     print(error.status.code, error) // 431 header section is larger than 65536 bytes
/// }
/// ```
public struct ParserError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of parse failure.
    public enum Kind: Sendable, Hashable {
        /// Malformed request line (bad method token, target or version syntax). 400.
        case invalidRequestLine
        /// Malformed header line: missing colon, bad name token, CTL/NUL in a value, bare LF. 400.
        case invalidHeader
        /// A header line starting with whitespace (obsolete line folding, RFC 9112 §5.2). 400.
        case obsoleteLineFolding
        /// Request line longer than ``ParserLimits/maxRequestLineBytes``. 414.
        case requestLineTooLong
        /// Header section larger than ``ParserLimits/maxHeaderBytes`` or more than
        /// ``ParserLimits/maxHeaderCount`` fields. 431.
        case headerOverflow
        /// Body larger than ``ParserLimits/maxBodyBytes``. 413.
        case bodyTooLarge
        /// Invalid or conflicting `Content-Length`. 400.
        case invalidContentLength
        /// Both `Content-Length` and `Transfer-Encoding` present (request smuggling guard). 400.
        case contentLengthWithTransferEncoding
        /// A transfer coding the server does not implement before a final `chunked` (`gzip, chunked`). 501.
        case unsupportedTransferEncoding
        /// A `Transfer-Encoding` whose final coding is not `chunked` (`gzip`, `chunked, gzip`), that applies
        /// `chunked` twice, or that is empty: the body length cannot be determined (RFC 9112 §6.3). 400.
        case invalidTransferEncoding
        /// An HTTP/1.1 request without a `Host` field, or any request with more than one (RFC 9112 §3.2). 400.
        case invalidHost
        /// Malformed chunk size, extension, terminator or trailer. 400.
        case invalidChunk
        /// An HTTP version other than 1.0 or 1.1, including the HTTP/2 preface. 505.
        case unsupportedVersion
        /// An `Expect` value other than `100-continue`. 417.
        case unsupportedExpectation
    }

    /// What went wrong.
    public let kind: Kind
    /// A human-readable detail, e.g. the offending header name.
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The status the server answers with.
    public var status: HTTPStatus {
        switch kind {
        case .invalidRequestLine, .invalidHeader, .obsoleteLineFolding, .invalidContentLength,
            .contentLengthWithTransferEncoding, .invalidChunk, .invalidTransferEncoding, .invalidHost:
            .badRequest
        case .requestLineTooLong: .uriTooLong
        case .headerOverflow: .requestHeaderFieldsTooLarge
        case .bodyTooLarge: .payloadTooLarge
        case .unsupportedTransferEncoding: .notImplemented
        case .unsupportedVersion: .httpVersionNotSupported
        case .unsupportedExpectation: .expectationFailed
        }
    }

    public var description: String { detail }
}
