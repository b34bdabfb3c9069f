import Testing

@testable import StubXML

/// Every row was checked against WireMock 2.35.1 (standalone jar, `equalToXml` on a request body).
struct XMLComparisonTests {
    struct Row: CustomTestStringConvertible, Sendable {
        let expected: String
        let actual: String
        let options: XMLComparisonOptions
        let matches: Bool
        var testDescription: String { "\(expected) vs \(actual) → \(matches)" }
        init(_ expected: String, _ actual: String, _ matches: Bool, _ options: XMLComparisonOptions = .init()) {
            self.expected = expected
            self.actual = actual
            self.options = options
            self.matches = matches
        }
    }

    static let placeholders = XMLComparisonOptions(enablePlaceholders: true)

    static func exempt(_ types: XMLComparisonType...) -> XMLComparisonOptions {
        XMLComparisonOptions(exemptedComparisons: Set(types))
    }

    static let rows: [Row] = [
        Row("<a><b>1</b><c>2</c></a>", "<a><c>2</c><b>1</b></a>", true),
        Row("<a><b>1</b><c>2</c></a>", "<a>\n  <b> 1 </b>\n <c>2</c><!-- x --></a>", true),
        Row("<a><b>1</b><b>2</b></a>", "<a><b>2</b><b>1</b></a>", false),
        Row("<a><b>1</b><b>2</b><c/></a>", "<a><c/><b>1</b><b>2</b></a>", true),
        Row("<a x='1' y='2'/>", "<a y='2' x='1'></a>", true),
        Row("<a x='1'/>", "<a x='1' y='2'/>", false),
        Row("<a x='1' y='2'/>", "<a x='1'/>", false),
        Row("<a x='1'/>", "<a x=' 1'/>", true),
        Row("<p:a xmlns:p='urn:x'><p:b/></p:a>", "<q:a xmlns:q='urn:x'><q:b/></q:a>", true),
        Row("<p:a xmlns:p='urn:x'/>", "<q:b xmlns:q='urn:x'/>", false),
        Row("<a xmlns='urn:x'/>", "<a/>", false),
        Row("<a xmlns='urn:x'/>", "<a xmlns='urn:x'/>", true),
        Row("<a>t<b/></a>", "<a>t<b/></a>", false),
        Row("<a>t<b/></a>", "<a><b/>t</a>", false),
        Row("<a>t<b/>u</a>", "<a>t<b/>u</a>", false),
        Row("<a>x y</a>", "<a>x  y</a>", false),
        Row("<a><![CDATA[x]]></a>", "<a>x</a>", true),
        Row("<a>x</a>", "<a><![CDATA[x]]></a>", true),
        Row("<a/>", "<a></a>", true),
        Row("<a><b/></a>", "<a><b/><c/></a>", false),
        Row("<a><b/><c/></a>", "<a><b/></a>", false),
        Row("<a><b/><c/></a>", "<a><b/><d/></a>", false),
        Row("<a><b/><b/></a>", "<a><b/></a>", false),
        Row("<a><b/></a>", "<a>x</a>", false),
        Row("<a>x</a>", "<a><b/></a>", false),
        Row("<?pi x?><a/>", "<a/>", false),
        Row("<a/>", "<?pi x?><a/>", false),
        Row("<a><b>1</b></a>", "<a><b>2</b></a>", false),
        Row("<a><b/></a>", "<a><!--c--><b/></a>", true),
        Row("<!DOCTYPE a><a/>", "<a/>", true),
        Row("<a>1</a>", "<?xml version='1.0'?><a>1</a>", true),
        Row("<a/>", "<a/><!--x-->", true),
        Row("<a>${xmlunit.ignore}</a>", "<a>zz</a>", true, placeholders),
        Row("<a>${xmlunit.ignore}</a>", "<a>zz</a>", false),
        Row("<a>${xmlunit.ignore}</a>", "<a/>", true, placeholders),
        Row("<a><b>${xmlunit.ignore}</b></a>", "<a/>", false, placeholders),
        Row("<a>${ xmlunit.ignore }</a>", "<a>q</a>", true, placeholders),
        Row("<a>x${xmlunit.ignore}</a>", "<a>xyz</a>", false, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a>1.5e3</a>", true, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a>-.5</a>", true, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a> 12 </a>", true, placeholders),
        Row("<a>  ${xmlunit.isNumber} </a>", "<a>12</a>", true, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a>x</a>", false, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a>0x10</a>", false, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a>NaN</a>", false, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a>1d</a>", false, placeholders),
        Row("<a>${xmlunit.isNumber}</a>", "<a/>", false, placeholders),
        Row("<a>${xmlunit.unknown}</a>", "<a>q</a>", false, placeholders),
        Row(#"<a>${xmlunit.matchesRegex(\d+)}</a>"#, "<a>12</a>", true, placeholders),
        Row("<a x='${xmlunit.ignore}'/>", "<a x='q'/>", true, placeholders),
        Row(
            "<a>[[xmlunit.ignore]]</a>", "<a>zz</a>", true,
            XMLComparisonOptions(
                enablePlaceholders: true, openingDelimiterRegex: #"\[\["#, closingDelimiterRegex: "]]")),
        Row("<a><b/></a>", "<a><c/></a>", true, exempt(.elementTagName)),
        Row("<a><b>1</b><c/></a>", "<a><d>1</d><e/></a>", true, exempt(.elementTagName)),
        Row("<a><b>1</b><c/></a>", "<a><c/><d>1</d></a>", false, exempt(.elementTagName)),
        Row("<a><b/></a>", "<a><c/></a>", false, exempt(.childLookup)),
        Row("<a>1</a>", "<a>2</a>", true, exempt(.textValue)),
        Row("<a x='1'/>", "<a x='2'/>", true, exempt(.attrValue))
    ]

    @Test("equalToXml compares as WireMock 2.35.1 does", arguments: rows)
    func compare(row: Row) throws {
        let comparison = try XMLComparison(expected: XMLDocument(parsing: row.expected), options: row.options)
        let difference = comparison.firstDifference(with: try XMLDocument(parsing: row.actual))
        #expect((difference == nil) == row.matches, "\(difference.map(\.description) ?? "equal")")
    }

    @Test("a difference names the path and what was expected")
    func differences() throws {
        let comparison = try XMLComparison(expected: XMLDocument(parsing: "<a><b x='1'>t</b></a>"))
        let cases: [(String, String)] = [
            ("<a><c x='1'>t</c></a>", "/a/b: expected element <b>, found <c>"),
            ("<a><b x='2'>t</b></a>", "/a/b: expected x=\"1\", found \"2\""),
            ("<a><b x='1'>u</b></a>", "/a/b: expected text \"t\", found \"u\""),
            ("<a/>", "/a: expected <b>, found no child nodes")
        ]
        for (actual, message) in cases {
            #expect(comparison.firstDifference(with: try XMLDocument(parsing: actual))?.description == message)
        }
    }

    @Test("a placeholder regex that does not compile is an error naming it")
    func badPlaceholder() throws {
        let document = try XMLDocument(parsing: "<a>${xmlunit.matchesRegex([)}</a>")
        #expect(throws: XMLOptionError.self) {
            try XMLComparison(expected: document, options: XMLComparisonOptions(enablePlaceholders: true))
        }
    }

    @Test("deeply nested documents compare without recursion")
    func deep() throws {
        let text = String(repeating: "<a>", count: 512) + "x" + String(repeating: "</a>", count: 512)
        let document = try XMLDocument(parsing: text)
        #expect(try XMLComparison(expected: document).matches(document))
    }
}

struct XMLDistanceTests {
    @Test("the distance is 0 when equal and grows with the share of differing nodes")
    func distance() throws {
        let comparison = try XMLComparison(expected: XMLDocument(parsing: "<a><b>1</b><c>2</c><d>3</d></a>"))
        let equal = try comparison.distance(to: XMLDocument(parsing: "<a><d>3</d><b>1</b><c>2</c></a>"))
        let oneOff = try comparison.distance(to: XMLDocument(parsing: "<a><b>1</b><c>2</c><d>4</d></a>"))
        let twoOff = try comparison.distance(to: XMLDocument(parsing: "<a><b>9</b><c>2</c><d>4</d></a>"))
        let other = try comparison.distance(to: XMLDocument(parsing: "<x/>"))
        #expect(equal == 0)
        #expect(oneOff > 0 && oneOff < twoOff && twoOff <= 1 && other <= 1)
    }
}
