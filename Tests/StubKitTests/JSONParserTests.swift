import Testing

@testable import StubKit

@Suite("JSON parser")
struct JSONParserTests {
    static let validDocuments: [(String, JSONValue)] = [
        ("null", nil),
        ("true", true),
        (" false ", false),
        ("0", .number("0")),
        ("-0", .number("-0")),
        ("1.50", .number("1.50")),
        ("-12.5e+3", .number("-12.5e+3")),
        ("1E-7", .number("1E-7")),
        ("\"\"", ""),
        ("[]", []),
        ("{}", .object([])),
        ("[1, [2, [3]], {\"a\": null}]", [1, [2, [3]], ["a": nil]]),
        ("{\"b\": 1, \"a\": 2}", .object([("b", 1), ("a", 2)])),
        ("\r\n\t {\"k\" : \"v\" } \n", ["k": "v"]),
        (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
        (#""\u0041\u00e9\u4E2D""#, "Aé中"),
        (#""\uD83D\uDE00""#, "😀"),
        (#""\u0000""#, "\u{0}"),
        ("\"héllo 😀\"", "héllo 😀"),
        ("\u{FEFF}{\"bom\": true}", ["bom": true])
    ]

    @Test("Parses valid documents", arguments: validDocuments)
    func parsesValid(_ text: String, _ expected: JSONValue) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    static let invalidDocuments: [(String, String)] = [
        ("", "line 1, column 1: unexpected end of input, expected a value"),
        ("   ", "line 1, column 4: unexpected end of input, expected a value"),
        ("{\n  \"a\": 1,\n  \"b\": 2\n  \"c\": 3\n}", "line 4, column 3: expected ',' or '}' after object member"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after object key 'a'"),
        ("{\"a\": 1,}", "line 1, column 9: expected a string key, found '}'"),
        ("{a: 1}", "line 1, column 2: expected a string key, found 'a'"),
        ("[1, 2", "line 1, column 6: expected ',' or ']' after array element"),
        ("[1,]", "line 1, column 4: unexpected ']', expected a value"),
        ("{\"a\": 1, \"a\": 2}", "line 1, column 10: duplicate key 'a' in object"),
        ("01", "line 1, column 2: leading zeros are not allowed in numbers"),
        ("-", "line 1, column 2: expected a digit after '-'"),
        ("1.", "line 1, column 3: expected a digit after '.' in number"),
        ("1e+", "line 1, column 4: expected a digit in number exponent"),
        (".5", "line 1, column 1: unexpected '.', expected a value"),
        ("+1", "line 1, column 1: unexpected '+', expected a value"),
        ("tru", "line 1, column 1: unexpected 't', expected a value"),
        ("nul", "line 1, column 1: unexpected 'n', expected a value"),
        ("NaN", "line 1, column 1: unexpected 'N', expected a value"),
        ("{} {}", "line 1, column 4: unexpected '{' after the JSON value"),
        ("\"abc", "line 1, column 5: unterminated string"),
        ("\"a\nb\"", "line 1, column 3: control character U+000A must be escaped in a string"),
        (#""\x""#, "line 1, column 3: invalid escape '\\x' in string"),
        (#""\u12G4""#, "line 1, column 6: expected 4 hex digits after '\\u'"),
        (#""\uD83D""#, "line 1, column 2: high surrogate \\uD83D not followed by a low surrogate"),
        (#""\uD83D\u0041""#, "line 1, column 8: high surrogate \\uD83D not followed by a low surrogate"),
        (#""\uDE00""#, "line 1, column 2: unpaired low surrogate \\uDE00"),
        ("[\"é\", x]", "line 1, column 7: unexpected 'x', expected a value"),
        ("\u{201C}a\u{201D}", "line 1, column 1: unexpected character U+201C, expected a value"),
        ("'a'", "line 1, column 1: unexpected ''', expected a value")
    ]

    @Test("Reports errors with line and column", arguments: invalidDocuments)
    func reportsErrors(_ text: String, _ expected: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.description == expected)
        }
    }

    static let invalidBytes: [([UInt8], String)] = [
        ([0x22, 0xFF, 0x22], "line 1, column 2: invalid UTF-8 byte 0xFF in string"),
        ([0x22, 0xC0, 0xAF, 0x22], "line 1, column 2: invalid UTF-8 byte 0xC0 in string"),  // overlong '/'
        ([0x22, 0xED, 0xA0, 0x80, 0x22], "line 1, column 2: invalid UTF-8 byte 0xED in string"),  // encoded surrogate
        ([0x22, 0xE4, 0xB8, 0x22], "line 1, column 2: invalid UTF-8 byte 0xE4 in string"),  // truncated
        ([0x5B, 0x0A, 0xFE, 0x5D], "line 2, column 1: unexpected byte 0xFE (invalid UTF-8), expected a value")
    ]

    @Test("Rejects invalid UTF-8", arguments: invalidBytes)
    func rejectsInvalidUTF8(_ bytes: [UInt8], _ expected: String) {
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("Limits nesting depth")
    func limitsDepth() throws {
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "line 1, column 129: nesting deeper than 128 levels of arrays and objects")
        }
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(hostile) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[[[1]]]", maximumDepth: 2) }
    }

    @Test("Serializes compactly, keeping key order and number text")
    func serializesCompact() {
        let value: JSONValue = [
            "login": "octocat", "followers": 20, "ratio": .number("1.50"), "tags": ["a", nil, true], "empty": [:]
        ]
        #expect(
            value.serialized() == #"{"login":"octocat","followers":20,"ratio":1.50,"tags":["a",null,true],"empty":{}}"#)
        #expect(value.description == value.serialized())
        #expect(JSONValue.string("q\"b\\n\n\t\u{1}\u{7F}é/").serialized() == #""q\"b\\n\n\t\u0001\u007Fé/""#)
    }

    @Test("Serializes prettily with two-space indentation")
    func serializesPretty() {
        let value: JSONValue = ["a": [1, 2], "b": ["c": nil], "d": [], "e": [:]]
        #expect(
            value.serialized(.pretty) == """
                {
                  "a": [
                    1,
                    2
                  ],
                  "b": {
                    "c": null
                  },
                  "d": [],
                  "e": {}
                }
                """)
    }

    @Test("Serialized output parses back to the same value", arguments: validDocuments.map(\.1))
    func roundTrips(_ value: JSONValue) throws {
        #expect(try JSONParser.parse(value.serialized()) == value)
        #expect(try JSONParser.parse(value.serialized(.pretty)) == value)
    }

    @Test("Literals and initialisers build the expected values")
    func literals() {
        let value: JSONValue = ["x": 1, "y": 2.5, "x": 3]
        #expect(value == .object([("x", .number("3")), ("y", .number("2.5"))]))
        #expect(JSONValue(Double.nan) == .null)
        #expect(JSONValue(UInt8(7)) == .number("7"))
        #expect(JSONValue("s").stringValue == "s")
        #expect(JSONValue.number("200").intValue == 200)
        #expect(JSONValue.number("200.0").intValue == nil)
    }
}
