import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The tests' one HTTP client for a server on this machine, in two modes:
/// - raw bytes over a socket: ``RawClient`` on a connection of its own (exact bytes out, a parsed response
///   back, reads with a timeout), or ``request(port:_:_:headers:body:timeoutSeconds:)`` for one request
///   read until the server closes;
/// - URLSession, as an app's code sends an ordinary request: ``send(_:_:headers:body:timeout:)``.
public enum LoopbackClient {
    /// A URLSession without caches or cookies, as a user's client code would make one for tests.
    public static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // No cookie jar: a test whose stub answers Set-Cookie must not change the Cookie header that
        // another test sets by hand (FoundationNetworking replaces it with the jar's cookies, ports ignored).
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        // Generous: on Linux, URLSession's own work runs on Dispatch's root-queue threads, the ones Swift's tasks
        // run on (2 here), and a full `swift test` has stretches of up to ~20 s in which tests keep them busy, which
        // stall every URLSession of the process meanwhile. 10 s failed requests that were merely waiting.
        configuration.timeoutIntervalForRequest = 60
        return URLSession(configuration: configuration)
    }()

    /// URLSession mode: `method url` with `headers` and `body`. `timeout` is the request's own
    /// (`URLRequest.timeoutInterval`), as an app with a short timeout sets it: the request fails with
    /// `URLError.timedOut` once that long has passed without a byte. Without it, the session's 60 s.
    public static func send(
        _ method: String = "GET", _ url: URL, headers: [String: String] = [:],
        body: Data? = nil, timeout: Duration? = nil
    ) async throws -> Fetched {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            request.timeoutInterval = Double(seconds) + Double(attoseconds) / 1e18
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HTTPTestError("not an HTTP response: \(response)") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return Fetched(status: http.statusCode, body: data, headers: fields)
    }

    /// Raw mode, one request on a connection of its own: sends `method target HTTP/1.1` with the header lines
    /// `headers` (and `Host: 127.0.0.1` unless they have a Host), `Content-Length` unless a GET or HEAD has no
    /// body, and `Connection: close`; then reads until the server closes (or `timeoutSeconds` pass without a
    /// byte). The body is every byte after the head, as sent.
    public static func request(
        port: Int, _ method: String, _ target: String, headers: [String] = [],
        body: [UInt8] = [], timeoutSeconds: Int = 30
    ) throws -> ClientResponse {
        let hasHost = headers.contains { $0.lowercased().hasPrefix("host:") }
        var head =
            "\(method) \(target) HTTP/1.1\r\n" + (hasHost ? "" : "Host: 127.0.0.1\r\n")
            + headers.map { $0 + "\r\n" }.joined()
        if !body.isEmpty || !["GET", "HEAD"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        return try parse(
            RawSocket.exchange(
                port: port, Array(head.utf8) + body, timeoutSeconds: timeoutSeconds,
                limit: 256 << 20))
    }

    /// A whole response read until the server closed: the head parsed, the body every byte after it.
    public static func parse(_ bytes: [UInt8]) throws -> ClientResponse {
        guard let end = bytes.firstRange(of: [13, 10, 13, 10]) else {
            throw ClientError(description: "no header block in \(bytes.count) bytes")
        }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusLine = lines[0]
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw ClientError(description: "bad status line \(statusLine)")
        }
        let headers = lines.dropFirst().compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return ClientResponse(
            head: head, statusLine: statusLine, status: status, headers: headers,
            body: Array(bytes[end.upperBound...]))
    }
}

/// What the URLSession mode read from a response.
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

    /// The header value, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

public struct HTTPTestError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
