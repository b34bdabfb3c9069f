/// An HTTP response status: a three-digit code and its reason phrase.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
    /// The status code, 100...999.
    public var code: Int
    /// The reason phrase sent on the status line, e.g. `"Not Found"`.
    public var reasonPhrase: String

    /// Creates a status. Without a reason phrase, the standard one for `code` is used (empty if unknown).
    public init(code: Int, reasonPhrase: String? = nil) {
        self.code = code
        self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardReasonPhrase(for: code)
    }

    public var description: String { "\(code) \(reasonPhrase)" }

    /// Whether a response with this status never carries a body (1xx, 204, 304).
    public var forbidsBody: Bool { (100..<200).contains(code) || code == 204 || code == 304 }

    public static let `continue` = HTTPStatus(code: 100)
    public static let ok = HTTPStatus(code: 200)
    public static let created = HTTPStatus(code: 201)
    public static let noContent = HTTPStatus(code: 204)
    public static let badRequest = HTTPStatus(code: 400)
    public static let notFound = HTTPStatus(code: 404)
    public static let requestTimeout = HTTPStatus(code: 408)
    public static let payloadTooLarge = HTTPStatus(code: 413)
    public static let uriTooLong = HTTPStatus(code: 414)
    public static let expectationFailed = HTTPStatus(code: 417)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    public static let internalServerError = HTTPStatus(code: 500)
    public static let notImplemented = HTTPStatus(code: 501)
    public static let serviceUnavailable = HTTPStatus(code: 503)
    public static let httpVersionNotSupported = HTTPStatus(code: 505)

    /// The IANA-registered reason phrase for a status code, or `""`.
    public static func standardReasonPhrase(for code: Int) -> String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 418: "I'm a teapot"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 508: "Loop Detected"
        default: ""
        }
    }
}
