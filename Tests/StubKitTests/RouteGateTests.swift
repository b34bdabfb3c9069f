import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// The route table's byte-level gates must never change a result: the table against a linear scan of
/// full matches, over stubs with every URL kind, header, query, cookie, basic-auth and body matchers,
/// and requests that carry some of those (names in other cases, non-ASCII paths that Swift compares by
/// canonical equivalence).
struct RouteGateTests {
    static let segments = ["a", "b", "users", "1", "22", "K", "\u{212A}", "caf\u{E9}", "cafe\u{301}", "a%20b"]

    static func randomPath(_ rng: inout SplitMix64) -> String {
        "/"
            + (0..<Int.random(in: 1...3, using: &rng)).map { _ in segments.randomElement(using: &rng) ?? "a" }.joined(
                separator: "/")
    }

    static func randomURL(_ rng: inout SplitMix64) -> URLMatcher? {
        let path = randomPath(&rng)
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: return .url(path)
        case 1: return .url(path + "?q=1")
        case 2: return .urlPath(path)
        case 3: return .urlPathPattern(path.replacingOccurrences(of: "a", with: "[ab]"))
        case 4: return .urlPathPattern(".*" + path + "(/.*)?")
        case 5: return .urlPattern(path + "\\?q=[0-9]")
        case 6:
            return .urlPathTemplate(
                path.split(separator: "/").map { $0 == "1" || $0 == "b" ? "{id}" : String($0) }
                    .reduce("") { $0 + "/" + $1 })
        case 7: return .urlPathTemplate(path)
        case 8: return .urlPathPattern("/[a-z]+" + path)
        case 9: return .urlPattern("(/[a-z0-9]+)?" + path + "(\\?q=[0-9])?")
        default: return nil
        }
    }

    static func randomString(_ rng: inout SplitMix64) -> StringMatcher {
        [
            .equalTo("1", caseInsensitive: false), .equalTo("X", caseInsensitive: true), .contains("1"),
            .matches("[0-9]+"),
            .doesNotMatch("1"), .absent, .matchesJsonPath("$.a", nil),
            .equalToJson(.object([("a", .number("1"))]), ignoreArrayOrder: false, ignoreExtraElements: true),
            .doesNotContain("1"), .not(.contains("1")), .or([.absent, .equalTo("1", caseInsensitive: false)]),
            .and([.contains("1"), .doesNotMatch("X")])
        ]
        .randomElement(using: &rng) ?? .absent
    }

    static func randomMulti(_ rng: inout SplitMix64) -> MultiValueMatcher {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: .includes([randomString(&rng)])
        case 1: .hasExactly([randomString(&rng)])
        default: .single(randomString(&rng))
        }
    }

    @Test("Gated table agrees with a linear scan", arguments: [1, 2, 3, 4] as [UInt64])
    func crossCheck(seed: UInt64) async {
        let outcome = await offPool { Self.crossCheckOutcome(seed: seed) }
        #expect(
            outcome.mismatches.isEmpty,
            "\(outcome.mismatches.count) mismatches:\n\(outcome.mismatches.prefix(20).joined(separator: "\n"))")
        #expect(outcome.matched > 60)
    }

    /// Off the cooperative pool (seconds of CPU in a debug build).
    static func crossCheckOutcome(seed: UInt64) -> CrossCheckOutcome {
        var rng = SplitMix64(seed: seed)
        let methods = ["GET", "POST"]
        var mappings: [StubMapping] = []
        for i in 0..<300 {
            var pattern = RequestPattern(url: Self.randomURL(&rng))
            if Bool.random(using: &rng) { pattern.method = .exactly(methods.randomElement(using: &rng) ?? "GET") }
            for _ in 0..<([0, 0, 1, 2, 3].randomElement(using: &rng) ?? 0) {
                switch Int.random(in: 0..<5, using: &rng) {
                case 0:
                    pattern.headers.append(
                        NamedMatcher(
                            ["X-A", "x-b", "Accept"].randomElement(using: &rng) ?? "X-A", Self.randomMulti(&rng)))
                case 1:
                    pattern.queryParameters.append(
                        NamedMatcher(["q", "r", "a b"].randomElement(using: &rng) ?? "q", Self.randomMulti(&rng)))
                case 2: pattern.cookies.append(NamedMatcher("c", Self.randomMulti(&rng)))
                case 3: pattern.bodyPatterns.append(Self.randomString(&rng))
                default: pattern.basicAuthCredentials = BasicAuthCredentials(username: "u", password: "p")
                }
            }
            mappings.append(RouteTableTests.stub("s\(i)", priority: Int.random(in: 1...3, using: &rng), pattern))
        }
        let table = RouteTable(mappings)
        let compiled = mappings.map { CompiledRequestPattern($0.request) }
        var outcome = CrossCheckOutcome()
        for _ in 0..<600 {
            let query = ["", "", "?", "?q=1", "?q=2", "?r=X", "?a%20b=1&q=1", "?q"].randomElement(using: &rng) ?? ""
            var headers = HTTPHeaders()
            for name in ["X-A", "x-a", "X-B", "accept", "Cookie", "Authorization"]
            where Int.random(in: 0..<4, using: &rng) == 0 {
                let value =
                    name == "Cookie"
                    ? "c=1"
                    : name == "Authorization" ? "Basic dTpw" : ["1", "x", "22"].randomElement(using: &rng) ?? "1"
                headers.add(name: name, value: value)
            }
            let body = ["", "", "1", "{\"a\": 1}", "x"].randomElement(using: &rng) ?? ""
            let request = HTTPRequest(
                method: HTTPMethod(methods.randomElement(using: &rng) ?? "GET"),
                target: Self.randomPath(&rng) + query, headers: headers, body: Array(body.utf8))
            let best = LinearScan.winner(mappings, compiled, request)
            let found = table.match(request)
            if found?.index != best?.index || found?.pathParameters != best?.parameters {
                outcome.mismatches.append(
                    "\(request.method) \(request.target) \(request.headers) \(body): table \(String(describing: found?.index)) \(String(describing: found?.pathParameters)), scan \(String(describing: best?.index)) \(String(describing: best?.parameters))"
                )
            }
            if best != nil { outcome.matched += 1 }
        }
        return outcome
    }

    @Test("Name bits fold ASCII case for headers only")
    func nameBits() {
        #expect(
            RouteGate.nameBits("X-Api-Key", foldingCase: true) == RouteGate.nameBits("x-api-KEY", foldingCase: true))
        #expect(RouteGate.nameBits("Page", foldingCase: false) != RouteGate.nameBits("page", foldingCase: false))
        #expect(RouteGate.nameBits("a", foldingCase: true).nonzeroBitCount <= 2)
    }

    @Test("A urlPath with the Kelvin sign still matches K (Swift string equality), gated or not")
    func canonicalEquivalence() {
        let table = RouteTable([RouteTableTests.stub("k", RequestPattern(url: .url("/\u{212A}?x=1")))])
        #expect(table.match(RouteTableTests.get("/K?x=1"))?.mapping.id == "k")
        #expect(table.match(RouteTableTests.get("/K?x=2")) == nil)
    }

    @Test(
        "Raw path and URL cuts, ASCII (bytes) and not (Characters)",
        arguments: [
            ("/a?b=1", "/a", "/a?b=1"),
            ("/a?", "/a", "/a"),
            ("/a??", "/a", "/a?"),
            ("/?", "/", "/"),
            ("/a", "/a", "/a"),
            ("http://h:1/a?x", "/a", "/a?x"),
            ("/caf\u{E9}?x=\u{E9}", "/caf\u{E9}", "/caf\u{E9}?x=\u{E9}"),
            ("/\u{E9}?", "/\u{E9}", "/\u{E9}"),
            ("/a?\u{301}b", "/a?\u{301}b", "/a?\u{301}b")
        ] as [(String, String, String)])
    func contextCuts(_ target: String, _ rawPath: String, _ url: String) {
        let context = RequestContext(HTTPRequest(method: .get, target: target))
        #expect(context.rawPath == rawPath)
        #expect(context.url == url)
    }
}
