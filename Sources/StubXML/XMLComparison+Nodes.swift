/// Comparing one pair of nodes (not their children).
extension XMLComparison {
    func compare(_ control: Int, _ test: Int, in actual: XMLDocument, under path: String) -> XMLDifference? {
        let expectedNode = expected[control]
        let actualNode = actual[test]
        let here = path.isEmpty ? "/" : path
        switch (expectedNode.kind, actualNode.kind) {
        case (.element, .element):
            let elementPath = path + "/" + expectedNode.name.qualifiedName
            if expectedNode.name.localName != actualNode.name.localName && counts(.elementTagName) {
                return XMLDifference(
                    path: elementPath,
                    message:
                        "expected element <\(expectedNode.name.qualifiedName)>, found <\(actualNode.name.qualifiedName)>"
                )
            }
            if expectedNode.name.namespaceURI != actualNode.name.namespaceURI && counts(.namespaceURI) {
                return XMLDifference(
                    path: elementPath,
                    message:
                        "expected namespace \(Self.quote(expectedNode.name.namespaceURI)), found \(Self.quote(actualNode.name.namespaceURI))"
                )
            }
            return compareAttributes(control, actualNode, at: elementPath)
        case (.text, .text), (.text, .cdata), (.cdata, .text), (.cdata, .cdata):
            let wanted = Self.trimmed(expectedNode.value)
            let found = Self.trimmed(actualNode.value)
            if let placeholder = placeholder(control) {
                if placeholder.accepts(String(found)) || !counts(.textValue) { return nil }
                return XMLDifference(path: here, message: "expected \(wanted), found \"\(found)\"")
            }
            guard wanted == found || !counts(.textValue) else {
                return XMLDifference(path: here, message: "expected text \"\(wanted)\", found \"\(found)\"")
            }
            return nil
        case (.processingInstruction, .processingInstruction):
            if expectedNode.name.localName != actualNode.name.localName && counts(.processingInstructionTarget) {
                return XMLDifference(
                    path: here,
                    message: "expected <?\(expectedNode.name.localName)?>, found <?\(actualNode.name.localName)?>")
            }
            if expectedNode.value != actualNode.value && counts(.processingInstructionData) {
                return XMLDifference(
                    path: here,
                    message:
                        "expected <?\(expectedNode.name.localName) \(expectedNode.value)?>, found data \"\(actualNode.value)\""
                )
            }
            return nil
        // Any other pair: nodes of different types.
        case (.document, _), (.element, _), (.text, _), (.cdata, _), (.comment, _), (.processingInstruction, _):
            guard counts(.nodeType) else { return nil }
            return XMLDifference(
                path: here,
                message: "expected \(describe([control], in: expected)), found \(describe([test], in: actual))")
        }
    }

    private func compareAttributes(_ control: Int, _ actualNode: XMLNode, at path: String) -> XMLDifference? {
        let wanted = expected[control].attributes.enumerated().filter { !$0.element.isNamespaceDeclaration }
        let found = actualNode.attributes.filter { !$0.isNamespaceDeclaration }
        if wanted.count != found.count && counts(.elementNumAttributes) {
            let names = found.map(\.name.qualifiedName).joined(separator: " ")
            return XMLDifference(
                path: path,
                message:
                    "expected \(wanted.count) attribute(s), found \(found.count)\(names.isEmpty ? "" : ": \(names)")")
        }
        for (position, attribute) in wanted {
            guard let match = found.first(where: { $0.name.isExpandedEqual(to: attribute.name) }) else {
                guard counts(.attrNameLookup) else { continue }
                return XMLDifference(
                    path: path, message: "expected attribute \(attribute.name.qualifiedName), found none")
            }
            let value = Self.trimmed(match.value)
            if let placeholder = placeholder(control, attribute: position) {
                if placeholder.accepts(String(value)) || !counts(.attrValue) { continue }
            } else if Self.trimmed(attribute.value) == value || !counts(.attrValue) {
                continue
            }
            return XMLDifference(
                path: path,
                message: "expected \(attribute.name.qualifiedName)=\"\(attribute.value)\", found \"\(match.value)\"")
        }
        return nil
    }

    func describe(_ nodes: [Int], in document: XMLDocument) -> String {
        guard !nodes.isEmpty else { return "no child nodes" }
        let parts = nodes.prefix(4).map { index -> String in
            let node = document[index]
            switch node.kind {
            case .element: return "<\(node.name.qualifiedName)>"
            case .text, .cdata: return "text \"\(Self.trimmed(node.value).prefix(40))\""
            case .processingInstruction: return "<?\(node.name.localName)?>"
            case .comment: return "a comment"
            case .document: return "the document"
            }
        }
        return parts.joined(separator: ", ") + (nodes.count > 4 ? " and \(nodes.count - 4) more" : "")
    }

    static func quote(_ uri: String?) -> String { uri.map { "\"\($0)\"" } ?? "none" }
}
