import StubHTTP
import StubTestSupport
import Testing

@testable import StubKit
@testable import StubMatching

/// `equalToXml` and `matchesXPath` from mapping JSON to a matched request. Rows marked WM were checked
/// against WireMock 2.35.1 (standalone jar) with the same body pattern and body.
struct XMLMatcherTests {
    static func pattern(_ bodyPattern: String) throws -> CompiledRequestPattern {
        let json = try JSONParser.parse(
            #"{"request": {"method": "POST", "bodyPatterns": [\#(bodyPattern)]}, "response": {}}"#)
        let mapping = try #require(try MappingDecoder().decodeDocument(json, file: "x.json").mappings.first)
        return CompiledRequestPattern(mapping.request)
    }

    static func request(_ body: String) -> HTTPRequest {
        HTTPRequest(method: .post, target: "/x", body: Array(body.utf8))
    }

    static let rows: [(String, String, Bool)] = [
        (#"{"equalToXml": "<a><b>1</b><c>2</c></a>"}"#, "<a>\n <c>2</c><!-- x --><b> 1 </b></a>", true),  // WM
        (#"{"equalToXml": "<a><b>1</b></a>"}"#, "<a><b>2</b></a>", false),  // WM
        (#"{"equalToXml": "<a/>"}"#, "not xml", false),  // WM
        (#"{"equalToXml": "<a/>"}"#, "", false),  // WM
        (#"{"equalToXml": "<a>${xmlunit.isNumber}</a>", "enablePlaceholders": true}"#, "<a>1.5e3</a>", true),  // WM
        (#"{"equalToXml": "<a>${xmlunit.ignore}</a>"}"#, "<a>zz</a>", false),  // WM
        (#"{"equalToXml": "<a><b/></a>", "exemptedComparisons": ["ELEMENT_TAG_NAME"]}"#, "<a><c/></a>", true),  // WM
        (
            #"{"equalToXml": "<a>[[xmlunit.ignore]]</a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "\\[\\[", "placeholderClosingDelimiterRegex": "]]"}"#,
            "<a>zz</a>", true
        ),  // WM
        (#"{"matchesXPath": "/a/b"}"#, "<a><b>1</b></a>", true),  // WM
        (#"{"matchesXPath": "/a/c"}"#, "<a><b>1</b></a>", false),  // WM
        (#"{"matchesXPath": "count(/a/b) = 1"}"#, "<a><b>1</b></a>", false),  // WM
        (#"{"matchesXPath": "/a/b"}"#, "not xml", false),  // WM
        (#"{"matchesXPath": "/q:a", "xPathNamespaces": {"q": "urn:x"}}"#, "<p:a xmlns:p='urn:x'/>", true),  // WM
        (#"{"matchesXPath": "/a", "xPathNamespaces": {"q": "urn:x"}}"#, "<a xmlns='urn:x'/>", false),  // WM
        (#"{"matchesXPath": {"expression": "/a/b/text()", "equalTo": "1"}}"#, "<a><b>1</b></a>", true),  // WM
        (#"{"matchesXPath": {"expression": "/a/b", "equalTo": "1"}}"#, "<a><b>1</b></a>", false),  // WM
        (#"{"matchesXPath": {"expression": "/a/b", "equalTo": "<b>1</b>\n"}}"#, "<a><b>1</b></a>", true),  // WM
        (#"{"matchesXPath": {"expression": "/a", "contains": "<b>1</b>"}}"#, "<a><b>1</b></a>", true),  // WM
        (#"{"matchesXPath": {"expression": "/a", "equalToXml": "<a><b>1</b></a>"}}"#, "<a><b>1</b></a>", true),  // WM
        (#"{"matchesXPath": {"expression": "/a/@x", "equalTo": "1"}}"#, "<a x='1'/>", true),  // WM
        (#"{"matchesXPath": {"expression": "/a/c", "absent": true}}"#, "<a><b>1</b></a>", false),  // WM
        (
            #"{"matchesXPath": {"expression": "/q:a/text()", "equalTo": "x"}, "xPathNamespaces": {"q": "urn:x"}}"#,
            "<p:a xmlns:p='urn:x'>x</p:a>", true
        ),  // WM
        (
            #"{"matchesXPath": {"expression": "/q:a/text()", "equalTo": "x", "xPathNamespaces": {"q": "urn:x"}}}"#,
            "<p:a xmlns:p='urn:x'>x</p:a>", true
        ),  // WM
        (#"{"matchesXPath": {"expression": "/a/b/text()", "equalTo": "x"}}"#, "<a><b>y</b><b>x</b></a>", true),  // WM
        // WM
        (#"{"matchesXPath": {"expression": "/a/b", "equalToXml": "<b>x</b>"}}"#, "<a><b>y</b><b>x</b></a>", true),
        (#"{"equalToXml": "<a x='${xmlunit.isNumber}'/>", "enablePlaceholders": true}"#, "<a x='z'/>", false)  // WM
    ]

    @Test("XML body patterns decoded from JSON match as in WireMock 2.35.1", arguments: rows)
    func matching(_ bodyPattern: String, _ body: String, _ matches: Bool) throws {
        #expect(try Self.pattern(bodyPattern).matches(Self.request(body)) == matches)
    }

    @Test(
        "Invalid XML matchers are load errors naming the field",
        arguments: [
            (#"{"equalToXml": "<a>"}"#, "bodyPatterns[0].equalToXml: expected a well-formed XML document"),
            (
                #"{"equalToXml": "<a/>", "exemptedComparisons": ["BOGUS"]}"#,
                "unknown comparison 'BOGUS'; expected one of"
            ),
            (#"{"equalToXml": "<a/>", "enablePlaceholders": "yes"}"#, "bodyPatterns[0].enablePlaceholders"),
            (#"{"matchesXPath": "/a/["}"#, "bodyPatterns[0].matchesXPath: invalid XPath expression"),
            (#"{"matchesXPath": "/p:a"}"#, "namespace prefix 'p' of 'p:a' is not declared"),
            (#"{"matchesXPath": {"expression": "/a["}}"#, "bodyPatterns[0].matchesXPath.expression: invalid XPath"),
            (
                #"{"matchesXPath": "/a", "xPathNamespaces": ["x"]}"#,
                "bodyPatterns[0].xPathNamespaces: expected an object"
            )
        ])
    func loadErrors(_ bodyPattern: String, _ message: String) {
        #expect {
            _ = try Self.pattern(bodyPattern)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("XML matchers encode back to the JSON they were decoded from")
    func encoding() throws {
        let documents = [
            #"{"equalToXml": "<a/>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "\\[", "placeholderClosingDelimiterRegex": "]", "exemptedComparisons": ["ATTR_VALUE", "ELEMENT_TAG_NAME"]}"#,
            #"{"matchesXPath": "/q:a", "xPathNamespaces": {"q": "urn:x"}}"#,
            #"{"matchesXPath": {"expression": "/a/b", "equalTo": "1"}}"#
        ]
        for document in documents {
            let json = try JSONParser.parse(
                #"{"request": {"bodyPatterns": [\#(document)]}, "response": {}}"#)
            let mapping = try #require(try MappingDecoder().decodeDocument(json, file: "x.json").mappings.first)
            #expect(mapping.request.bodyPatterns.first?.json == (try JSONParser.parse(document)))
        }
    }

    @Test("A near miss says where the XML differs or what the XPath selected")
    func explanations() throws {
        let cases: [(String, String, String)] = [
            (#"{"equalToXml": "<a><b>1</b></a>"}"#, "<a><c>1</c></a>", "/a/b: expected element <b>, found <c>"),
            (#"{"equalToXml": "<a/>"}"#, "<a>", "the body is not well-formed XML: XML 1:4: unexpected end"),
            (#"{"matchesXPath": "/a/b"}"#, "<a/>", #"XPath "/a/b" selected nothing"#),
            (
                #"{"matchesXPath": {"expression": "/a/b/text()", "equalTo": "2"}}"#, "<a><b>1</b></a>",
                #"XPath "/a/b/text()": expected equalTo "2", got 1"#
            )
        ]
        for (bodyPattern, body, detail) in cases {
            let result = try Self.pattern(bodyPattern).match(Self.request(body))
            let details = result.mismatches.flatMap(\.details)
            #expect(details.contains { $0.hasPrefix(detail) }, "\(details)")
        }
    }

    @Test("The Swift DSL builds the same matchers")
    func dsl() throws {
        #expect(
            StringMatcher.equalToXml("<a/>", placeholders: true).json == [
                "equalToXml": "<a/>", "enablePlaceholders": true
            ])
        #expect(StringMatcher.matchesXPath("/a").matches("<a/>"))
        #expect(!StringMatcher.matchesXPath("/b").matches("<a/>"))
        #expect(StringMatcher.matchesXPath("/a/@x", namespaces: [:], .equalTo("1")).matches("<a x='1'/>"))
    }
}

/// Darwin runs secondary threads on 512 KiB stacks: XML at the depth limit must match there, in a debug build.
@Suite("Deeply nested XML on a 512 KiB stack")
struct XMLDeepNestingTests {
    @Test("A body 512 elements deep is compared, searched with XPath, explained and released")
    func atTheLimit() {
        let body = String(repeating: "<a>", count: 512) + "x" + String(repeating: "</a>", count: 512)
        let outcome: String = SmallStackThread.run {
            let equal = CompiledStringMatcher(.equalToXml(body, XMLComparisonOptions()))
            let other = CompiledStringMatcher(.equalToXml(body.replacingFirst("x", "y"), XMLComparisonOptions()))
            let xPath = CompiledStringMatcher(.matchesXPath("//a[not(a)]/text()", namespaces: [:], .equalTo("x")))
            let element = CompiledStringMatcher(.matchesXPath("/a", namespaces: [:], .contains("x")))
            let subject = MatchSubject(body)
            guard equal.isSatisfied(by: subject) else { return "not equal to itself" }
            guard !other.isSatisfied(by: subject), !other.explain(subject).isEmpty else { return "no difference" }
            guard xPath.isSatisfied(by: subject), element.isSatisfied(by: subject) else { return "XPath missed" }
            return "ok"
        }
        #expect(outcome == "ok")
    }
}

extension String {
    fileprivate func replacingFirst(_ target: Character, _ replacement: Character) -> String {
        guard let index = firstIndex(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: String(replacement))
        return copy
    }
}
