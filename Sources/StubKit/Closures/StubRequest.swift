import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The request a Swift closure stub answers: what was sent, with the parts a stub reads already
/// split out (path parameters of a `urlPathTemplate`, query, cookies, body as text or JSON).
///
/// ```swift
/// server.stub(.post(pathTemplate: "/users/{name}/follow")) { request in
///     let order = try request.decode(FollowOrder.self)
///     return .json(["user": .string(request.pathParameters["name"] ?? ""), "notify": .bool(order.notify)])
/// }
/// ```
public struct StubRequest: Sendable {
    /// The request as received.
    public let request: StubHTTPRequest
    /// The decoded `{name}` segments of the stub's `urlPathTemplate`; empty otherwise.
    public let pathParameters: [String: String]

    init(_ request: StubHTTPRequest, pathParameters: [String: String]) {
        self.request = request
        self.pathParameters = pathParameters
    }

    /// `GET`, `POST`, ...
    public var method: StubHTTPMethod { request.method }
    /// The path, percent-decoded (`/users/jane doe`).
    public var path: String { request.path }
    /// Path and query as sent (`/users?page=2`).
    public var url: String { request.target }
    /// The header fields in order; look up with `headers.first(name:)`, any case.
    public var headers: StubHTTPHeaders { request.headers }
    /// The body's bytes.
    public var body: [UInt8] { request.body }

    /// Every query parameter's values, decoded (`?tag=a&tag=b` → `["tag": ["a", "b"]]`).
    public var query: [String: [String]] {
        var result: [String: [String]] = [:]
        for item in request.queryItems { result[item.name, default: []].append(item.value) }
        return result
    }

    /// The first value of query parameter `name`.
    public func query(_ name: String) -> String? { request.queryValues(name).first }

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? { request.headers.first(name: name) }

    /// Every cookie of the `Cookie` fields, by name.
    public var cookies: [String: String] {
        RequestContext.parseCookies(request.headers["Cookie"]).compactMapValues(\.first)
    }

    /// The body as UTF-8 text (invalid bytes repaired).
    public var bodyText: String { String(decoding: request.body, as: UTF8.self) }

    /// The body parsed as JSON.
    /// - Throws: ``JSONParseError`` when it is not JSON.
    public func json() throws(JSONParseError) -> JSONValue { try JSONParser.parse(request.body) }

    /// The body decoded with `decoder` (a plain `JSONDecoder` by default).
    /// - Throws: the decoder's `DecodingError`.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(request.body))
    }
}
