import StubHTTP
import Testing

@testable import StubKit
@testable import StubMatching

/// `equalToNumber`, `greaterThanNumber`, `greaterThanEqualNumber`, `lessThanNumber` and `lessThanEqualNumber`
/// (WireMock 3; 2.35.1 rejects them). Expected matches and distances come from WireMock 3's
/// `EqualToNumberPatternTest`, `GreaterThanNumberPatternTest` and `LessThanEqualNumberPatternTest`; the text
/// read as a number follows the JDK's `Double.valueOf` grammar.
@Suite("Number matchers")
struct NumberMatcherTests {
    typealias Row = MatcherRow<StringMatcher, Double>

    static let rows: [Row] = [
        Row(.equalToNumber(5), "1", 0.01),
        Row(.equalToNumber(1), "1111", 0.04),
        Row(.equalToNumber(5.5), "1.1", 0.01),
        Row(.equalToNumber(1), "1", 0),
        Row(.equalToNumber(1.1111), "1.1111", 0),
        Row(.equalToNumber(1.1111), "0001.1111000", 0),
        Row(.equalToNumber(1), nil, 1),
        Row(.equalToNumber(1), "a string", 1),
        Row(.greaterThanNumber(5), "1", 0.01),
        Row(.greaterThanNumber(1), "1", 0.01),
        Row(.greaterThanNumber(5.5), "1.1", 0.01),
        Row(.greaterThanNumber(1.1), "1.1", 0.01),
        Row(.greaterThanNumber(1), "2", 0),
        Row(.greaterThanNumber(1.1111), "1.1112", 0),
        Row(.greaterThanNumber(1), nil, 1),
        Row(.lessThanEqualNumber(1), "5", 0.01),
        Row(.lessThanEqualNumber(1), "1", 0),
        Row(.lessThanEqualNumber(1.1), "5.5", 0.01),
        Row(.lessThanEqualNumber(1.1), "1.1", 0),
        Row(.lessThanEqualNumber(2), "1", 0),
        Row(.lessThanEqualNumber(1.1111), "1.111", 0),
        Row(.lessThanNumber(0), "-3", 0),
        Row(.greaterThanEqualNumber(-2), "-2", 0)
    ]

    @Test("Matches and distances as WireMock 3 gives them", arguments: rows)
    func numbers(_ row: Row) {
        let compiled = CompiledStringMatcher(row.matcher)
        #expect(compiled.distance(MatchSubject(row.value)) == row.expected)
        #expect(row.matcher.matches(row.value) == (row.expected == 0))
    }

    static let parsed: [(String, Double?)] = [
        ("5", 5), (" 5 \t", 5), ("+5", 5), ("-5.5", -5.5), ("5d", 5), ("5F", 5), ("1.", 1), (".5", 0.5),
        ("1e3", 1000), ("1E-1", 0.1), ("0x1p3", 8), ("0X1.8P1d", 3), ("-Infinity", -.infinity),
        ("", nil), ("  ", nil), ("abc", nil), ("1_000", nil), ("+-1", nil), ("0x1", nil), ("inf", nil), ("nan", nil),
        ("1e", nil), (".", nil), ("1.2.3", nil), ("5 5", nil), ("1ee3", nil), ("5dd", nil), ("١", nil)
    ]

    @Test("Text is read as Java's Double.parseDouble reads it", arguments: parsed)
    func parses(_ row: (String, Double?)) {
        #expect(JavaNumber.parse(row.0) == row.1)
        #expect(JavaNumber.parse("NaN")?.isNaN == true)
    }

    @Test("Decodes a number or a numeric string; encodes a number")
    func decodes() throws {
        let json = try JSONParser.parse(
            #"{"request": {"headers": {"A": {"equalToNumber": "1"}, "B": {"greaterThanNumber": "0001.0000"}, "C": {"lessThanEqualNumber": 1.0000}, "D": {"greaterThanEqualNumber": -2.5}, "E": {"lessThanNumber": 1e3}}}, "response": {}}"#
        )
        let request = try #require(try MappingDecoder().decodeDocument(json, file: nil).mappings.first?.request)
        #expect(
            request.headers.map(\.matcher) == [
                .single(.number(.equalTo, 1)), .single(.number(.greaterThan, 1)),
                .single(.number(.lessThanOrEqual, 1)), .single(.number(.greaterThanOrEqual, -2.5)),
                .single(.number(.lessThan, 1000))
            ])
        #expect(
            request.json["headers"]?.serialized()
                == #"{"A":{"equalToNumber":1},"B":{"greaterThanNumber":1},"C":{"lessThanEqualNumber":1},"D":{"greaterThanEqualNumber":-2.5},"E":{"lessThanNumber":1000}}"#
        )
        let pattern = CompiledRequestPattern(request)
        #expect(
            pattern.matches(
                HTTPRequest(
                    method: .get, target: "/", headers: ["A": "1.0", "B": "2", "C": "0", "D": "-2.5", "E": " 999 "])))
        #expect(!pattern.matches(HTTPRequest(method: .get, target: "/", headers: ["A": "1", "B": "2", "C": "0"])))
    }

    @Test("A stub with an operand that is not a number fails to load, naming the field")
    func malformed() throws {
        for (operand, found) in [(#""a string""#, #""a string""#), ("true", "true"), ("[1]", "an array")] {
            let document = #"{"request": {"bodyPatterns": [{"greaterThanNumber": "# + operand + "}]}, \"response\": {}}"
            do {
                _ = try MappingDecoder().decodeDocument(try JSONParser.parse(document), file: nil)
                Issue.record("decoded \(operand)")
            } catch let error as StubsLoadError {
                #expect(
                    error.description
                        == "request.bodyPatterns[0].greaterThanNumber: expected a number for 'greaterThanNumber', found \(found)"
                )
            }
        }
    }

    @Test("Near misses say why a body is not the number wanted")
    func explains() {
        func explain(_ matcher: StringMatcher, _ body: String) -> [String] {
            CompiledStringMatcher(matcher).explain(MatchSubject(body: Array(body.utf8)))
        }
        #expect(explain(.greaterThanNumber(5), "3") == ["3 is not greater than 5"])
        #expect(explain(.lessThanEqualNumber(1.5), "2.25") == ["2.25 is not less than or equal to 1.5"])
        #expect(explain(.equalToNumber(5), "five") == [#""five" is not a number"#])
        #expect(explain(.equalToNumber(5), "5.0").isEmpty)
        #expect(StringMatcher.greaterThanEqualNumber(0.5).description == "greaterThanEqualNumber 0.5")
    }
}
