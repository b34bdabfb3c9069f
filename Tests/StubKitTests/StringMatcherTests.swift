import Testing

@testable import StubKit
@testable import StubMatching

/// Rows marked "WM" were checked against WireMock 2.35.1 (standalone jar) with the same matcher on a
/// header, query parameter or body.
struct StringMatcherTests {
    typealias Row = MatcherRow<StringMatcher, Bool>

    static let rows: [Row] = [
        Row(.equalTo("octocat", caseInsensitive: false), "octocat", true),
        Row(.equalTo("octocat", caseInsensitive: false), "Octocat", false),
        Row(.equalTo("octocat", caseInsensitive: false), "octocat ", false),
        Row(.equalTo("octocat", caseInsensitive: false), nil, false),
        Row(.equalTo("", caseInsensitive: false), "", true),  // WM: `?q=` and `?q` both equal ""
        Row(.equalTo("ABC", caseInsensitive: true), "abc", true),  // WM
        Row(.equalTo("ÄBC", caseInsensitive: true), "äbc", true),
        Row(.equalTo("ABC", caseInsensitive: true), "abd", false),
        Row(.contains("cat"), "octocat", true),
        Row(.contains("dog"), "octocat", false),
        Row(.contains(""), "", true),  // WM: an empty header value contains ""
        Row(.contains(""), nil, false),  // WM: a missing header does not
        Row(.matches("[a-z]+"), "octocat", true),
        Row(.matches("[a-z]+"), "octocat1", false),  // whole value, not a search
        Row(.matches("cat"), "octocat", false),
        Row(.matches("a|ab"), "ab", true),  // WM: Java's matches() tries the whole alternation
        Row(.matches("a.b"), "a\nb", true),  // WM: DOTALL
        Row(.matches("(?i)abc"), "ABC", true),
        Row(.matches("x"), nil, false),
        Row(.matches("[unclosed"), "[unclosed", false),  // an invalid regex matches nothing
        Row(.doesNotMatch("x.*"), "abc", true),  // WM
        Row(.doesNotMatch("x.*"), "xyz", false),  // WM
        Row(.doesNotMatch("one"), nil, true),  // WM: a missing header passes doesNotMatch
        Row(.doesNotMatch("b"), "abc", true),  // whole-value: "abc" is not exactly "b"
        Row(.absent, nil, true),
        Row(.absent, "", false),  // WM: an empty header value is present
        Row(.absent, "x", false),
        Row(.equalToJson(["a": 1], ignoreArrayOrder: false, ignoreExtraElements: false), #"{"a":1.0}"#, true),
        Row(.equalToJson(["a": 1], ignoreArrayOrder: false, ignoreExtraElements: false), "not json", false),
        Row(.matchesJsonPath("$.a", nil), #"{"a":false}"#, true),
        Row(.matchesJsonPath("$.a", .equalTo("1", caseInsensitive: false)), #"{"a":1}"#, true)
    ]

    @Test("String matchers", arguments: rows)
    func stringMatcher(_ row: Row) {
        #expect(row.matcher.matches(row.value) == row.expected)
    }

    struct MultiRow: CustomTestStringConvertible, Sendable {
        let matcher: MultiValueMatcher
        let values: [String]
        let matches: Bool
        var testDescription: String { "\(matcher) vs \(values) → \(matches)" }
        init(_ matcher: MultiValueMatcher, _ values: [String], _ matches: Bool) {
            self.matcher = matcher
            self.values = values
            self.matches = matches
        }
    }

    static let multiRows: [MultiRow] = [
        MultiRow(.single(.equalTo("two", caseInsensitive: false)), ["one", "two"], true),  // WM: any value
        MultiRow(.single(.equalTo("two", caseInsensitive: false)), ["one, two"], false),  // WM: not split on ","
        MultiRow(.single(.equalTo("two", caseInsensitive: false)), [], false),
        MultiRow(.single(.doesNotMatch("one")), ["one", "two"], true),  // WM: any value
        MultiRow(.single(.doesNotMatch("one")), [], true),  // WM
        MultiRow(.single(.absent), [], true),
        MultiRow(.single(.absent), [""], false),  // WM: `?q` is present
        MultiRow(
            .hasExactly([.equalTo("a", caseInsensitive: false), .equalTo("b", caseInsensitive: false)]), ["b", "a"],
            true),
        MultiRow(
            .hasExactly([.equalTo("a", caseInsensitive: false), .equalTo("b", caseInsensitive: false)]),
            ["a", "b", "c"], false),
        MultiRow(
            .hasExactly([.equalTo("a", caseInsensitive: false), .equalTo("b", caseInsensitive: false)]), ["a"], false),
        MultiRow(
            .hasExactly([.equalTo("a", caseInsensitive: false), .equalTo("a", caseInsensitive: false)]), ["a", "b"],
            false),
        // needs pairing
        MultiRow(.hasExactly([.matches("[ab]"), .equalTo("a", caseInsensitive: false)]), ["a", "b"], true),
        MultiRow(.hasExactly([]), [], true),
        MultiRow(.includes([.equalTo("a", caseInsensitive: false)]), ["b", "a", "c"], true),
        MultiRow(.includes([.equalTo("a", caseInsensitive: false), .contains("z")]), ["b", "a"], false),
        MultiRow(.includes([.equalTo("a", caseInsensitive: false), .contains("a")]), ["a"], true),
        MultiRow(.includes([.equalTo("a", caseInsensitive: false)]), [], false)
    ]

    @Test("Multi-value matchers", arguments: multiRows)
    func multiValue(_ row: MultiRow) {
        let distance = CompiledMultiValueMatcher(row.matcher).distance(row.values)
        #expect((distance == 0) == row.matches)
        #expect((0...1).contains(distance))
    }

    @Test("equalTo distance is the normalised Levenshtein distance")
    func levenshtein() {
        #expect(StringDistance.normalisedLevenshtein("kitten", "sitting") == 3.0 / 7.0)
        #expect(StringDistance.normalisedLevenshtein("", "") == 0)
        #expect(StringDistance.normalisedLevenshtein("abc", "") == 1)
        let long = String(repeating: "a", count: 2000)
        let d = StringDistance.normalisedLevenshtein(long, long + "b")
        #expect(d > 0 && d < 0.01)
    }

    @Test(
        "Matchers render for people",
        arguments: [
            (StringMatcher.equalTo("octocat", caseInsensitive: false), #"equalTo "octocat""#),
            (.equalTo("x", caseInsensitive: true), #"equalTo "x" (case-insensitive)"#),
            (.matches("^/users/[a-z]+$"), #"matches "^/users/[a-z]+$""#),
            (.absent, "absent"),
            (
                .equalToJson(["a": [1, 2]], ignoreArrayOrder: true, ignoreExtraElements: true),
                #"equalToJson {"a":[1,2]} (ignoring array order, extra elements)"#
            ),
            (.matchesJsonPath("$.a", .contains("b")), #"matchesJsonPath "$.a" contains "b""#)
        ])
    func rendering(_ matcher: StringMatcher, _ text: String) {
        #expect(matcher.description == text)
    }

    @Test("Invalid regular expressions are reported")
    func compileErrors() {
        #expect(CompiledStringMatcher(.matches("(")).compileError != nil)
        #expect(CompiledStringMatcher(.matchesJsonPath("$.a[", nil)).compileError != nil)
        #expect(CompiledStringMatcher(.matches("a+")).compileError == nil)
    }

    @Test("A matcher that does not compile never matches, even negated, and gives the loader's error")
    func brokenMatchersFailClosed() throws {
        for broken: StringMatcher in [
            .doesNotMatch("("), .not(.matches("(")), .not(.matchesJsonPath("$.a[", nil)),
            .or([.matches("("), .absent]), .not(.equalToXml("<a>", XMLComparisonOptions())),
            .not(.matchesXPath("/a[", namespaces: [:], nil)), .not(.matchesJsonSchema(["type": 3]))
        ] {
            let compiled = CompiledStringMatcher(broken)
            #expect(compiled.compileError != nil, "\(broken)")
            for value in [nil, "", "x", "<b/>", "{}"] {
                #expect(!compiled.matches(value), "\(broken) matched \(value ?? "nil")")
                #expect(compiled.distance(MatchSubject(value)) == 1)
            }
            #expect(CompiledMatchers().compile(broken).compileFailure?.description == compiled.compileError)
        }
        #expect(throws: MatcherCompileError.self) { try CompiledStringMatcher.compile(.and([.matches("[")])) }
        #expect(try CompiledStringMatcher.compile(.matches("a+")).compileError == nil)
    }
}
