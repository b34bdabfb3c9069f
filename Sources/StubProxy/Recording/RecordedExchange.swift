import StubHTTP
import StubModel

/// One request and the response it got, as captured by a proxy or read from a HAR file: what
/// ``StubWriter`` turns into a stub.
///
/// ```swift
/// let exchange = RecordedExchange(
///     request: .init(method: "GET", url: "/users/octocat?per_page=5", headers: ["Accept": "application/json"]),
///     response: .init(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"login":"octocat"}"#.utf8)))
/// ```
public struct RecordedExchange: Sendable, Hashable {
    /// The request as the client sent it.
    public struct Request: Sendable, Hashable {
        /// The method as sent, e.g. `GET` (case is kept).
        public var method: String
        /// Path and query as sent, not decoded: `/search/users?q=octo%20cat`. An absolute URL
        /// (`https://api.github.com/users`) is accepted; only its path and query are used.
        public var url: String
        /// The header fields in order.
        public var headers: StubHTTPHeaders
        /// The body; empty for none.
        public var body: [UInt8]
        /// The host it was sent to, when its stub must match that host alone (a forward-proxy recording):
        /// the stub gets a `host` matcher. `nil`: any host.
        public var host: String?

        public init(
            method: String, url: String, headers: StubHTTPHeaders = [:], body: [UInt8] = [], host: String? = nil
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.host = host
        }
    }

    /// The response as the upstream sent it, its body already decoded from any `Content-Encoding`
    /// (as URLSession and HAR exporters give it).
    public struct Response: Sendable, Hashable {
        /// The status code (100–599).
        public var status: Int
        /// The header fields in order.
        public var headers: StubHTTPHeaders
        /// The body, decoded from any `Content-Encoding`; empty for none.
        public var body: [UInt8]

        public init(status: Int, headers: StubHTTPHeaders = [:], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    public var request: Request
    public var response: Response

    public init(request: Request, response: Response) {
        self.request = request
        self.response = response
    }
}
