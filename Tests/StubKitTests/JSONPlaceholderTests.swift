import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// JsonUnit placeholders in `equalToJson`. Every row was sent to WireMock 2.35.1 (standalone jar) with the
/// same stub and body, and has its answer.
struct JSONPlaceholderTests {
    typealias Row = JSONMatchingTests.EqualRow

    static let rows: [Row] = [
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":"x"}"#, true),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":""}"#, true),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":1}"#, false),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":null}"#, false),
        Row(#"{"a":"${json-unit.any-string}"}"#, "{}", false),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":"x","b":1}"#, false),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":"x","c":1}"#, extra: true, true),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":2}"#, extra: true, false),
        Row(#"{"a":"${json-unit.any-number}"}"#, #"{"a":1.5}"#, true),
        Row(#"{"a":"${json-unit.any-number}"}"#, #"{"a":-3e2}"#, true),
        Row(#"{"a":"${json-unit.any-number}"}"#, #"{"a":"1"}"#, false),
        Row(#"{"a":"${json-unit.any-boolean}"}"#, #"{"a":true}"#, true),
        Row(#"{"a":"${json-unit.any-boolean}"}"#, #"{"a":"true"}"#, false),
        // `ignore` takes any value, null too, but the member must be there.
        Row(#"{"a":"${json-unit.ignore}","b":1}"#, #"{"a":[1],"b":1}"#, true),
        Row(#"{"a":"${json-unit.ignore}","b":1}"#, #"{"a":null,"b":1}"#, true),
        Row(#"{"a":"${json-unit.ignore}","b":1}"#, #"{"b":1}"#, false),
        Row(#"{"a":"${json-unit.ignore}"}"#, #"{"a":{"q":1},"z":2}"#, extra: true, true),
        Row(#"{"a":["${json-unit.ignore}",2]}"#, #"{"a":[{"x":1},2]}"#, true),
        Row(#"{"a":["${json-unit.ignore}",2]}"#, #"{"a":[2]}"#, false),
        Row(#"{"a":["${json-unit.ignore}",2]}"#, #"{"a":[1,2,3]}"#, false),
        Row(#""${json-unit.ignore}""#, #"{"x":1}"#, true),
        Row(#""${json-unit.ignore}""#, "5", true),
        Row(#"{"a":["${json-unit.any-number}","x"]}"#, #"{"a":["x",3]}"#, order: true, true),
        Row(#"{"a":["${json-unit.any-number}","x"]}"#, #"{"a":["x","y"]}"#, order: true, false),
        // `regex`: the whole string value, Java syntax.
        Row(#"{"a":"${json-unit.regex}[A-Z]+"}"#, #"{"a":"ABC"}"#, true),
        Row(#"{"a":"${json-unit.regex}[A-Z]+"}"#, #"{"a":"ABc"}"#, false),
        Row(#"{"a":"${json-unit.regex}[A-Z]+"}"#, #"{"a":"xABC"}"#, false),
        Row(#"{"a":"${json-unit.regex}[A-Z]+"}"#, #"{"a":5}"#, false),
        Row(#"{"a":"${json-unit.regex}[A-Z]+"}"#, #"{"a":"${json-unit.regex}[A-Z]+"}"#, false),
        Row(#"{"a":"${json-unit.regex}\\d+"}"#, #"{"a":"123"}"#, true),
        Row(#"{"a":"${json-unit.regex}\\d+"}"#, #"{"a":"12a"}"#, false),
        // A placeholder is the whole string; others are plain text; `matches:` never matches.
        Row(#"{"a":"x${json-unit.any-string}"}"#, #"{"a":"xy"}"#, false),
        Row(#"{"a":"x${json-unit.any-string}"}"#, #"{"a":"x${json-unit.any-string}"}"#, true),
        Row(#"{"a":" ${json-unit.any-string}"}"#, #"{"a":"x"}"#, false),
        Row(#"{"a":"${json-unit.any-string}"}"#, #"{"a":"${json-unit.any-string}"}"#, true),
        Row(#"{"a":"${json-unit.any-object}"}"#, #"{"a":{}}"#, false),
        Row(#"{"a":"${json-unit.any-object}"}"#, #"{"a":"${json-unit.any-object}"}"#, true),
        Row(#"{"a":"${json-unit.any-array}"}"#, #"{"a":[]}"#, false),
        Row(#"{"a":"${json-unit.matches:foo}bar"}"#, #"{"a":"bar"}"#, false),
        Row(#"{"a":"${json-unit.matches:foo}bar"}"#, #"{"a":"${json-unit.matches:foo}bar"}"#, false),
        Row(##"{"a":"#{json-unit.ignore-element}","b":1}"##, #"{"a":[1],"b":1}"#, false),
        Row(##"{"a":"#{json-unit.ignore-element}","b":1}"##, #"{"b":1}"#, false)
    ]

    @Test("equalToJson with JsonUnit placeholders", arguments: rows)
    func placeholders(_ row: Row) throws {
        let matcher = StringMatcher.equalToJson(
            try JSONParser.parse(row.expected), ignoreArrayOrder: row.order,
            ignoreExtraElements: row.extra)
        let request = HTTPRequest(
            method: .post, target: "/", headers: ["Content-Type": "application/json"],
            body: Array(row.actual.utf8))
        let result = RequestPattern(bodyPatterns: [matcher]).match(request)
        #expect(result.isMatch == row.matches)
        #expect((result.distance == 0) == row.matches)
    }

    @Test("A JSONPath filter's == compares placeholders as plain text")
    func filtersTakeThemLiterally() throws {
        let placeholder = JSONValue.string("${json-unit.any-string}")
        #expect(
            !JSONEquivalence.matches(placeholder, .string("x"), ignoreArrayOrder: false, ignoreExtraElements: false))
        #expect(
            JSONEquivalence.matches(
                placeholder, .string("x"), ignoreArrayOrder: false, ignoreExtraElements: false,
                placeholders: JSONPlaceholders(in: placeholder)))
    }

    @Test("The near-miss diff names a placeholder that did not accept the value, and only that")
    func diffNamesThePlaceholder() throws {
        let lines = JSONDiff.lines(
            expected: try JSONParser.parse(#"{"id":"${json-unit.any-number}","n":"${json-unit.ignore}"}"#),
            actual: try JSONParser.parse(#"{"id":"7","n":[1]}"#),
            ignoreArrayOrder: false, ignoreExtraElements: false)
        #expect(lines.count == 1)
        #expect(lines.first?.contains("$.id") == true)
        #expect(lines.first?.contains("${json-unit.any-number}") == true)
    }
}
