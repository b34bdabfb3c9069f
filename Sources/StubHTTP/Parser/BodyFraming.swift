/// How a request's body is delimited, decided from its head (RFC 9112 §6.3), and whether it expects
/// `100 Continue`.
struct BodyFraming {
    enum Kind: Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    var kind: Kind
    var expectsContinue: Bool

    /// - Parameter present: the ``FramingField`` raw values seen in `headers`, OR-ed; with none, the fields are not
    ///   looked at again.
    /// - Throws: `.contentLengthWithTransferEncoding` (both present), `.invalidHeader` (Transfer-Encoding on
    ///   HTTP/1.0), `.invalidTransferEncoding` (the final coding is not `chunked`, or `chunked` twice),
    ///   `.unsupportedTransferEncoding` (another coding before a final `chunked`), `.invalidContentLength`,
    ///   `.bodyTooLarge` (Content-Length over the limit) and `.unsupportedExpectation` (Expect other than
    ///   `100-continue`, HTTP/1.1 only).
    init(headers: HTTPHeaders, present: UInt8, version: HTTPVersion, limits: ParserLimits) throws(ParserError) {
        guard present != 0 else {
            kind = .none
            expectsContinue = false
            return
        }
        var contentLength: Int?
        var sawTransferEncoding = false
        var codings = 0
        var chunkedCodings = 0
        var lastIsChunked = false
        var sawExpect = false
        var unsupportedExpectation: String?
        for field in headers.fields {
            var name = field.name
            var value = field.value
            switch name.withUTF8({ FramingField.classify($0) }) {
            case .contentLength:
                let length = try value.withUTF8 { bytes in
                    Result { () throws(ParserError) -> Int in try Self.parseContentLength(bytes, field.value) }
                }.get()
                if let contentLength, contentLength != length {
                    throw ParserError(
                        .invalidContentLength, "Content-Length values differ (\(contentLength) and \(length))")
                }
                contentLength = length
            case .transferEncoding:
                sawTransferEncoding = true
                value.withUTF8 { bytes in
                    ASCIIBytes.forEachListElement(bytes) { coding in
                        guard coding.count > 0 else { return }
                        codings += 1
                        lastIsChunked = ASCIIBytes.equalsIgnoringCase(coding, "chunked")
                        if lastIsChunked { chunkedCodings += 1 }
                    }
                }
            case .expect:
                let isContinue = value.withUTF8 { ASCIIBytes.equalsIgnoringCase($0, "100-continue") }
                if !isContinue && unsupportedExpectation == nil { unsupportedExpectation = field.value }
                sawExpect = true
            case .host, nil:
                continue
            }
        }
        if sawTransferEncoding {
            guard contentLength == nil else {
                throw ParserError(
                    .contentLengthWithTransferEncoding,
                    "request has both Content-Length and Transfer-Encoding")
            }
            guard version != .http1_0 else {
                throw ParserError(.invalidHeader, "Transfer-Encoding is not allowed in an HTTP/1.0 request")
            }
            let quoted = { "Transfer-Encoding \"\(headers["Transfer-Encoding"].joined(separator: ", ").prefix(64))\"" }
            // RFC 9112 §6.3: unless `chunked` is the final coding the body length cannot be determined → 400.
            guard lastIsChunked else {
                throw ParserError(
                    .invalidTransferEncoding,
                    "\(quoted()) does not end with chunked")
            }
            guard chunkedCodings == 1 else {
                throw ParserError(
                    .invalidTransferEncoding,
                    "\(quoted()) applies chunked more than once")
            }
            guard codings == 1 else {
                throw ParserError(
                    .unsupportedTransferEncoding,
                    "\(quoted()): only chunked is supported")
            }
            kind = .chunked
        } else if let contentLength {
            guard contentLength <= limits.maxBodyBytes else {
                throw ParserError(
                    .bodyTooLarge,
                    "Content-Length \(contentLength) is larger than \(limits.maxBodyBytes) bytes")
            }
            kind = contentLength == 0 ? .none : .contentLength(contentLength)
        } else {
            kind = .none
        }
        if let unsupportedExpectation, version == .http1_1 {
            throw ParserError(
                .unsupportedExpectation,
                "Expect: \(unsupportedExpectation.prefix(64)) is not supported; only 100-continue is")
        }
        expectsContinue = sawExpect && version == .http1_1 && kind != .none
    }

    /// A Content-Length value: `1*DIGIT`, or a comma-separated list of identical ones (RFC 9110 §8.6).
    static func parseContentLength(_ bytes: UnsafeBufferPointer<UInt8>, _ value: String) throws(ParserError) -> Int {
        var result: Int?
        try ASCIIBytes.forEachListElement(bytes) { (element) throws(ParserError) in
            guard element.count > 0 else {
                throw ParserError(.invalidContentLength, "Content-Length \"\(value.prefix(64))\" is not a number")
            }
            var length = 0
            for c in element {
                guard ByteClass.isDigit(c) else {
                    throw ParserError(.invalidContentLength, "Content-Length \"\(value.prefix(64))\" is not a number")
                }
                let (times10, overflow1) = length.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(c &- UInt8(ascii: "0")))
                guard !overflow1 && !overflow2 else {
                    throw ParserError(.invalidContentLength, "Content-Length \"\(value.prefix(64))\" is too large")
                }
                length = sum
            }
            if let result, result != length {
                throw ParserError(.invalidContentLength, "Content-Length values differ in \"\(value.prefix(64))\"")
            }
            result = length
        }
        guard let result else { throw ParserError(.invalidContentLength, "Content-Length is empty") }
        return result
    }
}

/// The header fields the parser itself acts on, recognised from their name bytes without generic String work.
enum FramingField: UInt8 {
    case contentLength = 1
    case transferEncoding = 2
    case expect = 4
    /// Counted by the parser (RFC 9112 §3.2), not looked at by ``BodyFraming``.
    case host = 8

    /// The raw values of the fields ``BodyFraming`` reads.
    static let bodyFramingMask: UInt8 = contentLength.rawValue | transferEncoding.rawValue | expect.rawValue

    /// The field a name denotes (any ASCII case), or nil for every other field.
    @inline(__always)
    static func classify(_ name: UnsafeBufferPointer<UInt8>) -> FramingField? {
        switch name.count {
        case 14: ASCIIBytes.equalsIgnoringCase(name, "content-length") ? .contentLength : nil
        case 17: ASCIIBytes.equalsIgnoringCase(name, "transfer-encoding") ? .transferEncoding : nil
        case 6: ASCIIBytes.equalsIgnoringCase(name, "expect") ? .expect : nil
        case 4: ASCIIBytes.equalsIgnoringCase(name, "host") ? .host : nil
        default: nil
        }
    }
}

/// ASCII helpers on raw bytes.
enum ASCIIBytes {
    /// Whether `bytes` equals `lowercase` (which must be lower-case ASCII), ignoring ASCII case in `bytes`.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        for i in 0..<bytes.count {
            let c = bytes[i]
            let lower = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c | 0x20 : c
            if lower != expected[i] { return false }
        }
        return true
    }

    /// `bytes` without leading and trailing SP and HTAB.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0, end = bytes.count
        while start < end && ByteClass.isWhitespace(bytes[start]) { start += 1 }
        while end > start && ByteClass.isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Calls `body` with each comma-separated element of `bytes`, trimmed (empty elements included).
    @inline(__always)
    static func forEachListElement<E: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> Void
    ) throws(E) {
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
            try body(trimmed(UnsafeBufferPointer(rebasing: bytes[start..<i])))
            start = i + 1
        }
    }
}
