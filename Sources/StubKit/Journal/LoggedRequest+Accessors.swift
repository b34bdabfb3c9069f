import StubHTTP

/// The parts of the request tests read most, without going through ``LoggedRequest/request``.
///
/// ```swift
/// let login = try #require(server.requests(matching: .post("/login")).last)
/// #expect(login.header("Content-Type") == "application/json")
/// #expect(login.queryParameter("redirect") == "/home")
/// ```
extension LoggedRequest {
    /// The request method (`GET`, `POST`, …).
    public var method: String { request.method.rawValue }

    /// The request target as sent: path and query (`/users/octocat?tab=repos`).
    public var target: String { request.target }

    /// The path, percent-decoded, without the query (`/users/octocat`).
    public var path: String { request.path }

    /// The first value of header `name` (any case), or `nil` when the request has none.
    public func header(_ name: String) -> String? { request.headers.first(name: name) }

    /// Every value of header `name` (any case), in the order received.
    public func headers(_ name: String) -> [String] { request.headers[name] }

    /// The first value of query parameter `name` (percent-decoded), or `nil` when the query has none.
    public func queryParameter(_ name: String) -> String? {
        request.queryItems.first { $0.name == name }?.value
    }

    /// The virtual host whose port the request arrived on (``StubServer/Configuration/virtualHosts``,
    /// lower-cased), or `nil` for a request to the primary port (its `Host` header says where it was sent). The
    /// admin API's JSON carries it as `virtualHost`, so entries read through `StubServerClient` have it too.
    public var virtualHost: String? { RequestContext.virtualHost(of: request) }
}
