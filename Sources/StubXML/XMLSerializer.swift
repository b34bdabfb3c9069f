/// Writes an element back as XML, the way WireMock 2.35.1 renders a node a `matchesXPath` selects (a JDK
/// transformer with `indent="yes"` and an indent of 2): elements with element children on lines of their
/// own, text inline, empty elements as `<a/>`, attributes sorted by name, a line break at the end. Iterative.
enum XMLSerializer {
    static func indented(_ document: XMLDocument, from start: Int) -> String {
        var output = ""
        /// (node, depth, closing): an element is visited twice, to open and to close it.
        var pending: [(node: Int, depth: Int, closing: Bool)] = [(start, 0, false)]
        while let (index, depth, closing) = pending.popLast() {
            let node = document[index]
            let hasElements = node.children.contains { document[$0].kind == .element }
            let indent = String(repeating: " ", count: 2 * depth)
            if closing {
                if hasElements { output += indent }
                output += "</\(node.name.qualifiedName)>\n"
                continue
            }
            switch node.kind {
            case .element:
                output += indent + "<" + node.name.qualifiedName
                // The DOM keeps attributes sorted by name, and WireMock writes them so.
                for attribute in node.attributes.sorted(by: { $0.name.qualifiedName < $1.name.qualifiedName }) {
                    output += " \(attribute.name.qualifiedName)=\"\(escape(attribute.value, attribute: true))\""
                }
                let children = node.children.filter {
                    !(hasElements && document[$0].isText && isBlank(document[$0].value))
                }
                if children.isEmpty {
                    output += "/>\n"
                    continue
                }
                output += hasElements ? ">\n" : ">"
                pending.append((index, depth, true))
                if hasElements {
                    for child in children.reversed() { pending.append((child, depth + 1, false)) }
                } else {
                    for child in children { output += text(of: document[child]) }
                }
            default:
                output += (hasElementsParent(document, index) ? indent : "") + text(of: node)
                if hasElementsParent(document, index) { output += "\n" }
            }
        }
        return output
    }

    private static func hasElementsParent(_ document: XMLDocument, _ index: Int) -> Bool {
        let parent = document[index].parent
        return parent >= 0 && document[parent].children.contains { document[$0].kind == .element }
    }

    private static func text(of node: XMLNode) -> String {
        switch node.kind {
        case .text: escape(node.value, attribute: false)
        case .cdata: "<![CDATA[\(node.value)]]>"
        case .comment: "<!--\(node.value)-->"
        case .processingInstruction: "<?\(node.name.localName) \(node.value)?>"
        default: ""
        }
    }

    private static func isBlank(_ text: String) -> Bool { text.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\n" } }

    static func escape(_ text: String, attribute: Bool) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where attribute: result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
