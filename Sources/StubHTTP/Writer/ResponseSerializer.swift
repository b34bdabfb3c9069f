#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the engine writes a response for one particular request.
struct ResponseContext: Sendable, Hashable {
    /// The request was `HEAD`: send the headers of the `GET` response, no body.
    var isHead: Bool
    /// The request's version; HTTP/1.0 keep-alive needs an explicit `Connection: keep-alive`.
    var requestVersion: HTTPVersion
    /// The connection closes after this response: send `Connection: close`.
    var close: Bool

    init(isHead: Bool = false, requestVersion: HTTPVersion = .http1_1, close: Bool = false) {
        self.isHead = isHead
        self.requestVersion = requestVersion
        self.close = close
    }
}

/// Turns responses into bytes. Pure: no I/O, the `Date` line is passed in.
///
/// Output: `HTTP/1.1 <code> <reason>`, the handler's headers in order, `Content-Length`, `Date`, then
/// `Connection: close` when closing or `Connection: keep-alive` for an HTTP/1.0 keep-alive.
///
/// `Date` is the server's clock unless the handler set a `Date` field (a stub recorded with one, say): then the
/// handler's is sent and the server adds none, so a response never carries two (RFC 9110 §6.6.1).
///
/// The engine owns the framing: a handler's `Connection`, `Content-Length` and `Transfer-Encoding`
/// fields are dropped, a complete body is always sent with its real `Content-Length`, and a stream
/// is chunked (or close-delimited for HTTP/1.0). A handler (or a stub copied from a recording) that
/// says `Transfer-Encoding: chunked` or a wrong length cannot make a client hang or misread the body. The status line always says
/// HTTP/1.1, also to HTTP/1.0 clients (RFC 9110 §6.2 allows it; the framing we use is 1.0-safe).
/// 1xx, 204 and 304 responses carry no body and 1xx/204 no `Content-Length`; `HEAD` gets the
/// `Content-Length` of the body but not the body. One exception: a bodiless response that declares one
/// `Content-Length` answers a `HEAD` with it (the length a `GET` would get: RFC 9110 §9.3.2), so a stub for
/// `HEAD /report.pdf` can say how big the file is; any other request gets the real length, 0.
enum ResponseSerializer {
    static let crlf: [UInt8] = [13, 10]
    static let connectionClose = Array("Connection: close\r\n".utf8)
    static let connectionKeepAlive = Array("Connection: keep-alive\r\n".utf8)
    static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
    static let chunkedTerminator = Array("0\r\n\r\n".utf8)
    static let transferEncodingChunked = Array("Transfer-Encoding: chunked\r\n".utf8)

    /// Appends the complete response to `out`.
    static func serialize(
        _ response: HTTPResponse, context: ResponseContext, dateLine: [UInt8], into out: inout [UInt8]
    ) {
        out.reserveCapacity(out.count + 256 + response.body.count)
        let carriesDate = appendHead(response, forHEAD: context.isHead, into: &out)
        appendTail(context: context, dateLine: carriesDate ? [] : dateLine, into: &out)
        if !context.isHead && !response.status.forbidsBody { out.append(contentsOf: response.body) }
    }

    /// Appends a prepared response: its prebuilt bytes plus `Date` and `Connection`.
    static func serialize(
        _ prepared: PreparedResponse, context: ResponseContext, dateLine: [UInt8], into out: inout [UInt8]
    ) {
        out.append(contentsOf: context.isHead ? prepared.headForHEAD : prepared.head)
        appendTail(context: context, dateLine: prepared.carriesDate ? [] : dateLine, into: &out)
        if !context.isHead && !prepared.forbidsBody { out.append(contentsOf: prepared.body) }
    }

    /// Appends a prepared response's head (with `Date` and `Connection`) but not its body, which the
    /// connection writes from the response's own storage.
    static func serializeHead(
        _ prepared: PreparedResponse, context: ResponseContext, dateLine: [UInt8], into out: inout [UInt8]
    ) {
        out.append(contentsOf: context.isHead ? prepared.headForHEAD : prepared.head)
        appendTail(context: context, dateLine: prepared.carriesDate ? [] : dateLine, into: &out)
    }

    /// How a streamed body is framed.
    enum StreamFraming: Sendable, Equatable {
        /// `Transfer-Encoding: chunked` (HTTP/1.1 requests).
        case chunked
        /// Raw bytes, the end marked by closing the connection (HTTP/1.0 requests).
        case closeDelimited
        /// No body at all (HEAD, 204, 304).
        case none
    }

    /// Appends the head of a streamed response and returns how its body is to be framed.
    /// Any `Content-Length`/`Transfer-Encoding` the handler set is replaced.
    static func serializeStreamingHead(
        _ head: HTTPResponse, context: ResponseContext, dateLine: [UInt8],
        into out: inout [UInt8]
    ) -> (StreamFraming, closes: Bool) {
        let framing: StreamFraming
        var context = context
        var announcesChunks = false
        if context.isHead || head.status.forbidsBody {
            framing = .none
            announcesChunks = !head.status.forbidsBody
        } else if context.requestVersion == .http1_0 {
            framing = .closeDelimited
            context.close = true
        } else {
            framing = .chunked
            announcesChunks = true
        }
        let carriesDate = appendStatusAndHeaders(head, into: &out)
        if announcesChunks { out.append(contentsOf: transferEncodingChunked) }
        appendTail(context: context, dateLine: carriesDate ? [] : dateLine, into: &out)
        return (framing, context.close)
    }

    /// Appends the head of a response whose body is produced later but whose length is known now: status line,
    /// the handler's headers, `Content-Length: contentLength` (unless the status forbids a body), `Date` and
    /// `Connection`. The body follows as raw bytes (none for `HEAD`).
    static func serializeSizedHead(
        _ head: HTTPResponse, contentLength: Int, context: ResponseContext,
        dateLine: [UInt8], into out: inout [UInt8]
    ) {
        let carriesDate = appendStatusAndHeaders(head, into: &out)
        let code = head.status.code
        if !(code < 200 || code == 204 || code == 304) {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(contentLength, into: &out)
            out.append(contentsOf: crlf)
        }
        appendTail(context: context, dateLine: carriesDate ? [] : dateLine, into: &out)
    }

    /// Appends one chunk (`size CRLF bytes CRLF`); empty input appends nothing.
    static func appendChunk(_ bytes: [UInt8], into out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        appendHex(bytes.count, into: &out)
        out.append(contentsOf: crlf)
        out.append(contentsOf: bytes)
        out.append(contentsOf: crlf)
    }

    // MARK: - Pieces

    /// Status line, the handler's headers and, if needed, `Content-Length`. No `Date`/`Connection`.
    /// - Parameter forHEAD: the answer to a `HEAD` request: a bodiless response's declared length is kept.
    /// - Returns: whether the handler's headers carry a `Date` field (the server then adds none).
    @discardableResult
    static func appendHead(_ response: HTTPResponse, forHEAD: Bool = false, into out: inout [UInt8]) -> Bool {
        let carriesDate = appendStatusAndHeaders(response, into: &out)
        let status = response.status
        if !(status.code < 200 || status.code == 204 || status.code == 304) {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal((forHEAD ? declaredLength(of: response) : nil) ?? response.body.count, into: &out)
            out.append(contentsOf: crlf)
        }
        return carriesDate
    }

    /// The `Content-Length` a bodiless response declares for a `HEAD` request: its one `Content-Length` field,
    /// when that is a decimal number (at most 18 digits); otherwise nil, and the real length (0) is sent.
    static func declaredLength(of response: HTTPResponse) -> Int? {
        guard response.body.isEmpty else { return nil }
        var declared: Int?
        for field in response.headers where field.name.utf8.count == 14 {
            guard HTTPHeaders.equalsIgnoringCase(field.name, "Content-Length") else { continue }
            guard declared == nil else { return nil }
            let digits = field.value.utf8
            guard (1...18).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return nil
            }
            declared = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        return declared
    }

    /// Status line and the handler's headers, less the framing fields.
    /// - Returns: whether the handler's headers carry a `Date` field.
    @discardableResult
    static func appendStatusAndHeaders(_ response: HTTPResponse, into out: inout [UInt8]) -> Bool {
        var carriesDate = false
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, into: &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: response.status.reasonPhrase.utf8)
        out.append(contentsOf: crlf)
        for field in response.headers where !isFramingField(field.name) {
            if !carriesDate && isDateField(field.name) { carriesDate = true }
            out.append(contentsOf: field.name.utf8)
            out.append(UInt8(ascii: ":"))
            out.append(UInt8(ascii: " "))
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: crlf)
        }
        return carriesDate
    }

    /// `Date`: the server adds its own only when the handler set none.
    @inline(__always)
    static func isDateField(_ name: String) -> Bool {
        name.utf8.count == 4 && HTTPHeaders.equalsIgnoringCase(name, "Date")
    }

    /// `Connection`, `Content-Length`, `Transfer-Encoding`: written by the engine, never copied from the handler.
    @inline(__always)
    static func isFramingField(_ name: String) -> Bool {
        switch name.utf8.count {
        case 10: HTTPHeaders.equalsIgnoringCase(name, "Connection")
        case 14: HTTPHeaders.equalsIgnoringCase(name, "Content-Length")
        case 17: HTTPHeaders.equalsIgnoringCase(name, "Transfer-Encoding")
        default: false
        }
    }

    static func appendTail(context: ResponseContext, dateLine: [UInt8], into out: inout [UInt8]) {
        out.append(contentsOf: dateLine)
        if context.close {
            out.append(contentsOf: connectionClose)
        } else if context.requestVersion == .http1_0 {
            out.append(contentsOf: connectionKeepAlive)
        }
        out.append(contentsOf: crlf)
    }

    static func appendDecimal(_ value: Int, into out: inout [UInt8]) {
        guard value > 0 else {
            if value == 0 { out.append(UInt8(ascii: "0")) } else { out.append(contentsOf: String(value).utf8) }
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, no allocation
        withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            var rest = value
            while rest > 0 {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            out.append(contentsOf: scratch[index...])
        }
    }

    private static func appendHex(_ value: Int, into out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        var shift = (Int.bitWidth - value.leadingZeroBitCount + 3) / 4 * 4 - 4
        hex.withUTF8Buffer { table in
            while shift >= 0 {
                out.append(table[(value >> shift) & 0xF])
                shift -= 4
            }
        }
    }
}

/// Formats HTTP dates in IMF-fixdate form (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum IMFDate {
    private static let days: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun",
        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    ]

    /// The 29 bytes of the IMF-fixdate for `epochSeconds` (UTC).
    static func format(epochSeconds: Int) -> [UInt8] {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(29)
        append(days[Int(parts.tm_wday) % 7], to: &out)
        out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")])
        appendTwoDigits(Int(parts.tm_mday), to: &out)
        out.append(UInt8(ascii: " "))
        append(months[Int(parts.tm_mon) % 12], to: &out)
        out.append(UInt8(ascii: " "))
        let year = Int(parts.tm_year) + 1900
        appendTwoDigits(year / 100, to: &out)
        appendTwoDigits(year % 100, to: &out)
        out.append(UInt8(ascii: " "))
        appendTwoDigits(Int(parts.tm_hour), to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_min), to: &out)
        out.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(parts.tm_sec), to: &out)
        out.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "G"), UInt8(ascii: "M"), UInt8(ascii: "T")])
        return out
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    private static func appendTwoDigits(_ value: Int, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (value / 10) % 10))
        out.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10))
    }
}

/// The `Date: …\r\n` header line, recomputed at most once per second. One per event loop.
struct DateCache {
    private var second = -1
    private(set) var line: [UInt8] = []

    /// The header line for the current wall-clock second.
    mutating func currentLine() -> [UInt8] {
        line(forEpochSecond: Int(time(nil)))
    }

    /// The header line for `epochSecond`, reusing the cached bytes within the same second.
    mutating func line(forEpochSecond epochSecond: Int) -> [UInt8] {
        if epochSecond != second {
            second = epochSecond
            line = Array("Date: ".utf8) + IMFDate.format(epochSeconds: epochSecond) + [13, 10]
        }
        return line
    }
}
