import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// `doesNotContain`, `and`, `or` and `not`. Rows marked "WM" were checked against WireMock 2.35.1 (standalone
/// jar, matcher on header `X`; 2.35.1 has no `not`); rows marked "WM3" come from WireMock 3's
/// `NotPatternTest`, `LogicalAndTest` and `NegativeContainsPatternTest`.
@Suite("Logical matchers")
struct LogicalMatcherTests {
    typealias Row = MatcherRow<StringMatcher, Bool>

    static let rows: [Row] = [
        Row(.doesNotContain("ab"), nil, true),  // WM
        Row(.doesNotContain("ab"), "xaby", false),  // WM
        Row(.doesNotContain("ab"), "a", true),  // WM
        Row(.doesNotContain("thing"), "otherstuff", true),  // WM3
        Row(.doesNotContain(""), "x", false),  // Java: every string contains ""
        Row(.and([.contains("a"), .contains("b")]), nil, false),  // WM
        Row(.and([.contains("a"), .contains("b")]), "xaby", true),  // WM
        Row(.and([.contains("a"), .contains("b")]), "a", false),  // WM
        Row(.and([.doesNotContain("a"), .doesNotMatch("b")]), nil, true),  // WM
        Row(.and([.doesNotContain("a"), .doesNotMatch("b")]), "zz", true),  // WM
        Row(.and([.doesNotContain("a"), .doesNotMatch("b")]), "a", false),  // WM
        Row(.or([.contains("a"), .absent]), nil, true),  // WM
        Row(.and([.contains("a")]), "a", true),  // WM: 2.35.1 takes one matcher
        Row(.and([.contains("a")]), "b", false),  // WM
        Row(.or([.contains("a")]), nil, false),  // WM
        Row(.or([.contains("a"), .absent]), "xaby", true),  // WM
        Row(.or([.contains("a"), .absent]), "zz", false),  // WM
        Row(.not(.contains("thing")), nil, true),  // WM3
        Row(.not(.contains("thing")), "otherthings", false),  // WM3
        Row(.not(.contains("thing")), "otherstuff", true),  // WM3
        Row(.not(.or([.equalTo("a", caseInsensitive: false), .equalTo("b", caseInsensitive: false)])), "c", true),
        Row(.not(.equalToJson(["a": 1], ignoreArrayOrder: false, ignoreExtraElements: false)), #"{"a":2}"#, true),
        Row(.not(.equalToJson(["a": 1], ignoreArrayOrder: false, ignoreExtraElements: false)), #"{"a":1}"#, false)
    ]

    @Test("Logical matchers against present and absent values", arguments: rows)
    func logical(_ row: Row) {
        #expect(row.matcher.matches(row.value) == row.expected)
        let distance = CompiledStringMatcher(row.matcher).distance(MatchSubject(row.value))
        #expect((distance == 0) == row.expected)
    }

    @Test("On a header, the single form passes when any value passes; absent values see nil (WM)")
    func multiValue() {
        let or = CompiledMultiValueMatcher(.single(.or([.contains("a"), .absent])))
        #expect(or.isSatisfied(by: []))
        #expect(or.isSatisfied(by: ["zz", "xa"]))
        #expect(!or.isSatisfied(by: ["zz"]))
        let doesNotContain = CompiledMultiValueMatcher(.single(.doesNotContain("ab")))
        #expect(doesNotContain.isSatisfied(by: []))
        #expect(doesNotContain.distance([]) == 0)
    }

    @Test("On bodies: an empty body is absent and passes doesNotContain; or mixes JSON and text matchers (WM)")
    func bodies() {
        func post(_ body: String) -> HTTPRequest { HTTPRequest(method: .post, target: "/", body: Array(body.utf8)) }
        let doesNotContain = CompiledRequestPattern(RequestPattern(bodyPatterns: [.doesNotContain("ab")]))
        #expect(doesNotContain.matches(post("")))
        #expect(!doesNotContain.matches(post("xaby")))
        #expect(doesNotContain.matches(post("zz")))
        let or = CompiledRequestPattern(
            RequestPattern(bodyPatterns: [.or([.equalToJson(["a": 1]), .contains("zz")])]))
        #expect(!or.matches(post("")))
        #expect(!or.matches(post("xaby")))
        #expect(or.matches(post(#"{"a": 1}"#)))
        #expect(or.matches(post("zz")))
    }

    @Test("Decodes doesNotContain, and, or and not from WireMock JSON")
    func decodes() throws {
        let json = try JSONParser.parse(
            #"{"request": {"bodyPatterns": [{"doesNotContain": "x"}, {"and": [{"contains": "a"}, {"not": {"matches": "b.*"}}]}, {"or": [{"equalTo": "q"}, {"absent": true}]}]}, "response": {}}"#
        )
        let mapping = try #require(try MappingDecoder().decodeDocument(json, file: nil).mappings.first)
        #expect(
            mapping.request.bodyPatterns == [
                .doesNotContain("x"), .and([.contains("a"), .not(.matches("b.*"))]),
                .or([.equalTo("q", caseInsensitive: false), .absent])
            ])
        #expect(mapping.request.unsupportedMatchers.isEmpty)
        let encoded = mapping.request.json["bodyPatterns"]
        #expect(
            encoded?.serialized()
                == #"[{"doesNotContain":"x"},{"and":[{"contains":"a"},{"not":{"matches":"b.*"}}]},{"or":[{"equalTo":"q"},{"absent":true}]}]"#
        )
    }

    static let errors: [(String, String)] = [
        (
            // WM: 2.35.1 answers 422 for an empty list, and takes a list of one.
            #"{"and": []}"#,
            #"request.bodyPatterns[0].and: expected an array of at least one matcher for 'and', found an array"#
        ),
        (
            #"{"or": {"contains": "a"}}"#,
            "request.bodyPatterns[0].or: expected an array of at least one matcher for 'or'"
        ),
        (#"{"not": "a"}"#, "request.bodyPatterns[0].not: expected a matcher object such as {\"equalTo\": \"a\"}"),
        (#"{"and": [{"contains": "a"}, {"matches": "("}]}"#, "request.bodyPatterns[0].and[1].matches: invalid regular"),
        (
            String(repeating: #"{"not": "#, count: 9) + #"{"contains": "a"}"# + String(repeating: "}", count: 9),
            "request.bodyPatterns[0]" + String(repeating: ".not", count: 9)
                + ": matchers nested deeper than 8 (each and, or, not, or matchesJsonPath"
        )
    ]

    @Test("Malformed logical matchers fail to load, naming the field", arguments: errors)
    func malformed(_ row: (String, String)) {
        let document = #"{"request": {"bodyPatterns": ["# + row.0 + "]}, \"response\": {}}"
        do {
            _ = try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: nil)
            Issue.record("decoded \(row.0)")
        } catch let error as StubsLoadError {
            #expect(error.description.contains(row.1), "\(error.description)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Eight levels load; an unsupported matcher inside and/or/not makes the stub never match")
    func depthAndUnsupported() throws {
        let eight = String(repeating: #"{"not": "#, count: 8) + #"{"contains": "a"}"# + String(repeating: "}", count: 8)
        let deep = try MappingDecoder().decodeDocument(
            try JSONParser.parse(#"{"request": {"bodyPatterns": ["# + eight + "]}, \"response\": {}}"), file: nil)
        #expect(deep.mappings.count == 1)
        let json = try JSONParser.parse(
            #"{"request": {"headers": {"X": {"not": {"before": "now", "actualFormat": "QQQ yyyy"}}}}, "response": {}}"#)
        let lenient = MappingDecoder(options: StubsLoadOptions(lenientMatchers: true))
        let request = try #require(try lenient.decodeDocument(json, file: nil).mappings.first?.request)
        #expect(request.unsupportedMatchers.map(\.name) == ["actualFormat"])
        #expect(!CompiledRequestPattern(request).matches(HTTPRequest(method: .get, target: "/", headers: ["X": "b"])))
    }

    @Test("Near misses say which operands fail")
    func explains() {
        let body = MatchSubject(body: Array("xay".utf8))
        #expect(
            CompiledStringMatcher(.and([.contains("a"), .contains("b")])).explain(body) == [#"fails contains "b""#])
        #expect(
            CompiledStringMatcher(.or([.contains("c"), .contains("b")])).explain(body) == [
                "none of the 2 matchers is satisfied", #"fails contains "c""#, #"fails contains "b""#
            ])
        #expect(
            CompiledStringMatcher(.not(.contains("a"))).explain(body) == [
                #"satisfies contains "a", which 'not' excludes"#
            ])
    }

    @Test("not of a JSON matcher does not match a body too large to be compared")
    func notOverJSONLimit() {
        let matcher = CompiledStringMatcher(
            .not(.equalToJson(["a": 1], ignoreArrayOrder: false, ignoreExtraElements: false)))
        let large = MatchSubject(body: Array(#"{"a":2}"#.utf8), jsonByteLimit: 3)
        #expect(!matcher.isSatisfied(by: large))
        #expect(matcher.distance(large) == 1)
        #expect(matcher.explain(large).first?.contains("was not parsed as JSON") == true)
        #expect(matcher.isSatisfied(by: MatchSubject(body: Array(#"{"a":2}"#.utf8))))
    }

    @Test("The DSL spells and/or as allOf/anyOf")
    func dsl() {
        #expect(
            StringMatcher.allOf(.contains("a"), .doesNotContain("b")) == .and([.contains("a"), .doesNotContain("b")]))
        #expect(StringMatcher.anyOf(.equalTo("a"), .absent) == .or([.equalTo("a"), .absent]))
        #expect(StringMatcher.not(.contains("x")).description == #"not (contains "x")"#)
    }
}
