import Testing

@testable import StubKit

struct JSONPathTests {
    static let document = #"""
        {"store": {"book": [
            {"category": "reference", "author": "Nigel Rees", "title": "Sayings", "price": 8.95},
            {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword", "price": 12.99, "isbn": "0-553"},
            {"category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord", "price": 22.99, "isbn": "0-395"}
          ],
          "bicycle": {"color": "red", "price": 19.95}},
         "a b": {"c'd": 1}, "tags": ["x", "y", "z"], "n": null}
        """#

    /// Expression → the compact JSON array of what it selects.
    @Test(
        "Evaluates expressions",
        arguments: [
            ("$", nil),
            ("$.store.bicycle.color", #"["red"]"#),
            ("$['store']['bicycle']['color']", #"["red"]"#),
            (#"$["store"].bicycle["price"]"#, "[19.95]"),
            ("$.store.book[0].title", #"["Sayings"]"#),
            // Jayway reads `.[` as `[` (WireMock 3's JsonRemoveHelperTest writes `$.[?(@.id == 123)]`).
            ("$.store.book.[0].title", #"["Sayings"]"#),
            ("$.['store'].bicycle.color", #"["red"]"#),
            ("$.store.book[-1].title", #"["The Lord"]"#),
            ("$.store.book[5].title", "[]"),
            ("$.store.book[0,2].price", "[8.95,22.99]"),
            ("$.store.book[1:].price", "[12.99,22.99]"),
            ("$.store.book[:1].price", "[8.95]"),
            ("$.store.book[*].author", #"["Nigel Rees","Evelyn Waugh","J. R. R. Tolkien"]"#),
            ("$.store.bicycle.*", #"["red",19.95]"#),
            ("$..isbn", #"["0-553","0-395"]"#),
            ("$..price", "[8.95,12.99,22.99,19.95]"),
            ("$.store..color", #"["red"]"#),
            ("$.store.book[?(@.isbn)].title", #"["Sword","The Lord"]"#),
            ("$.store.book[?(!@.isbn)].title", #"["Sayings"]"#),
            ("$.store.book[?(@.price < 10)].title", #"["Sayings"]"#),
            ("$.store.book[?(@.price >= 12.99 && @.category == 'fiction')].title", #"["Sword","The Lord"]"#),
            ("$.store.book[?(@.price > 20 || @.author == \"Nigel Rees\")].title", #"["Sayings","The Lord"]"#),
            ("$.store.book[?(@.category != 'fiction')].title", #"["Sayings"]"#),
            ("$.store.book[?(@.author =~ /.*tolkien/i)].title", #"["The Lord"]"#),
            ("$.store.book[?(@.price > $.store.bicycle.price)].title", #"["The Lord"]"#),
            ("$['a b']['c\\'d']", "[1]"),
            ("$.tags.length()", "[3]"),
            ("$.tags[*]", #"["x","y","z"]"#),
            ("$.n", "[null]"),
            ("$.missing.deeper", "[]"),
            ("$.tags.x", "[]"),
            // Jayway reads a path without `$` as `$.` and the path.
            ("store.bicycle.color", #"["red"]"#),
            ("['store'].bicycle.color", #"["red"]"#)
        ] as [(String, String?)])
    func evaluate(_ expression: String, _ expected: String?) throws {
        let document = try JSONParser.parse(Self.document)
        let path = try JSONPathExpression(expression)
        let found = path.evaluate(document)
        if let expected {
            #expect(JSONValue.array(found).serialized() == expected)
        } else {
            #expect(found == [document])
        }
    }

    @Test(
        "Definite paths",
        arguments: [
            ("$.a.b[0]", true), ("$['a']", true), ("$.a.length()", true),
            ("$.a[*]", false), ("$..a", false), ("$.a[0,1]", false), ("$.a[1:2]", false), ("$.a[?(@.b)]", false)
        ])
    func definite(_ expression: String, _ definite: Bool) throws {
        #expect(try JSONPathExpression(expression).isDefinite == definite)
    }

    @Test(
        "Rejects malformed expressions",
        arguments: [
            "", "a..", "$.", "$[", "$['a'", "$[?(@.a == )]", "$.a[x]", "$[?(@.a =~ /[/)]", "$ .a"
        ])
    func malformed(_ expression: String) {
        #expect(throws: JSONPathError.self) { try JSONPathExpression(expression) }
    }

    /// Each row checked against WireMock 2.35.1 (`matchesJsonPath` in `bodyPatterns`).
    static let wireMockRows: [(String, String, Bool)] = [
        ("[?(@.nvtAreaId == 100)]", #"{"nvtAreaId":100}"#, true),
        ("[?(@.nvtAreaId == 100)]", #"[{"nvtAreaId":100}]"#, true),
        ("[?(@.nvtAreaId == 100)]", #"{"nvtAreaId":101}"#, false),
        ("[?(@.nvtAreaId == 100)]", #"{"a":{"nvtAreaId":100}}"#, false),
        // `=~` reads a string, a number as Java prints it, true or false, and anything else as "".
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"y":1}"#, true),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":12}"#, true),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":true}"#, false),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":null}"#, true),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":[1,2]}"#, true),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":1.50}"#, false),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":{"a":1}}"#, true),
        ("$[?(@.x =~ /^[0-9]*$/)]", #"{"x":""}"#, true),
        ("$[?(@.x =~ /[0-9]+/)]", #"{"y":1}"#, false),
        ("$[?(@.x =~ /[0-9]+/)]", #"{"x":12}"#, true),
        ("$[?(@.x =~ /[0-9]+/)]", #"{"x":[1,2]}"#, false),
        ("$[?(@.x =~ /true/)]", #"{"x":true}"#, true),
        ("$[?(@.x =~ /true/)]", #"{"x":"true"}"#, true),
        ("$[?(@.x =~ /1\\.5/)]", #"{"x":1.50}"#, true),
        ("$[?(@.x =~ /1\\.50/)]", #"{"x":1.50}"#, false),
        ("$[?(@.x =~ /1.0E20|100000000000000000000|1\\.0E\\+20/)]", #"{"x":1e20}"#, true),
        ("$[?(@.x =~ /\\{.*\\}/)]", #"{"x":{"a":1}}"#, false)
    ]

    @Test("Matches as WireMock 2.35.1: a path without $, and =~ on numbers, booleans and missing members")
    func wireMockRows() {
        for (expression, body, expected) in Self.wireMockRows {
            let matcher = CompiledStringMatcher(.matchesJsonPath(expression, nil))
            #expect(matcher.matches(body) == expected, "\(expression) on \(body)")
        }
    }
}
