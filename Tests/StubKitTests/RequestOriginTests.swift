import StubHTTP
import Testing

@testable import StubKit

/// `scheme`, `host`, `port` and `clientIp`. Expected values were observed on WireMock 2.35.1 (`host`,
/// `port`, `scheme`: `curl -H "Host: …"` against stubs using them) or read in WireMock 3's
/// `WireMockHttpServletRequestAdapter.getClientIp` (`clientIp`).
@Suite("Request origin: scheme, host, port, clientIp")
struct RequestOriginTests {
    private func decode(_ request: String) throws -> MappingDecoder.Result {
        try MappingDecoder().decodeDocument(
            try JSONParser.parse(#"{"request": \#(request), "response": {}}"#), file: "m.json")
    }

    private func compiled(_ request: String) throws -> CompiledRequestPattern {
        CompiledRequestPattern(try #require(try decode(request).mappings.first).request)
    }

    private func loadError(_ request: String) -> String? {
        do {
            _ = try decode(request)
            return nil
        } catch let error as StubsLoadError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    private static let endpoints = HTTPEndpoints(remoteAddress: "127.0.0.1", localAddress: "127.0.0.1", localPort: 8080)

    private func request(
        _ target: String = "/", headers: [(String, String)] = [], endpoints: HTTPEndpoints? = Self.endpoints
    ) -> StubHTTPRequest {
        StubHTTPRequest(method: .get, target: target, headers: StubHTTPHeaders(headers), endpoints: endpoints)
    }

    @Test("Decodes the four fields into the pattern")
    func decodes() throws {
        let pattern = try #require(
            try decode(
                #"{"scheme": "http", "host": {"equalTo": "localhost"}, "port": 8080, "clientIp": {"matches": "127\\..*"}}"#
            ).mappings.first
        ).request
        #expect(pattern.scheme == "http")
        #expect(pattern.host == .equalTo("localhost"))
        #expect(pattern.port == 8080)
        #expect(pattern.clientIp == .matches("127\\..*"))
    }

    @Test(
        "Refuses a value that could never be meant",
        arguments: [
            (
                #"{"scheme": "HTTP"}"#,
                #"m.json: request.scheme: expected "http" or "https" (lower case), found "HTTP""#
            ),
            (#"{"port": "eighty"}"#, #"m.json: request.port: expected an integer, found "eighty""#),
            (#"{"port": 0}"#, "m.json: request.port: expected an integer from 1 to 65535, found 0"),
            (
                #"{"host": "localhost"}"#,
                #"m.json: request.host: expected a matcher object such as {"equalTo": "localhost"}, found "localhost""#
            )
        ])
    func refuses(_ request: String, _ expected: String) {
        #expect(loadError(request) == expected)
    }

    @Test(
        "host is the Host field without its port, case and IPv6 brackets kept (WireMock 2.35.1)",
        arguments: [
            ("localhost", "localhost", true), ("localhost:99", "localhost", true), ("LOCALHOST", "localhost", false),
            ("localhost", "LocalHost", false), ("[::1]:80", "[::1]", true), ("[::1]:80", "::1", false),
            ("localhost.", "localhost", false)
        ])
    func host(_ field: String, _ expected: String, _ matches: Bool) throws {
        let pattern = try compiled(#"{"host": {"equalTo": "\#(expected)"}}"#)
        #expect(pattern.matches(request(headers: [("Host", field)])) == matches)
    }

    @Test("Without a Host field, host and port are the address and port the connection was accepted on")
    func noHost() throws {
        #expect(try compiled(#"{"host": {"equalTo": "127.0.0.1"}, "port": 8080}"#).matches(request()))
        // WireMock's Jackson reads a port written as a string holding a number.
        #expect(try compiled(#"{"host": {"equalTo": "127.0.0.1"}, "port": "8080"}"#).matches(request()))
        #expect(try compiled(#"{"host": {"equalTo": "127.0.0.1"}}"#).matches(request(headers: [("Host", "")])))
        #expect(!(try compiled(#"{"host": {"absent": true}}"#).matches(request())))
        // A request built in code has no connection: host is absent, and a host matcher does not match.
        #expect(!(try compiled(#"{"host": {"matches": ".*"}}"#).matches(request(endpoints: nil))))
    }

    @Test(
        "port comes from the target's authority, else Host (80 when it names none) (WireMock 2.35.1)",
        arguments: [
            ("/p", "localhost", 80), ("/p", "localhost:1234", 1234), ("/p", "localhost:0080", 80),
            ("http://other.example:1234/p", "localhost:80", 1234), ("http://other/p", "localhost:1234", 80)
        ])
    func port(_ target: String, _ field: String, _ expected: Int) throws {
        let pattern = try compiled(#"{"port": \#(expected)}"#)
        #expect(pattern.matches(request(target, headers: [("Host", field)])))
        let other = try compiled(#"{"port": \#(expected + 1)}"#)
        #expect(!other.matches(request(target, headers: [("Host", field)])))
    }

    @Test("An absolute-form target's host wins over the Host field (WireMock 2.35.1)")
    func absoluteForm() throws {
        let pattern = try compiled(#"{"host": {"equalTo": "localhost"}}"#)
        #expect(pattern.matches(request("http://localhost/h1", headers: [("Host", "zzz:1234")])))
    }

    @Test("scheme: \"http\" for plain connections, \"https\" over TLS; the near miss says which it got")
    func scheme() throws {
        #expect(try compiled(#"{"scheme": "http"}"#).matches(request()))
        let https = try compiled(#"{"scheme": "https"}"#)
        #expect(!https.matches(request()))
        let result = https.match(request())
        #expect(result.mismatches.map(\.part) == [.scheme])
        #expect(result.mismatches.first?.description == #"scheme: expected "https", got "http""#)
        var secure = Self.endpoints
        secure.isSecure = true
        #expect(https.matches(request(endpoints: secure)))
        #expect(try !compiled(#"{"scheme": "http"}"#).matches(request(endpoints: secure)))
    }

    @Test("clientIp is the first X-Forwarded-For field's whole value, else the client's address (WireMock 3)")
    func clientIp() throws {
        let loopback = try compiled(#"{"clientIp": {"equalTo": "127.0.0.1"}}"#)
        #expect(loopback.matches(request()))
        #expect(!loopback.matches(request(headers: [("X-Forwarded-For", "10.0.0.1")])))
        #expect(loopback.matches(request(headers: [("X-Forwarded-For", "")])))
        let chain = try compiled(#"{"clientIp": {"equalTo": "10.0.0.1, 10.0.0.2"}}"#)
        #expect(chain.matches(request(headers: [("X-Forwarded-For", "10.0.0.1, 10.0.0.2")])))
        #expect(
            !(try compiled(#"{"clientIp": {"equalTo": "10.0.0.1"}}"#)).matches(
                request(headers: [("X-Forwarded-For", "10.0.0.1, 10.0.0.2")])))
        #expect(!(try compiled(#"{"clientIp": {"matches": ".*"}}"#).matches(request(endpoints: nil))))
    }

    @Test("A near miss names host, port and client IP with what was received")
    func nearMiss() throws {
        let pattern = try compiled(
            #"{"urlPath": "/a", "host": {"equalTo": "api.example.com"}, "port": 443, "clientIp": {"equalTo": "10.0.0.1"}}"#
        )
        let result = pattern.match(request("/a", headers: [("Host", "localhost:8080")]))
        #expect(result.mismatches.map(\.part) == [.host, .port, .clientIp])
        #expect(
            result.mismatches.map(\.description) == [
                #"host: expected equalTo "api.example.com", got "localhost""#,
                #"port: expected 443, got "8080""#,
                #"client IP: expected equalTo "10.0.0.1", got "127.0.0.1""#
            ])
        #expect(result.distance > 0 && result.distance <= 1)
    }

    @Test("With --lenient, an unsupported option in host, clientIp or a form parameter is reported there")
    func lenientParts() throws {
        let request =
            #"{"host": {"before": "now", "actualFormat": "QQQ yyyy"}, "clientIp": {"before": "now", "actualFormat": "QQQ yyyy"}, "formParameters": {"k": {"before": "now", "actualFormat": "QQQ yyyy"}}}"#
        let result = try MappingDecoder(options: StubsLoadOptions(lenientMatchers: true)).decodeDocument(
            try JSONParser.parse(#"{"request": \#(request), "response": {}}"#), file: "m.json")
        let pattern = CompiledRequestPattern(try #require(result.mappings.first).request)
        #expect(!pattern.matches(self.request()))
        #expect(pattern.match(self.request()).mismatches.map(\.part) == [.host, .clientIp, .formParameter("k")])
    }

    @Test("Templates read request.host, request.port and request.scheme as WireMock 2.35.1 renders them")
    func templates() throws {
        let template = try Template("{{request.host}}|{{request.port}}|{{request.scheme}}")
        #expect(template.render(for: request(headers: [("Host", "Ex.com:77")])) == "Ex.com|77|http")
        #expect(template.render(for: request(headers: [("Host", "127.0.0.1:23456")])) == "127.0.0.1|23456|http")
    }

    @Test("The Swift DSL builds the same pattern as the stub file")
    func dsl() throws {
        let built = RequestPattern.get("/a").withScheme("http").withHost(.equalTo("localhost")).withPort(8080)
            .withClientIp(.matches("127.*"))
        let decoded = try #require(
            try decode(
                #"{"method": "GET", "urlPath": "/a", "scheme": "http", "host": {"equalTo": "localhost"}, "port": 8080, "clientIp": {"matches": "127.*"}}"#
            ).mappings.first
        ).request
        #expect(built == decoded)
        #expect(
            built.summary
                == #"GET /a with scheme "http", host equalTo "localhost", port 8080, client IP matches "127.*""#)
    }
}
