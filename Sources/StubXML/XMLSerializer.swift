/// Writes an element back as XML, the way WireMock 2.35.1 renders a node a `matchesXPath` selects (JDK 17's
/// transformer with `indent="yes"` and an indent of 2), as the jar answers:
/// - an element with an element, comment or processing-instruction child puts every child on a line of its own,
///   indented, whitespace-only text included; a text child loses its leading line breaks (`"\n  "` → `"  "`);
/// - any other element keeps its text and CDATA inline: `<a>x<![CDATA[y]]></a>`;
/// - an empty element is `<a/>`, attributes are sorted by name (as the DOM keeps them), a line break ends the
///   output.
///
/// Iterative: the node stack lives on the heap, so depth costs no thread stack.
enum XMLSerializer {
    static func indented(_ document: XMLDocument, from start: Int) -> String {
        var output = ""
        /// (node, depth, closing): an element is visited twice, to open and to close it.
        var pending: [(node: Int, depth: Int, closing: Bool)] = [(start, 0, false)]
        while let (index, depth, closing) = pending.popLast() {
            let node = document[index]
            let indent = String(repeating: " ", count: 2 * depth)
            if closing {
                if isBlock(document, index) { output += indent }
                output += "</\(node.name.qualifiedName)>\n"
                continue
            }
            guard node.kind == .element else {
                // Only a block element's children get here (an inline one writes its text itself).
                let text = node.kind == .text ? String(node.value.drop { $0 == "\n" }) : node.value
                output += indent + rendered(node, text: text) + "\n"
                continue
            }
            output += indent + "<" + node.name.qualifiedName
            for attribute in node.attributes.sorted(by: { $0.name.qualifiedName < $1.name.qualifiedName }) {
                output += " \(attribute.name.qualifiedName)=\"\(escape(attribute.value, attribute: true))\""
            }
            if node.children.isEmpty {
                output += "/>\n"
                continue
            }
            pending.append((index, depth, true))
            if isBlock(document, index) {
                output += ">\n"
                for child in node.children.reversed() { pending.append((child, depth + 1, false)) }
            } else {
                output += ">"
                for child in node.children { output += rendered(document[child], text: document[child].value) }
            }
        }
        return output
    }

    /// Whether an element's children go on lines of their own: it has an element, comment or processing
    /// instruction child.
    private static func isBlock(_ document: XMLDocument, _ index: Int) -> Bool {
        guard index >= 0, document[index].kind == .element else { return false }
        return document[index].children.contains {
            switch document[$0].kind {
            case .element, .comment, .processingInstruction: true
            case .document, .text, .cdata: false
            }
        }
    }

    /// A non-element node as markup, with `text` as its content.
    private static func rendered(_ node: XMLNode, text: String) -> String {
        switch node.kind {
        case .text: escape(text, attribute: false)
        case .cdata: "<![CDATA[\(text)]]>"
        case .comment: "<!--\(text)-->"
        case .processingInstruction: "<?\(node.name.localName) \(text)?>"
        case .document, .element: ""
        }
    }

    /// `&`, `<`, `>` (and `"` in an attribute) as entities. Byte by byte: a combining mark after `<` makes one
    /// `Character` with it, which a `Character` comparison would let through unescaped.
    static func escape(_ text: String, attribute: Bool) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;".utf8
            case UInt8(ascii: "<"): result += "&lt;".utf8
            case UInt8(ascii: ">"): result += "&gt;".utf8
            case UInt8(ascii: "\"") where attribute: result += "&quot;".utf8
            default: result.append(byte)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
