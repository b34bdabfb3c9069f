/// Evaluating a compiled expression.
extension XPathExpression {
    /// Steps an evaluation may take on `document` before giving up (nested `//` scans multiply).
    public static func budget(for document: XMLDocument) -> Int { 1_000_000 + 64 * document.nodes.count }

    /// The nodes the expression selects in document order, or `nil` when its value is not a node-set
    /// (`count(/a)`, `/a = 'x'`) or the evaluation gave up: WireMock 2.35.1 evaluates `matchesXPath` as a
    /// node-set and does not match either way.
    public func selectNodes(in document: XMLDocument) -> [XPathNode]? {
        var evaluator = XPathEvaluator(
            document: document, namespaceAware: namespaceAware, budget: Self.budget(for: document))
        evaluator.matchesLocalNames = matchesLocalNames
        let context = XPathEvaluator.Context(node: XPathNode(index: 0, attribute: -1), position: 1, size: 1)
        guard case .nodes(let nodes)? = try? evaluator.evaluate(root, context) else { return nil }
        return nodes
    }
}

extension XMLDocument {
    /// The string WireMock 2.35.1 gives a `matchesXPath` sub-matcher for `node`: an attribute's value, a
    /// text node's text, an element (or the document) serialised as indented XML ending in a line break.
    public func matchValue(of node: XPathNode) -> String {
        if node.isAttribute { return nodes[node.index].attributes[node.attribute].value }
        switch nodes[node.index].kind {
        case .element: return XMLSerializer.indented(self, from: node.index)
        case .document: return XMLSerializer.indented(self, from: rootIndex)
        case .text, .cdata, .comment, .processingInstruction: return nodes[node.index].value
        }
    }
}
