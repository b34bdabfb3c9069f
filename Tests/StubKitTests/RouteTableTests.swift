import Foundation
import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

struct RouteTableTests {
    static func stub(_ id: String, priority: Int = StubMapping.defaultPriority, _ request: RequestPattern)
        -> StubMapping
    {
        StubMapping(id: id, priority: priority, request: request, response: ResponseDefinition(body: .text(id)))
    }

    static func get(_ target: String) -> HTTPRequest { HTTPRequest(method: .get, target: target) }

    @Test(
        "The lowest priority wins, then the most recently added",
        arguments: [
            // (stubs as (id, priority, urlPath or nil for any URL), expected winner id)
            ([("a", 5, "/x"), ("b", 5, "/x")], "b"),
            ([("a", 1, "/x"), ("b", 5, "/x")], "a"),
            ([("a", 5, "/x"), ("b", 1, nil), ("c", 5, "/x")], "b"),
            ([("a", 2, nil), ("b", 3, "/x"), ("c", 2, "/y")], "a"),
            ([("a", 5, "/y"), ("b", 5, "/x"), ("c", 5, "/y")], "b"),
            ([("a", 5, nil), ("b", 5, "/x")], "b"),
            ([("a", 5, "/x"), ("b", 5, nil)], "b")
        ] as [([(String, Int, String?)], String)])
    func priorityAndRecency(_ stubs: [(String, Int, String?)], _ winner: String) {
        let table = RouteTable(
            stubs.map { Self.stub($0.0, priority: $0.1, RequestPattern(url: $0.2.map(URLMatcher.urlPath))) })
        #expect(table.match(Self.get("/x"))?.mapping.id == winner)
    }

    @Test("Method buckets and ANY")
    func methods() {
        let table = RouteTable([
            Self.stub("get", RequestPattern(method: .exactly("GET"), url: .urlPath("/r"))),
            Self.stub("post", RequestPattern(method: .exactly("POST"), url: .urlPath("/r"))),
            Self.stub("any-pattern", priority: 6, RequestPattern(url: .urlPathPattern("/r.*")))
        ])
        #expect(table.match(Self.get("/r"))?.mapping.id == "get")
        #expect(table.match(HTTPRequest(method: .post, target: "/r"))?.mapping.id == "post")
        #expect(table.match(HTTPRequest(method: .delete, target: "/r"))?.mapping.id == "any-pattern")
        #expect(table.match(Self.get("/s")) == nil)
    }

    @Test("url stubs are indexed by their path and still compare the query")
    func urlIndexing() {
        let table = RouteTable([
            Self.stub("q1", RequestPattern(url: .url("/a?x=1"))),
            Self.stub("plain", RequestPattern(url: .url("/a")))
        ])
        #expect(table.match(Self.get("/a?x=1"))?.mapping.id == "q1")
        #expect(table.match(Self.get("/a"))?.mapping.id == "plain")
        #expect(table.match(Self.get("/a?x=2")) == nil)
    }

    @Test("A match carries the index and template parameters")
    func routeMatch() throws {
        let table = RouteTable([
            Self.stub("other", RequestPattern(url: .urlPath("/other"))),
            Self.stub("user", RequestPattern(url: .urlPathTemplate("/users/{login}")))
        ])
        let found = try #require(table.match(Self.get("/users/octo%2Dcat")))
        #expect(found.index == 1)
        #expect(found.pathParameters == ["login": "octo-cat"])
    }

    @Test("An empty table matches nothing")
    func empty() {
        let table = RouteTable([])
        #expect(table.match(Self.get("/")) == nil)
        #expect(table.nearMisses(for: Self.get("/")).isEmpty)
        #expect(table.count == 0)
    }

    @Test(
        "First segments read off patterns and templates",
        arguments: [
            (URLMatcher.urlPathPattern("/users/[a-z]+"), "users"),
            (.urlPathPattern("^/users/.*"), "users"),
            (.urlPathPattern("/users"), "users"),
            (.urlPathPattern("/users.*"), nil),
            (.urlPathPattern("/users?/x"), nil),
            (.urlPathPattern("/users/x|/orgs/y"), nil),
            (.urlPathPattern("/a\\.b/c"), "a.b"),
            (.urlPathPattern("/a\\d/c"), nil),
            (.urlPathPattern("(?i)/users/x"), nil),
            (.urlPattern("/users\\?x=1"), "users"),
            (.urlPathTemplate("/users/{id}"), "users"),
            (.urlPathTemplate("/{org}/repos"), nil),
            (.urlPath("/users/1"), nil)
        ] as [(URLMatcher, String?)])
    func firstSegment(_ matcher: URLMatcher, _ segment: String?) {
        #expect(CompiledURLMatcher(matcher).firstSegment == segment)
    }

    /// RouteTable.match must equal a naive scan: the best (priority, then most recent) of all stubs whose
    /// pattern matches. Several hundred random stubs and requests over a small vocabulary, fixed seed.
    @Test("Index agrees with a linear scan", arguments: [1, 2, 3] as [UInt64])
    func randomizedCrossCheck(seed: UInt64) async {
        let outcome = await offPool { Self.crossCheckOutcome(seed: seed) }
        #expect(
            outcome.mismatches.isEmpty,
            "\(outcome.mismatches.count) mismatches:\n\(outcome.mismatches.prefix(20).joined(separator: "\n"))")
        #expect(outcome.matched > 50)  // the vocabulary is small enough for many hits
    }

    /// Off the cooperative pool (seconds of CPU in a debug build).
    static func crossCheckOutcome(seed: UInt64) -> CrossCheckOutcome {
        var rng = SplitMix64(seed: seed)
        let segments = ["a", "b", "users", "user", "octocat", "1", "a%20b"]
        func randomPath() -> String {
            "/"
                + (0..<Int.random(in: 1...3, using: &rng)).map { _ in segments.randomElement(using: &rng) ?? "a" }
                .joined(separator: "/")
        }
        let methods = ["GET", "POST", "PUT"]
        var mappings: [StubMapping] = []
        for i in 0..<400 {
            let path = randomPath()
            let url: URLMatcher?
            switch Int.random(in: 0..<7, using: &rng) {
            case 0: url = .url(path)
            case 1: url = .url(path + "?q=1")
            case 2: url = .urlPath(path)
            case 3: url = .urlPathPattern(path.replacingOccurrences(of: "a", with: "[ab]"))
            case 4: url = .urlPattern(path + ".*")
            case 5:
                url = .urlPathTemplate(
                    path.split(separator: "/").map { $0 == "1" ? "{id}" : String($0) }
                        .reduce("") { $0 + "/" + $1 })
            default: url = nil
            }
            let method: MethodMatcher =
                Bool.random(using: &rng) ? .any : .exactly(methods.randomElement(using: &rng) ?? "GET")
            let query =
                Int.random(in: 0..<4, using: &rng) == 0
                ? [NamedMatcher("q", .single(.equalTo("1", caseInsensitive: false)))] : []
            mappings.append(
                Self.stub(
                    "s\(i)", priority: Int.random(in: 1...5, using: &rng),
                    RequestPattern(method: method, url: url, queryParameters: query)))
        }
        let table = RouteTable(mappings)
        let compiled = mappings.map { CompiledRequestPattern($0.request) }
        var outcome = CrossCheckOutcome()
        for _ in 0..<400 {
            let query = ["", "?q=1", "?q=2"].randomElement(using: &rng) ?? ""
            let request = HTTPRequest(
                method: HTTPMethod(methods.randomElement(using: &rng) ?? "GET"), target: randomPath() + query)
            let best = LinearScan.winner(mappings, compiled, request)
            let found = table.match(request)
            if found?.index != best?.index || found?.pathParameters != best?.parameters {
                outcome.mismatches.append(
                    "\(request.method) \(request.target): table \(String(describing: found?.index)) \(String(describing: found?.pathParameters)), scan \(String(describing: best?.index)) \(String(describing: best?.parameters))"
                )
            }
            if best != nil { outcome.matched += 1 }
        }
        return outcome
    }
}
