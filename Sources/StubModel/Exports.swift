import StubHTTP
import StubXML

// StubKit does not re-export the engine: `HTTPMethod`, `HTTPHeaders`, `HTTPRequest`, `HTTPResponse`,
// `HTTPStatus` and `HTTPServer` are names Alamofire, Vapor, SwiftNIO and swift-http-types use too, and a
// test file importing one of them next to `StubTesting` would get "'HTTPMethod' is ambiguous for type
// lookup". What users of StubKit and StubTesting need from the engine is reachable under these names;
// code that drives the engine itself imports `StubHTTP`.

/// A request as the server received it (``LoggedRequest/request``): method, target, headers, body.
///
/// ```swift
/// let request: StubHTTPRequest = server.requests[0].request
/// request.method == .post; request.headers["Content-Type"]; request.body
/// ```
public typealias StubHTTPRequest = StubHTTP.HTTPRequest
/// An HTTP method token (`StubHTTPRequest.method`): `.get`, `.post`, `StubHTTPMethod("PURGE")`.
public typealias StubHTTPMethod = StubHTTP.HTTPMethod
/// Ordered header fields with case-insensitive lookup (``ResponseDefinition/headers``,
/// `StubHTTPRequest.headers`); a dictionary literal builds one.
public typealias StubHTTPHeaders = StubHTTP.HTTPHeaders
/// A status code and reason phrase.
public typealias StubHTTPStatus = StubHTTP.HTTPStatus
/// The HTTP version of a received request.
public typealias StubHTTPVersion = StubHTTP.HTTPVersion
/// A response as the server sent it (``LoggedRequest/response``): status, headers, body.
public typealias StubHTTPResponse = StubHTTP.HTTPResponse
/// `equalToXml` options: placeholders and exempted comparisons (``StringMatcher/equalToXml(_:_:)``).
public typealias XMLComparisonOptions = StubXML.XMLComparisonOptions
/// An XMLUnit comparison an `equalToXml` matcher can exempt (`"exemptedComparisons"`).
public typealias XMLComparisonType = StubXML.XMLComparisonType
/// Whether the server answers, refuses connections or hangs (``StubServer/availability``): `.online`,
/// `.offline`, `.hanging`.
public typealias StubServerAvailability = StubHTTP.ListenerAvailability
