import Foundation
import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// Request-level matching. Rows marked "WM" were checked against WireMock 2.35.1.
struct RequestPatternTests {
    struct URLRow: CustomTestStringConvertible, Sendable {
        let matcher: URLMatcher, target: String, matches: Bool
        var testDescription: String { "\(matcher) vs \(target) → \(matches)" }
        init(_ matcher: URLMatcher, _ target: String, _ matches: Bool) {
            self.matcher = matcher
            self.target = target
            self.matches = matches
        }
    }

    static let urlRows: [URLRow] = [
        URLRow(.url("/u1"), "/u1", true),
        URLRow(.url("/u1"), "/u1?", true),  // WM: a bare "?" is dropped
        URLRow(.url("/u1"), "/u1/", false),  // WM
        URLRow(.url("/u1"), "/u1?a=1", false),
        URLRow(.url("/u1"), "http://example.com/u1", true),  // WM: absolute-form
        URLRow(.url("/s3/a%20b?x=1"), "/s3/a%20b?x=1", true),  // WM: as sent
        URLRow(.url("/s3/a b?x=1"), "/s3/a%20b?x=1", false),  // WM: not decoded
        URLRow(.url("/a?x=1&y=2"), "/a?y=2&x=1", false),
        URLRow(.urlPath("/s2/a%20b"), "/s2/a%20b", true),  // WM: raw path
        URLRow(.urlPath("/s1/a b"), "/s1/a%20b", false),  // WM
        URLRow(.urlPath("/ud/caf%C3%A9"), "/ud/caf%C3%A9", true),  // WM
        URLRow(.urlPath("/ud/caf%C3%A9"), "/ud/caf%c3%a9", false),  // WM: escapes compared as sent
        URLRow(.urlPath("/a"), "/a?x=1", true),
        URLRow(.urlPath("/a"), "/A", false),
        URLRow(.urlPattern("/u2.*"), "/u2?x=1", true),  // WM
        URLRow(.urlPattern("/ur/[a-z]+"), "/ur/abc?x=1", false),  // WM: the query is part of the URL
        URLRow(.urlPattern("/ur/[a-z]+"), "/ur/abc", true),  // WM
        URLRow(.urlPattern("/ur"), "/ur/abc", false),  // whole match
        URLRow(.urlPathPattern("/up/[a-z]+"), "/up/abc?x=1", true),  // WM
        URLRow(.urlPathPattern("/s4/a b"), "/s4/a%20b", false),  // WM
        URLRow(.urlPathPattern("/s4b/a%20b"), "/s4b/a%20b", true),  // WM
        URLRow(.urlPathPattern("/x/("), "/x/(", false),  // invalid regex: never matches
        URLRow(.urlPathTemplate("/users/{username}"), "/users/octocat", true),
        URLRow(.urlPathTemplate("/users/{username}"), "/users/octocat?page=2", true),
        URLRow(.urlPathTemplate("/users/{username}"), "/users/", false),
        URLRow(.urlPathTemplate("/users/{username}"), "/users/a/b", false),
        URLRow(.urlPathTemplate("/users/{username}"), "/users", false),
        URLRow(.urlPathTemplate("/a.b/{x}"), "/aXb/1", false),  // literal parts are escaped
        URLRow(.urlPathTemplate("/files/{name}.json"), "/files/report.json", true),
        URLRow(.urlPathTemplate("/static"), "/static", true)
    ]

    @Test("URL matchers", arguments: urlRows)
    func url(_ row: URLRow) {
        let result = RequestPattern(url: row.matcher).match(HTTPRequest(method: .get, target: row.target))
        #expect(result.isMatch == row.matches)
    }

    @Test("urlPathTemplate yields decoded path parameters")
    func pathParameters() {
        let pattern = RequestPattern(url: .urlPathTemplate("/users/{user}/repos/{repo}"))
        let result = pattern.match(HTTPRequest(method: .get, target: "/users/octo%20cat/repos/hello+world?x=1"))
        #expect(result.isMatch)
        #expect(result.pathParameters == ["user": "octo cat", "repo": "hello+world"])
        #expect(pattern.match(HTTPRequest(method: .get, target: "/users/a")).pathParameters.isEmpty)
    }

    struct FieldRow: CustomTestStringConvertible, Sendable {
        let label: String, pattern: RequestPattern, request: HTTPRequest, matches: Bool
        var testDescription: String { label }
    }

    static func get(_ target: String, _ headers: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(method: .get, target: target, headers: HTTPHeaders(headers))
    }

    static func eq(_ value: String) -> MultiValueMatcher { .single(.equalTo(value, caseInsensitive: false)) }
    static func auth(_ credentials: String, scheme: String = "Basic") -> (String, String) {
        ("Authorization", scheme + " " + Data(credentials.utf8).base64EncodedString())
    }

    static let fieldRows: [FieldRow] = [
        FieldRow(
            label: "query decoded + as space (WM)",
            pattern: RequestPattern(queryParameters: [NamedMatcher("q", eq("a b"))]),
            request: get("/?q=a+b"), matches: true),
        FieldRow(
            label: "query decoded %20 (WM)", pattern: RequestPattern(queryParameters: [NamedMatcher("q", eq("a b"))]),
            request: get("/?q=a%20b"), matches: true),
        FieldRow(
            label: "query '+' is not literal (WM)",
            pattern: RequestPattern(queryParameters: [NamedMatcher("q", eq("a+b"))]),
            request: get("/?q=a+b"), matches: false),
        FieldRow(
            label: "query name decoded (WM)", pattern: RequestPattern(queryParameters: [NamedMatcher("a b", eq("1"))]),
            request: get("/?a%20b=1"), matches: true),
        FieldRow(
            label: "query any of repeated values",
            pattern: RequestPattern(queryParameters: [NamedMatcher("q", eq("y"))]),
            request: get("/?q=x&q=y"), matches: true),
        FieldRow(
            label: "query without '=' equals \"\" (WM)",
            pattern: RequestPattern(queryParameters: [NamedMatcher("q", eq(""))]),
            request: get("/?q"), matches: true),
        FieldRow(
            label: "query absent but present without value (WM)",
            pattern: RequestPattern(queryParameters: [NamedMatcher("q", .single(.absent))]), request: get("/?q"),
            matches: false),
        FieldRow(
            label: "query absent (WM)", pattern: RequestPattern(queryParameters: [NamedMatcher("q", .single(.absent))]),
            request: get("/?r=1"), matches: true),
        FieldRow(
            label: "query hasExactly",
            pattern: RequestPattern(queryParameters: [
                NamedMatcher(
                    "id", .hasExactly([.equalTo("1", caseInsensitive: false), .equalTo("2", caseInsensitive: false)]))
            ]),
            request: get("/?id=2&id=1"), matches: true),
        FieldRow(
            label: "query includes",
            pattern: RequestPattern(queryParameters: [
                NamedMatcher("id", .includes([.equalTo("3", caseInsensitive: false)]))
            ]),
            request: get("/?id=2&id=1"), matches: false),
        FieldRow(
            label: "header name case-insensitive", pattern: RequestPattern(headers: [NamedMatcher("X-H", eq("two"))]),
            request: get("/", [("x-h", "two")]), matches: true),
        FieldRow(
            label: "header any of repeated fields (WM)",
            pattern: RequestPattern(headers: [NamedMatcher("X-H", eq("two"))]),
            request: get("/", [("X-H", "one"), ("X-H", "two")]), matches: true),
        FieldRow(
            label: "header value case-sensitive",
            pattern: RequestPattern(headers: [NamedMatcher("Accept", eq("application/json"))]),
            request: get("/", [("Accept", "Application/JSON")]), matches: false),
        FieldRow(
            label: "header missing", pattern: RequestPattern(headers: [NamedMatcher("Accept", eq("x"))]),
            request: get("/"), matches: false),
        FieldRow(
            label: "cookie among several (WM)", pattern: RequestPattern(cookies: [NamedMatcher("b", eq("2"))]),
            request: get("/", [("Cookie", "a=1; b=2")]), matches: true),
        FieldRow(
            label: "cookie without space (WM)", pattern: RequestPattern(cookies: [NamedMatcher("b", eq("2"))]),
            request: get("/", [("Cookie", "a=1;b=2")]), matches: true),
        FieldRow(
            label: "cookie in a second Cookie field (WM)",
            pattern: RequestPattern(cookies: [NamedMatcher("b", eq("2"))]),
            request: get("/", [("Cookie", "a=1"), ("Cookie", "b=2")]), matches: true),
        FieldRow(
            label: "cookie repeated, any value (WM)", pattern: RequestPattern(cookies: [NamedMatcher("b", eq("2"))]),
            request: get("/", [("Cookie", "b=3; b=2")]), matches: true),
        FieldRow(
            label: "cookie value with '=' (WM)", pattern: RequestPattern(cookies: [NamedMatcher("s", eq("x=y"))]),
            request: get("/", [("Cookie", "s=x=y")]), matches: true),
        FieldRow(
            label: "cookie quotes stripped (WM)", pattern: RequestPattern(cookies: [NamedMatcher("s", eq("q"))]),
            request: get("/", [("Cookie", "s=\"q\"")]), matches: true),
        FieldRow(
            label: "cookie absent (WM)", pattern: RequestPattern(cookies: [NamedMatcher("s", .single(.absent))]),
            request: get("/", [("Cookie", "t=1")]), matches: true),
        FieldRow(
            label: "cookie empty is present (WM)",
            pattern: RequestPattern(cookies: [NamedMatcher("s", .single(.absent))]),
            request: get("/", [("Cookie", "s=")]), matches: false),
        FieldRow(
            label: "cookie name is case-sensitive", pattern: RequestPattern(cookies: [NamedMatcher("S", eq("1"))]),
            request: get("/", [("Cookie", "s=1")]), matches: false),
        FieldRow(
            label: "basic auth (WM)",
            pattern: RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p:w")),
            request: get("/", [auth("u:p:w")]), matches: true),
        FieldRow(
            label: "basic auth scheme any case (WM)",
            pattern: RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p:w")),
            request: get("/", [auth("u:p:w", scheme: "BASIC")]), matches: true),
        FieldRow(
            label: "basic auth wrong password",
            pattern: RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p:w")),
            request: get("/", [auth("u:pw")]), matches: false),
        FieldRow(
            label: "basic auth missing",
            pattern: RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p")),
            request: get("/"), matches: false),
        FieldRow(
            label: "basic auth bearer",
            pattern: RequestPattern(basicAuthCredentials: BasicAuthCredentials(username: "u", password: "p")),
            request: get("/", [("Authorization", "Bearer abc")]), matches: false),
        FieldRow(
            label: "method exact", pattern: RequestPattern(method: .exactly("POST")), request: get("/"), matches: false),
        FieldRow(
            label: "method any", pattern: RequestPattern(method: .any),
            request: HTTPRequest(method: HTTPMethod("PURGE"), target: "/"), matches: true),
        FieldRow(
            label: "HEAD is not GET", pattern: RequestPattern(method: .exactly("GET")),
            request: HTTPRequest(method: .head, target: "/"), matches: false)
    ]

    @Test("Query, header, cookie, basic auth and method matching", arguments: fieldRows)
    func fields(_ row: FieldRow) {
        let result = row.pattern.match(row.request)
        #expect(result.isMatch == row.matches)
        #expect((result.distance == 0) == row.matches)
        #expect(CompiledRequestPattern(row.pattern).quickMatch(RequestContext(row.request)) == row.matches)
    }

    static let bodyRows: [(StringMatcher, String, Bool)] = [
        (.equalTo("", caseInsensitive: false), "", false),  // WM: an empty body is absent
        (.contains(""), "", false),  // WM
        (.absent, "", true),  // WM
        (.absent, "x", false),  // WM
        (.doesNotMatch("x"), "", true),  // WM
        (.equalTo("hello", caseInsensitive: false), "hello", true),
        (.contains("ell"), "hello", true),
        (.matches("h.*o"), "hello", true),
        (.matches("h.*d"), "hello\nworld", true),  // DOTALL (WM)
        (.matches("h.*o"), "hello\n", false)  // the whole body, trailing newline included
    ]

    @Test("Body patterns", arguments: bodyRows)
    func body(_ matcher: StringMatcher, _ body: String, _ matches: Bool) {
        let request = HTTPRequest(method: .post, target: "/", body: Array(body.utf8))
        #expect(RequestPattern(bodyPatterns: [matcher]).match(request).isMatch == matches)
    }

    @Test("All body patterns must match")
    func allBodyPatterns() {
        let pattern = RequestPattern(bodyPatterns: [.contains("a"), .contains("b")])
        #expect(pattern.match(HTTPRequest(method: .post, target: "/", body: Array("ab".utf8))).isMatch)
        let result = pattern.match(HTTPRequest(method: .post, target: "/", body: Array("a".utf8)))
        #expect(!result.isMatch)
        #expect(result.mismatches.map(\.description) == [#"body: expected contains "b", got "a""#])
    }

    @Test("Mismatches say what was expected and what arrived")
    func mismatches() {
        let pattern = RequestPattern(
            method: .exactly("GET"), url: .urlPath("/users/octocat"),
            queryParameters: [NamedMatcher("page", .single(.equalTo("1", caseInsensitive: false)))],
            headers: [NamedMatcher("Authorization", .single(.matches("Bearer .+")))],
            cookies: [NamedMatcher("session", .single(.absent))])
        let request = HTTPRequest(method: .post, target: "/users/octocat?page=2", headers: ["Cookie": "session=abc"])
        let result = pattern.match(request)
        #expect(
            result.mismatches.map(\.description) == [
                #"method: expected "GET", got "POST""#,
                #"query "page": expected equalTo "1", got "2""#,
                #"header "Authorization": expected matches "Bearer .+", got absent"#,
                #"cookie "session": expected absent, got "abc""#
            ])
        // method 3 + query 1 × 1.0 + headers 1 × 1.0 + cookies 1 × 1.0 over 17.
        #expect(abs(result.distance - 6.0 / 17.0) < 1e-9)
    }

    @Test("Distance grows with the difference, and the URL weighs most")
    func distanceOrdering() {
        let pattern = RequestPattern(
            method: .exactly("GET"), url: .urlPath("/users/octocat"),
            headers: [NamedMatcher("Accept", .single(.equalTo("application/json", caseInsensitive: false)))])
        func distance(_ method: HTTPMethod, _ target: String, _ accept: String) -> Double {
            pattern.match(HTTPRequest(method: method, target: target, headers: ["Accept": accept])).distance
        }
        let exact = distance(.get, "/users/octocat", "application/json")
        let oneLetter = distance(.get, "/users/octocab", "application/json")
        let otherUser = distance(.get, "/users/torvalds", "application/json")
        let otherHeader = distance(.get, "/users/octocat", "text/html")
        let otherMethod = distance(.post, "/users/octocat", "application/json")
        let everything = distance(.post, "/orgs/apple/repos", "text/html")
        #expect(exact == 0)
        #expect(0 < oneLetter && oneLetter < otherUser)
        #expect(otherHeader < otherMethod)
        #expect(otherUser < everything && everything <= 1)
    }

    @Test("Compile errors are listed")
    func compileErrors() {
        let pattern = CompiledRequestPattern(
            RequestPattern(url: .urlPathPattern("/a/("), bodyPatterns: [.matchesJsonPath("$[", nil)]))
        #expect(pattern.compileErrors.count == 2)
        #expect(CompiledRequestPattern(RequestPattern(url: .urlPathTemplate("/a/{b}"))).compileErrors.isEmpty)
    }
}
