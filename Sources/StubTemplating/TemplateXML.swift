import StubXML

/// Nodes an `xPath` or `soapXPath` helper selected, with their document: renders as WireMock 2.35.1's
/// `XmlNode` (an element as indented XML ending in a line break, an attribute or text node as its text);
/// several nodes render as the first and are walked by `{{#each}}`; `.name`, `.text` and `.attributes` read
/// a node's qualified name, text and attributes (`{{node.attributes.id}}`).
struct TemplateXML {
    let document: StubXML.XMLDocument
    let nodes: [XPathNode]

    /// The text WireMock writes for the first node.
    var text: String {
        guard let node = nodes.first else { return "" }
        if node.attribute < 0, document[node.index].kind == .comment {
            return "[#comment: \(document[node.index].value)]"
        }
        return document.matchValue(of: node)
    }

    /// Each node on its own.
    var each: [TemplateXML] { nodes.map { TemplateXML(document: document, nodes: [$0]) } }

    /// `name`, `text`, `attributes` of the first node, or an index into the nodes.
    func member(_ name: String) -> TemplateValue {
        if let index = Int(name) {
            return nodes.indices.contains(index)
                ? .xml(TemplateXML(document: document, nodes: [nodes[index]])) : .missing
        }
        guard let node = nodes.first else { return .missing }
        if node.attribute >= 0 {
            let attribute = document[node.index].attributes[node.attribute]
            switch name {
            case "name": return .string(attribute.name.qualifiedName)
            case "text": return .string(attribute.value)
            default: return .missing
            }
        }
        let element = document[node.index]
        switch name {
        case "name": return .string(element.kind == .element ? element.name.qualifiedName : "#text")
        case "text": return .string(document.stringValue(of: node.index))
        case "attributes":
            // As the DOM's attribute map: sorted by name.
            let sorted = element.attributes.sorted { $0.name.qualifiedName < $1.name.qualifiedName }
            return .map(sorted.map { ($0.name.qualifiedName, .string($0.value)) })
        default: return .missing
        }
    }
}
