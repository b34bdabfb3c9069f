import Foundation
import StubTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the tests read from a response.
public struct Fetched: Sendable {
    public var status: Int
    public var body: Data
    public var headers: [String: String]

    public init(status: Int, body: Data, headers: [String: String]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw HTTPTestError("body is not a JSON object: \(text)")
        }
        return object
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

public struct HTTPTestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A URLSession without caches or cookies, as a user's client code would make one for tests.
public enum HTTP {
    public static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // No cookie jar: a test whose stub answers Set-Cookie must not change the Cookie header that
        // another test sets by hand (FoundationNetworking replaces it with the jar's cookies, ports ignored).
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }()

    public static func get(_ server: StubServer, _ path: String, headers: [String: String] = [:]) async throws -> Fetched {
        try await send(server, "GET", path, headers: headers)
    }

    public static func send(_ server: StubServer, _ method: String, _ path: String,
                     headers: [String: String] = [:], body: Data? = nil) async throws -> Fetched {
        guard let url = URL(string: server.baseURL.absoluteString + path) else {
            throw HTTPTestError("bad path \(path)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HTTPTestError("not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Fetched(status: http.statusCode, body: data, headers: fields)
    }
}

/// The demo stubs of this repository, found as a user would find theirs.
public enum Demo {
    public static func stubs() throws -> URL { try StubsDirectory.locate(named: "Stubs", from: #filePath) }
}
