import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// Field-level differences for JSON bodies.
struct JSONDiffTests {
    static func json(_ text: String) -> JSONValue {
        (try? JSONParser.parse(Array(text.utf8))) ?? .null
    }

    static func diff(_ expected: String, _ actual: String, order: Bool = false, extra: Bool = false) -> [String] {
        JSONDiff.lines(
            expected: json(expected), actual: json(actual), ignoreArrayOrder: order, ignoreExtraElements: extra)
    }

    @Test(
        "Changed, missing and unexpected members, nested paths and array indexes",
        arguments: [
            (
                #"{"name":"x","private":false}"#, #"{"name":"x","private":true}"#,
                ["$.private: expected false, got true"]
            ),
            (#"{"a":1,"b":2}"#, #"{"a":1}"#, [#"$.b: missing, expected 2"#]),
            (#"{"a":1}"#, #"{"a":1,"extra":[1,2]}"#, [#"$.extra: unexpected, got [1,2]"#]),
            (
                #"{"owner":{"login":"octocat"}}"#, #"{"owner":{"login":"octokat"}}"#,
                [#"$.owner.login: expected "octocat", got "octokat""#]
            ),
            (
                #"{"topics":["a","b","c"]}"#, #"{"topics":["a","x"]}"#,
                [#"$.topics[1]: expected "b", got "x""#, #"$.topics[2]: missing, expected "c""#]
            ),
            (#"{"t":[1]}"#, #"{"t":[1,2]}"#, ["$.t[1]: unexpected, got 2"]),
            (#"{"id":1}"#, #"{"id":"1"}"#, [#"$.id: expected 1, got "1""#]),
            (
                #"{"odd key":1,"it's":2}"#, #"{"odd key":0,"it's":3}"#,
                [#"$['odd key']: expected 1, got 0"#, #"$['it\'s']: expected 2, got 3"#]
            ),
            (#"[1,2]"#, #"{"a":1}"#, [#"$: expected [1,2], got {"a":1}"#])
        ])
    func differences(expected: String, actual: String, lines: [String]) {
        #expect(Self.diff(expected, actual) == lines)
    }

    @Test("Nothing the matcher accepts is listed: numbers numerically, extra elements and order when ignored")
    func followsTheMatcher() {
        #expect(Self.diff(#"{"n":1,"m":[1,2]}"#, #"{"n":1.0,"m":[1,2]}"#).isEmpty)
        #expect(Self.diff(#"{"a":1}"#, #"{"a":2,"b":3}"#, extra: true) == ["$.a: expected 1, got 2"])
        #expect(
            Self.diff(#"{"t":[1,2]}"#, #"{"t":[2,1,3]}"#, order: true) == ["$.t: expected 2 items in any order, got 3"])
        #expect(
            Self.diff(#"{"t":[1,2]}"#, #"{"t":[2,3]}"#, order: true) == ["$.t: missing, expected 1 at any position"])
        // Each expected item is there, but not twice: the arrays are shown whole.
        #expect(
            Self.diff(#"{"t":[1,1]}"#, #"{"t":[1,2]}"#, order: true) == [
                #"$.t: expected [1,1] in any order, got [1,2]"#
            ])
    }

    @Test("Bounded: a few lines, long values cut, the rest counted")
    func bounded() throws {
        let expected = "{" + (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let lines = Self.diff(expected, "{}")
        #expect(lines.count == JSONDiff.lineLimit + 1)
        #expect(lines.last == "… and 12 more differences")
        let long = String(repeating: "y", count: 10_000)
        let line = try #require(Self.diff(#"{"s":"x"}"#, #"{"s":"\#(long)"}"#).first)
        #expect(line.utf8.count < 150)
        #expect(line.hasSuffix("…"))
    }

    @Test("matchesJsonPath: the selected value against the nested matcher, or its absence")
    func jsonPath() {
        let body = MatchSubject(body: Array(#"{"name":"stub","private":true,"owner":{"id":1}}"#.utf8))
        func explain(_ matcher: StringMatcher) -> [String] { CompiledStringMatcher(matcher).explain(body) }
        #expect(
            explain(.matchesJsonPath("$.name", .equalTo("stubserver", caseInsensitive: false)))
                == [#"$.name: expected equalTo "stubserver", got "stub""#])
        #expect(explain(.matchesJsonPath("$.topics", nil)) == ["$.topics: expected a value, got absent"])
        #expect(
            explain(
                .matchesJsonPath(
                    "$.owner",
                    .equalToJson(Self.json(#"{"id":2}"#), ignoreArrayOrder: false, ignoreExtraElements: false)))
                == ["$.owner.id: expected 2, got 1"])
        #expect(explain(.equalTo("x", caseInsensitive: false)).isEmpty)
        #expect(
            CompiledStringMatcher(.matchesJsonPath("$.a", nil)).explain(MatchSubject(body: Array("not json".utf8)))
                .isEmpty)
    }

    @Test("Near-miss reports show the diff instead of the escaped body")
    func nearMissReport() {
        let stub = StubMapping(
            id: "s", name: "Create repo", request: .post("/user/repos").withJSONBody(["name": "x", "private": false]),
            response: ResponseDefinition())
        let request = HTTPRequest(
            method: .post, target: "/user/repos", headers: ["Content-Type": "application/json"],
            body: Array(#"{"name":"x","private":true}"#.utf8))
        let table = RouteTable([stub])
        let report = NearMissReport.render(request: request, nearMisses: table.nearMisses(for: request))
        #expect(
            report.hasSuffix(
                """
                Closest stubs:
                  1. "Create repo" — 1 difference
                       body: does not match equalToJson {"name":"x","private":false}
                         $.private: expected false, got true

                """))
        #expect(!report.contains(#"\""#))
    }
}
