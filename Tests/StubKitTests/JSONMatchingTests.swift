import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// `equalToJson` and `matchesJsonPath` on request bodies. Every row marked "WM" was checked against
/// WireMock 2.35.1 (standalone jar) with the same stub and body.
struct JSONMatchingTests {
    struct EqualRow: CustomTestStringConvertible, Sendable {
        let expected: String, actual: String, order: Bool, extra: Bool, matches: Bool
        var testDescription: String { "\(expected) vs \(actual) order=\(order) extra=\(extra) → \(matches)" }
        init(_ expected: String, _ actual: String, order: Bool = false, extra: Bool = false, _ matches: Bool) {
            self.expected = expected
            self.actual = actual
            self.order = order
            self.extra = extra
            self.matches = matches
        }
    }

    static let equalRows: [EqualRow] = [
        EqualRow(#"{"a":1}"#, #"{"a":1.0}"#, true),  // WM
        EqualRow(#"{"a":1}"#, #"{"a":1e0}"#, true),  // WM
        EqualRow(#"{"a":1}"#, #"{"a":"1"}"#, false),  // WM
        EqualRow(#"{"a":1}"#, #"{"a":1,"b":2}"#, false),  // WM
        EqualRow(#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#, true),
        EqualRow(#"{"a":12345678901234567890}"#, #"{"a":12345678901234567891}"#, false),
        EqualRow(#"{"a":[1,2]}"#, #"{"a":[1,2,3],"b":1}"#, extra: true, true),  // WM
        EqualRow(#"{"a":[1,2]}"#, #"{"a":[2,1]}"#, extra: true, false),  // WM
        EqualRow(#"{"a":[1,2]}"#, #"{"a":[0,1,2]}"#, extra: true, false),  // WM: extra items only at the end
        EqualRow("[1,2]", "[2,1,3]", order: true, extra: true, true),  // WM
        EqualRow("[1,2]", "[3,2,1]", order: true, extra: true, true),  // WM
        EqualRow("[1,2]", "[2,1]", order: true, true),  // WM
        EqualRow("[1,2]", "[2,1,1]", order: true, false),  // WM
        EqualRow("[1,2]", "[2,1]", false),
        EqualRow("[1,1,2]", "[1,2,2]", order: true, false),
        EqualRow(#"[{"a":1}]"#, #"[{"a":1,"b":2},{"c":3}]"#, extra: true, true),  // WM
        EqualRow(#"{"a":{"b":1}}"#, #"{"a":{"b":1,"c":2},"d":3}"#, extra: true, true),  // WM
        EqualRow(#"{"a":[{"x":1},{"x":2}]}"#, #"{"a":[{"x":2,"y":1},{"x":1}]}"#, order: true, extra: true, true),  // WM
        EqualRow(#"{"a":[1,[2,3]]}"#, #"{"a":[[3,2],1]}"#, order: true, true),  // WM: nested arrays too
        EqualRow(#"{"a":[]}"#, #"{"a":[1]}"#, extra: true, true),  // WM
        EqualRow(#"{"a":null}"#, #"{"a":null,"b":1}"#, extra: true, true),  // WM
        EqualRow(#"{"a":null}"#, #"{"b":1}"#, extra: true, false),  // WM
        EqualRow(#"{"a":true}"#, #"{"a":"true"}"#, false),
        EqualRow("null", "null", true)
    ]

    @Test("equalToJson", arguments: equalRows)
    func equalToJson(_ row: EqualRow) throws {
        let matcher = StringMatcher.equalToJson(
            try JSONParser.parse(row.expected), ignoreArrayOrder: row.order,
            ignoreExtraElements: row.extra)
        let result = RequestPattern(bodyPatterns: [matcher]).match(post(row.actual))
        #expect(result.isMatch == row.matches)
        #expect((result.distance == 0) == row.matches)
    }

    struct PathRow: CustomTestStringConvertible, Sendable {
        let expression: String, nested: StringMatcher?, body: String, matches: Bool
        var testDescription: String { "\(expression) \(nested.map { "\($0)" } ?? "") on \(body) → \(matches)" }
        init(_ expression: String, _ body: String, _ matches: Bool) {
            self.expression = expression
            nested = nil
            self.body = body
            self.matches = matches
        }
        init(_ expression: String, _ nested: StringMatcher, _ body: String, _ matches: Bool) {
            self.expression = expression
            self.nested = nested
            self.body = body
            self.matches = matches
        }
    }

    static let pathRows: [PathRow] = [
        PathRow("$.a", #"{"a":false}"#, true),  // WM
        PathRow("$.a", #"{"a":""}"#, true),  // WM
        PathRow("$.a", #"{"a":null}"#, false),  // WM
        PathRow("$.a", #"{"a":[]}"#, false),  // WM
        PathRow("$.a", #"{"a":{}}"#, false),  // WM
        PathRow("$.a", #"{"b":1}"#, false),  // WM
        PathRow("$.a", "not json", false),
        PathRow("$.a.b", #"{"a":[{"b":1}]}"#, false),  // WM: a definite path does not reach into arrays
        PathRow("$.a[0]", #"{"a":[0]}"#, true),  // WM
        PathRow("$['a b']", #"{"a b":0}"#, true),  // WM
        PathRow("$.a[?(@.n == 'x')]", #"{"a":[{"n":"x"}]}"#, true),  // WM
        PathRow("$.a[?(@.n == 'x')]", #"{"a":[{"n":"y"}]}"#, false),  // WM
        PathRow("$..n", #"{"a":{"b":[{"n":1}]}}"#, true),  // WM
        PathRow("$..n", #"{"a":{"b":[{"m":1}]}}"#, false),  // WM
        PathRow("$[?(@.n > 1)]", #"[{"n":1},{"n":2}]"#, true),  // WM
        PathRow("$[?(@.n > 1)]", #"[{"n":1}]"#, false),  // WM
        PathRow("$.a[*]", #"{"a":[]}"#, false),  // WM
        PathRow("$.a", .equalTo("1", caseInsensitive: false), #"{"a":1}"#, true),  // WM
        PathRow("$.a", .equalTo("1", caseInsensitive: false), #"{"a":"1"}"#, true),  // WM
        PathRow("$.a", .equalTo("1", caseInsensitive: false), #"{"a":1.0}"#, false),  // WM: seen as "1.0"
        PathRow("$.a", .equalTo("1.5", caseInsensitive: false), #"{"a":1.50}"#, true),  // WM
        PathRow("$.a", .equalTo("1.0E20", caseInsensitive: false), #"{"a":1e20}"#, true),  // WM
        PathRow("$.a", .equalTo("1.0E-4", caseInsensitive: false), #"{"a":0.0001}"#, true),  // WM
        PathRow("$.a", .equalTo("0.001", caseInsensitive: false), #"{"a":0.001}"#, true),  // WM
        PathRow("$.a", .equalTo("1.0E7", caseInsensitive: false), #"{"a":10000000.0}"#, true),  // WM
        // WM
        PathRow("$.a", .equalTo("12345678901234567890", caseInsensitive: false), #"{"a":12345678901234567890}"#, true),
        PathRow("$.a", .equalTo("true", caseInsensitive: false), #"{"a":true}"#, true),  // WM
        PathRow("$.a", .equalTo("null", caseInsensitive: false), #"{"a":null}"#, false),  // WM
        // WM: Jackson pretty
        PathRow("$.a", .equalTo("{\n  \"b\" : 1\n}", caseInsensitive: false), #"{"a":{"b":1}}"#, true),
        PathRow("$.a", .equalTo(#"{"b":1}"#, caseInsensitive: false), #"{"a":{"b":1}}"#, false),  // WM
        PathRow("$.a", .equalTo("{ }", caseInsensitive: false), #"{"a":{}}"#, true),  // WM
        PathRow("$.a", .contains("\"b\" : 1"), #"{"a":{"b":1}}"#, true),  // WM
        PathRow("$.a", .equalTo("2", caseInsensitive: false), #"{"a":[1,2]}"#, true),  // WM: any element
        PathRow("$.a", .equalTo("[1,2]", caseInsensitive: false), #"{"a":[1,2]}"#, false),  // WM
        PathRow("$.a", .equalTo("x", caseInsensitive: false), #"{"a":["y","x"]}"#, true),  // WM
        PathRow("$.a", .equalTo(#"["x","y"]"#, caseInsensitive: false), #"{"a":[["x","y"]]}"#, true),  // WM
        PathRow("$.a", .equalTo("{x=1}", caseInsensitive: false), #"{"a":[{"x":1}]}"#, true),  // WM: Map.toString
        PathRow("$.a[*]", .equalTo("1", caseInsensitive: false), #"{"a":[1,2]}"#, true),  // WM
        PathRow("$.items[*].name", .contains("bob"), #"{"items":[{"name":"alice"},{"name":"bob"}]}"#, true),  // WM
        PathRow(
            // WM
            "$.a", .equalToJson(["b": 1], ignoreArrayOrder: false, ignoreExtraElements: false), #"{"a":{"b":1}}"#, true),
        PathRow(
            // WM
            "$.a", .equalToJson([1, 2], ignoreArrayOrder: false, ignoreExtraElements: false), #"{"a":[1,2]}"#, true),
        PathRow(
            "$.a[*]", .equalToJson(["x": 1], ignoreArrayOrder: false, ignoreExtraElements: false),
            #"{"a":[{"x":2},{"x":1}]}"#, false),  // WM: equalToJson sees the whole list
        PathRow("$.a", .matches(".*b.*"), #"{"a":{"b":1}}"#, true),  // WM
        PathRow("$.a", .doesNotMatch("1"), #"{"a":[1,2]}"#, true),  // WM
        PathRow("$.a", .doesNotMatch("1"), #"{"a":2}"#, true),  // WM
        PathRow("$.a", .doesNotMatch("1"), #"{"b":2}"#, false),  // WM: a missing path fails doesNotMatch
        PathRow("$.a", .doesNotMatch("z"), #"{"a":null}"#, false),  // WM
        PathRow("$.a", .absent, #"{"b":1}"#, true),  // WM
        PathRow("$.a", .absent, #"{"a":1}"#, false),  // WM
        PathRow("$.a", .absent, #"{"a":null}"#, true),  // WM
        PathRow("$.a", .absent, #"{"a":[]}"#, true),  // WM
        PathRow("$.a.length()", .equalTo("2", caseInsensitive: false), #"{"a":[5,6]}"#, true)  // WM
    ]

    @Test("matchesJsonPath", arguments: pathRows)
    func matchesJsonPath(_ row: PathRow) {
        let result = RequestPattern(bodyPatterns: [.matchesJsonPath(row.expression, row.nested)]).match(post(row.body))
        #expect(result.isMatch == row.matches)
    }

    @Test(
        "Java's Double.toString",
        arguments: [
            ("1.50", "1.5"), ("1e2", "100.0"), ("1e20", "1.0E20"), ("0.0001", "1.0E-4"), ("0.001", "0.001"),
            ("10000000.0", "1.0E7"), ("9999999.0", "9999999.0"), ("-2.5E-10", "-2.5E-10"), ("123", "123"),
            ("-0", "0"), ("0.0", "0.0"), ("1.2345678E3", "1234.5678")
        ])
    func javaNumbers(_ text: String, _ java: String) {
        #expect(JSONRendering.javaNumber(text) == java)
    }

    @Test("Jackson's pretty printer")
    func jacksonPretty() throws {
        let value = try JSONParser.parse(#"{"a":[{"x":1},2],"b":{},"c":[],"d":"q\""}"#)
        #expect(
            JSONRendering.jacksonPretty(value) == """
                {
                  "a" : [ {
                    "x" : 1
                  }, 2 ],
                  "b" : { },
                  "c" : [ ],
                  "d" : "q\\""
                }
                """)
    }

    @Test("A mismatching JSON body is closer when fewer leaves differ")
    func jsonDistance() throws {
        let expected = try JSONParser.parse(#"{"a":1,"b":2,"c":3,"d":4}"#)
        let near = JSONEquivalence.distance(
            expected, try JSONParser.parse(#"{"a":1,"b":2,"c":3,"d":5}"#),
            ignoreArrayOrder: false, ignoreExtraElements: false)
        let far = JSONEquivalence.distance(
            expected, try JSONParser.parse(#"{"a":0}"#),
            ignoreArrayOrder: false, ignoreExtraElements: false)
        #expect(near > 0 && near < far && far <= 1)
    }

    private func post(_ body: String) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }
}
