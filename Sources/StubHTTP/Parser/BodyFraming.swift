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

    /// - Throws: `.contentLengthWithTransferEncoding` (both present), `.invalidHeader` (Transfer-Encoding on
    ///   HTTP/1.0), `.unsupportedTransferEncoding` (anything but a lone `chunked`), `.invalidContentLength`,
    ///   `.bodyTooLarge` (Content-Length over the limit) and `.unsupportedExpectation` (Expect other than
    ///   `100-continue`, HTTP/1.1 only).
    init(headers: HTTPHeaders, version: HTTPVersion, limits: ParserLimits) throws(ParserError) {
        var contentLength: Int?
        var sawTransferEncoding = false
        var codings = 0
        var chunkedIsOnlyCoding = true
        var sawExpect = false
        var unsupportedExpectation: String?
        for field in headers.fields {
            let name = field.name
            if HTTPHeaders.equalsIgnoringCase(name, "Content-Length") {
                let length = try Self.parseContentLength(field.value)
                if let contentLength, contentLength != length {
                    throw ParserError(.invalidContentLength, "Content-Length values differ (\(contentLength) and \(length))")
                }
                contentLength = length
            } else if HTTPHeaders.equalsIgnoringCase(name, "Transfer-Encoding") {
                sawTransferEncoding = true
                for element in field.value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                    let coding = Substring(element).trimmingSpaces()
                    if coding.isEmpty { continue }
                    codings += 1
                    if !HTTPHeaders.equalsIgnoringCase(coding, "chunked") { chunkedIsOnlyCoding = false }
                }
            } else if HTTPHeaders.equalsIgnoringCase(name, "Expect") {
                if !HTTPHeaders.equalsIgnoringCase(field.value, "100-continue") && unsupportedExpectation == nil {
                    unsupportedExpectation = field.value
                }
                sawExpect = true
            }
        }
        if sawTransferEncoding {
            guard contentLength == nil else {
                throw ParserError(.contentLengthWithTransferEncoding,
                                  "request has both Content-Length and Transfer-Encoding")
            }
            guard version != .http1_0 else {
                throw ParserError(.invalidHeader, "Transfer-Encoding is not allowed in an HTTP/1.0 request")
            }
            guard codings == 1 && chunkedIsOnlyCoding else {
                throw ParserError(.unsupportedTransferEncoding,
                                  "only \"Transfer-Encoding: chunked\" is supported")
            }
            kind = .chunked
        } else if let contentLength {
            guard contentLength <= limits.maxBodyBytes else {
                throw ParserError(.bodyTooLarge, "Content-Length \(contentLength) is larger than \(limits.maxBodyBytes) bytes")
            }
            kind = contentLength == 0 ? .none : .contentLength(contentLength)
        } else {
            kind = .none
        }
        if let unsupportedExpectation, version == .http1_1 {
            throw ParserError(.unsupportedExpectation,
                              "Expect: \(unsupportedExpectation.prefix(64)) is not supported; only 100-continue is")
        }
        expectsContinue = sawExpect && version == .http1_1 && kind != .none
    }

    /// A Content-Length value: `1*DIGIT`, or a comma-separated list of identical ones (RFC 9110 §8.6).
    static func parseContentLength(_ value: String) throws(ParserError) -> Int {
        var result: Int?
        for element in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            var length = 0
            var digits = 0
            for c in Substring(element).trimmingSpaces().utf8 {
                guard ByteClass.isDigit(c) else {
                    throw ParserError(.invalidContentLength, "Content-Length \"\(value.prefix(64))\" is not a number")
                }
                let (times10, overflow1) = length.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(c &- UInt8(ascii: "0")))
                guard !overflow1 && !overflow2 else {
                    throw ParserError(.invalidContentLength, "Content-Length \"\(value.prefix(64))\" is too large")
                }
                length = sum
                digits += 1
            }
            guard digits > 0 else {
                throw ParserError(.invalidContentLength, "Content-Length \"\(value.prefix(64))\" is not a number")
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
