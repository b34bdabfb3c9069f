/// An HTTP response to send: status, header fields and a complete body.
///
/// The engine adds `Date`, `Content-Length` (unless the handler set `Transfer-Encoding`) and
/// `Connection` as needed when it writes the response; a `HEAD` request gets the headers without the
/// body.
///
/// ```swift
/// responder.respond(HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hi".utf8)))
/// ```
public struct HTTPResponse: Sendable, Hashable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response, `text/plain; charset=utf-8`.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
