import Foundation
import StubHTTP
import StubKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A stub server reached through its admin API (`/__admin`) — the CLI, a Docker container, a
/// `StubServer` in another process, or WireMock itself — with the same operations as `StubServer`,
/// `async`.
///
/// ```swift
/// let server = StubServerClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// try await server.reset()
/// try await server.stub(.get("/users/octocat"), .json(["login": "octocat"]))
/// // … drive the app …
/// #expect(try await server.received(.get("/users/octocat")) == 1)
/// ```
public final class StubServerClient: StubServerAdmin {
    /// The server's address; admin calls go to `baseURL/__admin/…`.
    public let baseURL: URL
    /// Sent with every admin call (e.g. an `Authorization` header for a guarded admin API).
    public let headers: [String: String]
    /// The isolated server this client drives, when ``createIsolatedServer(name:stubs:)`` made it; else `nil`.
    public let isolatedServer: IsolatedServerInfo?
    /// How long one admin call may take.
    let timeout: TimeInterval
    private let session: URLSession

    /// - Parameters:
    ///   - baseURL: `http://HOST:PORT` (or `https://…`) of the server.
    ///   - headers: extra header fields for every admin call. Default none.
    ///   - timeout: how long one admin call may take. Default 30 seconds.
    ///   - certificateAuthority: for an `https` URL, a CA certificate (DER) to trust besides the system's: the
    ///     server's (`stubserver ca export --der`, `GET /__admin/certs/ca.crt`). Default: the local CA of this
    ///     machine's user, when there is one. Validation is never turned off. On Linux, URLSession trusts only the
    ///     system's CAs, so this is not used there.
    public convenience init(
        baseURL: URL, headers: [String: String] = [:], timeout: TimeInterval = 30,
        certificateAuthority: [UInt8]? = nil
    ) {
        self.init(
            baseURL: baseURL, headers: headers, timeout: timeout, isolatedServer: nil,
            certificateAuthority: certificateAuthority)
    }

    /// A client of `baseURL`, which is the isolated server `isolatedServer` when it is not `nil`.
    init(
        baseURL: URL, headers: [String: String], timeout: TimeInterval, isolatedServer: IsolatedServerInfo?,
        certificateAuthority: [UInt8]? = nil
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.timeout = timeout
        self.isolatedServer = isolatedServer
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = timeout
        #if canImport(Security)
            if let authority = Self.authorityToTrust(certificateAuthority, for: baseURL) {
                session = URLSession(
                    configuration: configuration, delegate: AuthorityTrustDelegate(authority: authority),
                    delegateQueue: nil)
                return
            }
        #endif
        session = URLSession(configuration: configuration)
    }

    /// A client of a server started with `--admin-token TOKEN` (or `STUBSERVER_ADMIN_TOKEN`): every admin
    /// call sends `Authorization: Bearer TOKEN`.
    ///
    /// ```swift
    /// let server = StubServerClient(baseURL: URL(string: "http://192.168.1.20:8080")!, adminToken: "s3cret")
    /// ```
    public convenience init(baseURL: URL, adminToken: String, timeout: TimeInterval = 30) {
        self.init(baseURL: baseURL, headers: ["Authorization": "Bearer \(adminToken)"], timeout: timeout)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// An admin call's answer: status and body.
    struct Answer: Sendable {
        var status: Int
        var body: [UInt8]
        var call: String

        /// The body as JSON.
        func json() throws(StubServerClientError) -> JSONValue {
            do { return try JSONParser.parse(body) } catch {
                throw StubServerClientError(
                    kind: .unexpectedAnswer, call: call, status: status,
                    detail: "not JSON (\(error)): \(String(decoding: body.prefix(200), as: UTF8.self))")
            }
        }
    }

    /// Calls `endpoint` with its `parameters` (`{id}`, `{name}`) and `body`; throws for a status of 400 or more
    /// unless it is in `accepting`.
    /// - Parameter detailed: whether to ask for stubserver's own detail (``AdminCall/detailQuery``), which
    ///   a WireMock server ignores.
    func send(
        _ endpoint: AdminCall.Endpoint, _ parameters: String..., body: JSONValue? = nil, rawBody: [UInt8]? = nil,
        accepting: Set<Int> = [], detailed: Bool = false
    ) async throws(StubServerClientError) -> Answer {
        let adminCall = AdminCall(endpoint, parameters)
        let (request, call) = makeRequest(
            detailed ? adminCall.detailed : adminCall, body: rawBody ?? body.map { Array($0.serialized(.compact).utf8) }
        )
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw StubServerClientError(
                kind: .unreachable, call: call, status: 0,
                detail: error.localizedDescription + Self.trustHint(for: baseURL, error: error))
        }
        return try Self.answer(data, response, call: call, accepting: accepting)
    }

    /// Resets the server (`POST /__admin/reset`) and waits, for XCTest's synchronous `setUp`: the answer
    /// arrives on URLSession's own queue, never on the caller's, so waiting cannot deadlock. Returns the status.
    @_spi(StubTesting)
    public func resetAndWait() throws -> Int {
        try sendAndWait(AdminCall(.reset), body: nil).status
    }

    /// Sends `call` and waits for its answer, as ``resetAndWait()`` does; throws for a status of 400 or more.
    func sendAndWait(_ adminCall: AdminCall, body: JSONValue?) throws(StubServerClientError) -> Answer {
        let (request, call) = makeRequest(adminCall, body: body.map { Array($0.serialized(.compact).utf8) })
        let box = LockedValue<Result<Answer, StubServerClientError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let baseURL = baseURL
        session.dataTask(with: request) { data, response, error in
            let result: Result<Answer, StubServerClientError>
            if let error {
                result = .failure(
                    StubServerClientError(
                        kind: .unreachable, call: call, status: 0,
                        detail: error.localizedDescription + Self.trustHint(for: baseURL, error: error))
                )
            } else {
                result = Result { () throws(StubServerClientError) in
                    try Self.answer(data ?? Data(), response, call: call, accepting: [])
                }
            }
            box.withLock { $0 = result }
            done.signal()
        }.resume()
        done.wait()
        guard let result = box.withLock({ $0 }) else {
            throw StubServerClientError(kind: .unreachable, call: call, status: 0, detail: "no answer")
        }
        return try result.get()
    }

    private func makeRequest(_ call: AdminCall, body: [UInt8]?) -> (URLRequest, String) {
        let shown = "\(call.method) /__admin\(call.path)"
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        // AdminCall percent-encodes its parameters, so the path always parses.
        let url = URL(string: base + "/__admin" + call.path + (call.query.map { "?" + $0 } ?? "")) ?? baseURL
        var request = URLRequest(url: url)
        request.httpMethod = call.method
        if let body {
            request.httpBody = Data(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return (request, shown)
    }

    private static func answer(
        _ data: Data, _ response: URLResponse?, call: String,
        accepting: Set<Int>
    ) throws(StubServerClientError) -> Answer {
        guard let http = response as? HTTPURLResponse else {
            throw StubServerClientError(kind: .unexpectedAnswer, call: call, status: 0, detail: "not an HTTP response")
        }
        let answer = Answer(status: http.statusCode, body: [UInt8](data), call: call)
        if answer.status >= 400, !accepting.contains(answer.status) {
            var detail = errorDetail(answer.body)
            if answer.status == 401 {
                detail +=
                    " (the server was started with an admin token: set STUBSERVER_ADMIN_TOKEN beside STUBSERVER_URL, "
                    + "or pass StubServerClient(baseURL:adminToken:))"
            }
            throw StubServerClientError(kind: .rejected, call: call, status: answer.status, detail: detail)
        }
        return answer
    }

    /// The `detail` of WireMock's `{"errors": [{"detail": …}]}`, else the body's start.
    private static func errorDetail(_ body: [UInt8]) -> String {
        if let json = try? JSONParser.parse(body), case .array(let errors)? = json["errors"],
            let detail = errors.first?["detail"]?.stringValue
        {
            return detail
        }
        let text = String(decoding: body.prefix(500), as: UTF8.self)
        return text.isEmpty ? "(empty body)" : text
    }
}
