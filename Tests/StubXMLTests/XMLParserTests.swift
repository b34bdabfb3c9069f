import Testing

@testable import StubXML

struct XMLParserTests {
    @Test("a document with namespaces, attributes, text, CDATA, comments and PIs parses to its nodes")
    func wellFormed() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- prolog --><?pi data?>
            <p:order xmlns:p="urn:orders" xmlns="urn:default" id="7" p:kind="a">
              <item n='1'>one &amp; &lt;two&gt; &#65;&#x42;</item><![CDATA[<raw>]]><!--c--><empty/>
            </p:order>
            """
        let document = try XMLDocument(parsing: text)
        let root = document.root
        #expect(root.kind == .element)
        #expect(root.name == XMLName(prefix: "p", localName: "order", namespaceURI: "urn:orders"))
        #expect(root.attributes.count == 4)
        #expect(root.attributes[2].name == XMLName(localName: "id"))
        #expect(root.attributes[3].name == XMLName(prefix: "p", localName: "kind", namespaceURI: "urn:orders"))
        #expect(root.attributes[0].isNamespaceDeclaration)
        let elements = root.children.map { document[$0] }.filter { $0.kind == .element }
        #expect(elements.map(\.name.localName) == ["item", "empty"])
        #expect(elements[0].name.namespaceURI == "urn:default")
        #expect(document.stringValue(of: elements.isEmpty ? 0 : root.children[1]) == "one & <two> AB")
        #expect(root.children.map { document[$0].kind }.contains(.cdata))
        #expect(document.stringValue(of: document.rootIndex).contains("<raw>"))
        #expect(document[0].children.map { document[$0].kind } == [.comment, .processingInstruction, .element])
    }

    @Test("line breaks are normalised and attribute whitespace becomes spaces")
    func normalisation() throws {
        let document = try XMLDocument(parsing: "<a b='x\r\ny\tz'>1\r\n2\r3</a>")
        #expect(document.root.attributes[0].value == "x y z")
        #expect(document.stringValue(of: document.rootIndex) == "1\n2\n3")
    }

    @Test("an unprefixed attribute has no namespace; xmlns=\"\" undeclares the default")
    func defaultNamespace() throws {
        let document = try XMLDocument(parsing: "<a xmlns='urn:a' x='1'><b xmlns=''/></a>")
        #expect(document.root.name.namespaceURI == "urn:a")
        #expect(document.root.attributes[1].name.namespaceURI == nil)
        #expect(document[document.root.children[0]].name.namespaceURI == nil)
    }

    @Test("a DOCTYPE without entity declarations is skipped")
    func doctype() throws {
        let document = try XMLDocument(parsing: "<!DOCTYPE a SYSTEM \"a.dtd\" [<!ELEMENT a (#PCDATA)>]><a>x</a>")
        #expect(document.stringValue(of: document.rootIndex) == "x")
    }

    static let illFormed: [(String, String)] = [
        ("", "expected a root element"),
        ("<a>", "<a> is not closed"),
        ("<a></b>", "expected the end tag </a>, found </b>"),
        ("<a/><b/>", "second one"),
        ("text<a/>", "before the root"),
        ("<a/>text", "after the root"),
        ("<a x='1' x='2'/>", "appears twice"),
        ("<a xmlns:p='u' xmlns:q='u' p:x='1' q:x='2'/>", "duplicates another"),
        ("<p:a/>", "prefix 'p' of 'p:a' is not declared"),
        ("<a>&foo;</a>", "undefined entity '&foo;'"),
        ("<a>&#0;</a>", "not a reference to a character"),
        ("<a>& b</a>", "expected a reference"),
        ("<a x=1/>", "expected a quoted attribute value"),
        ("<a x='<'/>", "'<' is not allowed"),
        ("<a>]]></a>", "']]>' is not allowed"),
        ("<a><!-- a -- b --></a>", "'--' is not allowed"),
        ("<a>\u{1}</a>", "not allowed in XML"),
        ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "entity declarations"),
        ("<a><?xml version='1.0'?></a>", "only allowed at the very start"),
        ("<?xml version='2.0'?><a/>", "unsupported XML version"),
        ("<a xmlns:p=''/>", "must not be empty"),
        ("<a b='1'c='2'/>", "expected whitespace"),
        ("<a:b:c xmlns:a='u'/>", "not a valid namespace-qualified name")
    ]

    @Test("ill-formed documents are refused with a message saying what was expected", arguments: illFormed)
    func illFormedDocuments(text: String, message: String) {
        #expect {
            try XMLDocument(parsing: text)
        } throws: { error in
            (error as? XMLParseError)?.message.contains(message) == true
        }
    }

    @Test("errors give the line and column")
    func position() {
        #expect(throws: XMLParseError(line: 2, column: 8, message: "expected the end tag </a>, found </b>")) {
            try XMLDocument(parsing: "<a>\n<c></c></b>")
        }
    }

    @Test("depth and size limits are errors, and a deep document within them parses without recursion")
    func limits() throws {
        let deep = String(repeating: "<a>", count: 513) + String(repeating: "</a>", count: 513)
        #expect(throws: XMLParseError.self) { try XMLDocument(parsing: deep) }
        let ok = String(repeating: "<a>", count: 512) + "x" + String(repeating: "</a>", count: 512)
        let document = try XMLDocument(parsing: ok)
        #expect(document.stringValue(of: document.rootIndex) == "x")
        #expect(throws: XMLParseError.self) { try XMLDocument(parsing: "<a/>", limits: XMLLimits(maxBytes: 3)) }
        let wide = try XMLDocument(
            parsing: String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000),
            limits: XMLLimits(maxDepth: 100_000))
        #expect(wide.nodes.count == 100_001)
    }

    @Test("every truncation of a valid document is an error, never a crash")
    func truncations() throws {
        let text = """
            <?xml version="1.0"?><!DOCTYPE r><r xmlns:p="urn:p" a="1&amp;2"><p:x>t&#65;</p:x><![CDATA[c]]>\
            <!--k--><?pi d?><e/></r>
            """
        _ = try XMLDocument(parsing: text)
        let bytes = Array(text.utf8)
        for length in 0..<bytes.count {
            #expect(throws: XMLParseError.self) {
                try XMLDocument(parsing: String(decoding: bytes[0..<length], as: UTF8.self))
            }
        }
    }

    @Test("random mutations of seed documents never crash the parser")
    func fuzz() {
        let seeds = [
            "<a xmlns='u' xmlns:p='v'><p:b c='1'>x&amp;y</p:b><![CDATA[z]]><!--c--><?p q?></a>",
            "<?xml version='1.0' encoding='UTF-8'?><!DOCTYPE a [<!ELEMENT a ANY>]><a>&#x41;</a>",
            "<r><s t=\"&lt;&gt;\">é ü</s></r>"
        ]
        let alphabet = Array("<>/&;:='\"![]-?x#a ".utf8)
        var random = SplitMix(seed: 0x5EED)
        var parsed = 0
        for round in 0..<3000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<(1 + random.next(3)) {
                let at = random.next(bytes.count)
                switch random.next(3) {
                case 0: bytes[at] = alphabet[random.next(alphabet.count)]
                case 1: bytes.insert(alphabet[random.next(alphabet.count)], at: at)
                default: bytes.remove(at: at)
                }
            }
            if (try? XMLDocument(parsing: String(decoding: bytes, as: UTF8.self))) != nil { parsed += 1 }
        }
        #expect(parsed < 3000)
    }
}

/// A deterministic pseudo-random generator for the fuzz tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(max(bound, 1)))
    }
}
