import StubTestSupport
import Testing

@testable import StubXML

/// Every row was checked against WireMock 2.35.1 (standalone jar, `matchesXPath` on a request body):
/// `true` where the stub matched, that is where the expression selected at least one node.
struct XPathTests {
    static let doc = "<a><b id='1'>x</b><b id='2'> x  y </b><b>3</b><c>1</c><c>2</c><c>3</c></a>"
    static let ns = "<p:a xmlns:p='urn:x'><p:b id='1'>t</p:b><c/></p:a>"

    struct Row: CustomTestStringConvertible, Sendable {
        let expression: String
        let namespaces: [String: String]
        let document: String
        let matches: Bool
        var testDescription: String { "\(expression) \(namespaces) on \(document) → \(matches)" }
        init(_ expression: String, _ document: String, _ matches: Bool, _ namespaces: [String: String] = [:]) {
            self.expression = expression
            self.namespaces = namespaces
            self.document = document
            self.matches = matches
        }
    }

    static let rows: [Row] = [
        Row("/a/b", "<a><b>1</b></a>", true),
        Row("/a/c", "<a><b>1</b></a>", false),
        Row("count(/a/b) = 1", "<a><b>1</b></a>", false),
        Row("/a/b = '1'", "<a><b>1</b></a>", false),
        Row("/a/b[.='1']", "<a><b>1</b></a>", true),
        Row("/a/b[text()='1']", "<a><b>1</b></a>", true),
        Row("//b[@id='x']", "<a><c><b id='x'/></c></a>", true),
        Row("/a", "<a xmlns='urn:x'/>", true),
        Row("/a/b", "<a xmlns='urn:x'><b/></a>", true),
        Row("/q:a", "<p:a xmlns:p='urn:x'/>", true, ["q": "urn:x"]),
        Row("/q:a", "<a xmlns='urn:x'/>", true, ["q": "urn:x"]),
        Row("/a", "<a xmlns='urn:x'/>", false, ["q": "urn:x"]),
        Row("/a/b", "<a xmlns='urn:x'><b/></a>", false, ["q": "urn:x"]),
        Row("/*[local-name()='a']", "<p:a xmlns:p='urn:x'/>", true),
        Row("/a/b[last()]", "<a><b/></a>", true),
        Row("/a/b[2]", "<a><b/></a>", false),
        Row("//b[contains(., 'ell')]", "<a><b>hello</b></a>", true),
        Row("/a/b/text()", "<a><b></b></a>", false),
        Row("/a/b[count(../c)=3]", doc, true),
        Row("//b[position()=2]", doc, true),
        Row("/a/b[normalize-space(.)='x y']", doc, true),
        Row("/a/b[string-length(.)=1][@id='1']", doc, true),
        Row("/a/b[starts-with(@id,'2')]", doc, true),
        Row("/a/b[not(@id)]", doc, true),
        Row("/a/c[number(.)>2]", doc, true),
        Row("/a[sum(c)=6]", doc, true),
        Row("//text()[.='x']", doc, true),
        Row("/a/b[@id='1' or @id='2'][2]", doc, true),
        Row("/a/b[@id='1' and .='x']", doc, true),
        Row("/a/b/..", doc, true),
        Row("/a/b/.", doc, true),
        Row("/a/@*", doc, false),
        Row("/a/b/@*", doc, true),
        Row("/a/node()", doc, true),
        Row("/a/b[true()]", doc, true),
        Row("/a/b[false()]", doc, false),
        Row("/a/c[last()][.='3']", doc, true),
        Row("/a/c[last()-1][.='2']", doc, true),
        Row("/a/b[contains(., 'y')]", doc, true),
        Row("/a/b[string()='3']", doc, true),
        Row("/a/c[. > 1 and . < 3]", doc, true),
        Row("/a/c[. != 1][1][.='2']", doc, true),
        Row("/a/*[local-name()='c'][3]", doc, true),
        Row("//c[preceding-sibling::b]", doc, true),
        Row("//b[following-sibling::c[.='2']]", doc, true),
        Row("/a/b[@id = /a/c]", doc, true),
        Row("/a/b[3][. = 3]", doc, true),
        Row("/a/b[@id='3']", doc, false),
        Row("//*", doc, true),
        Row("/", doc, true),
        Row("a", doc, true),
        Row("*/b", doc, true),
        Row("/a/c[position() mod 2 = 1][2][.='3']", doc, true),
        Row("/a/c[(. + 1) * 2 = 6]", doc, true),
        Row("/a/c[. div 2 = 1]", doc, true),
        Row("/a/c[-. = -3]", doc, true),
        Row("/a/b | /a/c", doc, true),
        Row("/a/b[name()='b']", doc, true),
        Row("/a/z | /a/y", doc, false),
        Row("/a/b[ancestor::a]", doc, true),
        Row("/a/b/ancestor-or-self::*[2]", doc, true),
        Row("//b[@id][last()][.=' x  y ']", doc, true),
        Row("/a/c[. = '2']/preceding::b[1][@id='2']", doc, false),
        Row("/q:a/q:b[namespace-uri()='urn:x']", ns, true, ["q": "urn:x"]),
        Row("/q:a/c", ns, true, ["q": "urn:x"]),
        Row("/q:a/q:c", ns, false, ["q": "urn:x"]),
        Row("/q:a/q:*[@id]", ns, true, ["q": "urn:x"]),
        Row("/*/*[name()='p:b']", ns, true),
        Row("/p:a", ns, false, ["p": "urn:y"]),
        Row("//@id", ns, true, ["q": "urn:x"]),
        Row("/q:a/@*", ns, false, ["q": "urn:x"]),
        Row("/*/@*", ns, false),
        Row("/*[namespace-uri()='']", ns, true)
    ]

    @Test("matchesXPath selects as in WireMock 2.35.1", arguments: rows)
    func select(row: Row) throws {
        let expression = try XPathExpression(row.expression, namespaces: row.namespaces)
        let nodes = expression.selectNodes(in: try XMLDocument(parsing: row.document))
        #expect((nodes?.isEmpty == false) == row.matches)
    }

    @Test("a node's value for a sub-matcher: text, attribute value, or the element rendered as indented XML")
    func values() throws {
        let cases: [(String, String, [String])] = [
            ("/a/b", "<a><b>1</b></a>", ["<b>1</b>\n"]),
            ("/a", "<a><b>1</b></a>", ["<a>\n  <b>1</b>\n</a>\n"]),
            ("/a/b", "<a><b x='1'/></a>", ["<b x=\"1\"/>\n"]),
            ("/a/b/text()", "<a><b>1</b></a>", ["1"]),
            ("/a/@x", "<a x='1'/>", ["1"]),
            // As the WireMock 2.35.1 jar renders them (its `xPath` helper on the same documents): whitespace text
            // beside elements keeps a line of its own without its leading line breaks; comments and processing
            // instructions put their siblings on lines too; text and CDATA alone stay inline.
            (
                "/order", "<order>\n <item z=\"1\" a=\"2\">x</item>\n</order>",
                ["<order>\n   \n  <item a=\"2\" z=\"1\">x</item>\n  \n</order>\n"]
            ),
            (
                "//order", "<order>\n\n    <item z=\"1\">x</item>  <b/>\n</order>",
                ["<order>\n      \n  <item z=\"1\">x</item>\n    \n  <b/>\n  \n</order>\n"]
            ),
            (
                "//order", "<r><order><item>x</item>t<b>y</b></order></r>",
                ["<order>\n  <item>x</item>\n  t\n  <b>y</b>\n</order>\n"]
            ),
            ("/order", "<order>\n a \n b \n<i/></order>", ["<order>\n   a \n b \n\n  <i/>\n</order>\n"]),
            ("/order", "<order>  \n x<i/></order>", ["<order>\n    \n x\n  <i/>\n</order>\n"]),
            (
                "/order", "<order> t <i/>\t\t<j>\n<k/>\n</j></order>",
                ["<order>\n   t \n  <i/>\n  \t\t\n  <j>\n    \n    <k/>\n    \n  </j>\n</order>\n"]
            ),
            ("/order", "<order>\r\n<i/>\r\n  </order>", ["<order>\n  \n  <i/>\n    \n</order>\n"]),
            (
                "/order", "<order><!-- c --><i/><![CDATA[x]]></order>",
                ["<order>\n  <!-- c -->\n  <i/>\n  <![CDATA[x]]>\n</order>\n"]
            ),
            (
                "/order", "<order>\n <!-- c -->\n<i>y<!--q--></i></order>",
                ["<order>\n   \n  <!-- c -->\n  \n  <i>\n    y\n    <!--q-->\n  </i>\n</order>\n"]
            ),
            ("/order", "<order><i>x<![CDATA[y]]></i></order>", ["<order>\n  <i>x<![CDATA[y]]></i>\n</order>\n"]),
            (
                "/order", "<order><i><![CDATA[y]]></i><?pi z?></order>",
                ["<order>\n  <i><![CDATA[y]]></i>\n  <?pi z?>\n</order>\n"]
            ),
            ("/order", "<order><i>a<?pi z?></i></order>", ["<order>\n  <i>\n    a\n    <?pi z?>\n  </i>\n</order>\n"]),
            ("/order", "<order>x<i/>\n\n</order>", ["<order>\n  x\n  <i/>\n  \n</order>\n"]),
            // `<` followed by a combining mark is one Character: still escaped (found by fuzz/run.sh xml).
            ("/r", "<r a='&lt;\u{610}'>&lt;\u{610}&amp;</r>", ["<r a=\"&lt;\u{610}\">&lt;\u{610}&amp;</r>\n"])
        ]
        for (expression, text, values) in cases {
            let document = try XMLDocument(parsing: text)
            let nodes = try XPathExpression(expression).selectNodes(in: document) ?? []
            #expect(nodes.map(document.matchValue) == values, "\(expression)")
        }
    }

    @Test(
        "an invalid expression, an unknown function or an undeclared prefix is an error",
        arguments: ["/a/[", "/a/b[", "foo()", "/p:a", "/a/b[@id='1'", "$x", "/a/namespace::*", "''''"])
    func invalid(expression: String) {
        #expect(throws: XPathError.self) { try XPathExpression(expression) }
    }

    @Test("nesting is bounded and a blow-up of nested scans gives up instead of hanging")
    func bounds() throws {
        let nested = String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40)
        #expect(throws: XPathError.self) { try XPathExpression(nested) }
        let text = "<a>" + String(repeating: "<b><c/><c/></b>", count: 300) + "</a>"
        let expression = try XPathExpression("//*[//*[//*[count(//*) = 0]]]")
        #expect(expression.selectNodes(in: try XMLDocument(parsing: text)) == nil)
    }
}

struct XPathFuzzTests {
    /// The examples of the XPath 1.0 recommendation (section 4.2), and a position too large for an `Int`.
    @Test("substring() follows XPath 1.0 with fractional, infinite, NaN and huge positions, without trapping")
    func substringBounds() throws {
        let document = try XMLDocument(parsing: "<a>12345</a>")
        let cases = [
            ("substring(., 1.5, 2.6)", "234"), ("substring(., 0, 3)", "12"), ("substring(., 0 div 0, 3)", ""),
            ("substring(., 1, 0 div 0)", ""), ("substring(., -42, 1 div 0)", "12345"),
            ("substring(., -1 div 0, 1 div 0)", ""), ("substring(., 99999999999999999999)", ""),
            ("substring(., 2, 99999999999999999999)", "2345")
        ]
        for (call, expected) in cases {
            let nodes = try XPathExpression("/a[\(call) = '\(expected)']").selectNodes(in: document)
            #expect(nodes?.count == 1, "\(call)")
        }
    }

    @Test("random mutations of seed expressions never crash the lexer, parser or evaluator")
    func fuzz() throws {
        let document = try XMLDocument(
            parsing: "<a x='1'><b id='2'>x y</b><b>3</b><!--c--><?p d?><c><![CDATA[z]]></c></a>")
        let seeds = [
            "/a/b[@id='2' and contains(., 'x')]", "//b[last()]/text()", "count(//*) > 2 or sum(/a/b) div 0 = 1",
            "/a/*[position() mod 2 = 1][not(@id)] | //c/node()", "substring(/a/b, 2, 5)", "/descendant::b/../@x",
            "//processing-instruction('p')", "translate(normalize-space(//b), 'xy', 'XY')", "(//b)[2]/ancestor::*"
        ]
        let alphabet = Array("/[]()@*.:|=!<>'\"0123456789-+abcx, ".utf8)
        var random = SplitMix(seed: 0xC0FFEE)
        for round in 0..<3000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(1 + random.next(3)) {
                let at = random.next(max(bytes.count, 1))
                switch random.next(3) {
                case 0 where !bytes.isEmpty: bytes[at] = alphabet[random.next(alphabet.count)]
                case 1: bytes.insert(alphabet[random.next(alphabet.count)], at: min(at, bytes.count))
                default: if !bytes.isEmpty { bytes.remove(at: at) }
                }
            }
            if let expression = try? XPathExpression(String(decoding: bytes, as: UTF8.self)) {
                _ = expression.selectNodes(in: document)
            }
        }
    }
}

/// Darwin runs secondary threads on 512 KiB stacks, where a debug build's recursion must fit.
struct XPathStackTests {
    @Test("the longest operator chains and deepest nesting accepted evaluate on a 512 KiB stack")
    func longestChains() {
        let half = XPathExpression.maxTokens / 2
        let expressions = [
            "/a[" + Array(repeating: "1", count: half - 4).joined(separator: "+") + " > 0]",
            "/a[" + String(repeating: "-", count: XPathExpression.maxTokens - 8) + "1 != 0]",
            "/a[" + String(repeating: "(", count: 30) + "1" + String(repeating: ")", count: 30) + "]",
            String(repeating: "/a[boolean(/a[", count: 10) + "true()" + String(repeating: "])]", count: 10) + "/@x",
            "/a[" + String(repeating: "concat(substring(", count: 15) + "'1'"
                + String(repeating: ", 1), '')", count: 15)
                + " = 1]",
            "/a[" + Array(repeating: "@x", count: (XPathExpression.maxTokens - 8) / 3).joined(separator: " or ")
                + " or true()]"
        ]
        let outcome: String = SmallStackThread.run {
            guard let document = try? XMLDocument(parsing: "<a x='1'/>") else { return "no document" }
            for expression in expressions {
                guard let compiled = try? XPathExpression(expression) else { return "refused \(expression.prefix(20))" }
                guard compiled.selectNodes(in: document)?.count == 1 else { return "missed \(expression.prefix(20))" }
            }
            let tooLong = "/a[" + Array(repeating: "1", count: half + 1).joined(separator: "+") + "]"
            return (try? XPathExpression(tooLong)) == nil ? "ok" : "accepted too long"
        }
        #expect(outcome == "ok")
    }
}
