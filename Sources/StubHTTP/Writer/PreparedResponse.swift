/// A response serialized once and written many times: status line, every header except `Date` and
/// `Connection`, and the body are kept as bytes; each write only splices in `Date` (unless the response sets its
/// own) and `Connection`.
///
/// ```swift
/// let hello = PreparedResponse(.text("hello"))
/// let server = HTTPServer { _, responder in responder.respond(hello) }
/// ```
public final class PreparedResponse: Sendable {
    /// The response this was built from.
    public let response: HTTPResponse
    /// Status line, headers and `Content-Length`, without `Date`, `Connection` and the blank line.
    let head: [UInt8]
    /// `head` as a `HEAD` request gets it: with the `Content-Length` a bodiless response declares (the same bytes
    /// as `head` otherwise).
    let headForHEAD: [UInt8]
    /// The body bytes.
    let body: [UInt8]
    /// 1xx, 204 and 304 responses never carry a body.
    let forbidsBody: Bool
    /// The handler asked for `Connection: close`.
    let closesConnection: Bool
    /// The response sets its own `Date`: the engine adds none.
    let carriesDate: Bool

    /// Serializes `response` once.
    public init(_ response: HTTPResponse) {
        self.response = response
        var head: [UInt8] = []
        carriesDate = ResponseSerializer.appendHead(response, into: &head)
        self.head = head
        if ResponseSerializer.declaredLength(of: response) != nil {
            var headForHEAD: [UInt8] = []
            ResponseSerializer.appendHead(response, forHEAD: true, into: &headForHEAD)
            self.headForHEAD = headForHEAD
        } else {
            headForHEAD = head
        }
        body = response.body
        forbidsBody = response.status.forbidsBody
        closesConnection = response.headers.containsToken("close", in: "Connection")
    }
}
