// Stands in for a networking library an app's tests often import next to StubTesting (Alamofire,
// SwiftNIO, Vapor, swift-http-types): it declares the same generic names as stubserver's engine.
// NameClashTests imports both, so an ambiguous name there fails the build.

/// The app's own HTTP method type (Alamofire has `HTTPMethod` too).
public struct HTTPMethod: RawRepresentable, Equatable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let get = HTTPMethod(rawValue: "GET")
}

/// The app's header type (Alamofire `HTTPHeaders`, NIO `HTTPHeaders`).
public struct HTTPHeaders: Equatable, Sendable {
    public var fields: [String: String]
    public init(_ fields: [String: String]) { self.fields = fields }
}

/// swift-http-types' `HTTPRequest`.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var path: String
    public init(method: HTTPMethod, path: String) { self.method = method; self.path = path }
}

/// swift-http-types' `HTTPResponse`.
public struct HTTPResponse: Sendable {
    public var status: HTTPStatus
    public init(status: HTTPStatus) { self.status = status }
}

/// NIO's `HTTPResponseStatus`, Vapor's `HTTPStatus`.
public struct HTTPStatus: Equatable, Sendable {
    public var code: Int
    public init(code: Int) { self.code = code }
}

/// Vapor's `HTTPServer`.
public final class HTTPServer: Sendable {
    public init() {}
}
