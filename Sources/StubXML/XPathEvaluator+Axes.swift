/// Axes and node tests over the flat document.
extension XPathEvaluator {
    /// The nodes on `axis` from `node`, in axis order (reverse document order for reverse axes).
    mutating func axisNodes(_ axis: XPathAxis, from node: XPathNode) throws(XPathEvaluationFailure) -> [XPathNode] {
        let nodes = document.nodes
        let index = node.index
        func plain(_ index: Int) -> XPathNode { XPathNode(index: index, attribute: -1) }
        var result: [XPathNode] = []
        switch axis {
        case .self:
            result = [node]
        case .child:
            guard !node.isAttribute else { return [] }
            result = nodes[index].children.map(plain)
        case .descendant, .descendantOrSelf:
            if axis == .descendantOrSelf { result.append(node) }
            guard !node.isAttribute else { return result }
            result.append(contentsOf: ((index + 1)..<nodes[index].end).map(plain))
        case .parent:
            if node.isAttribute { return [plain(index)] }
            result = nodes[index].parent >= 0 ? [plain(nodes[index].parent)] : []
        case .ancestor, .ancestorOrSelf:
            if axis == .ancestorOrSelf { result.append(node) }
            var current = node.isAttribute ? index : nodes[index].parent
            while current >= 0 {
                result.append(plain(current))
                current = nodes[current].parent
            }
        case .attribute:
            guard !node.isAttribute, nodes[index].kind == .element else { return [] }
            for (position, attribute) in nodes[index].attributes.enumerated()
            where !attribute.isNamespaceDeclaration {
                result.append(XPathNode(index: index, attribute: position))
            }
        case .followingSibling, .precedingSibling:
            guard !node.isAttribute, nodes[index].parent >= 0 else { return [] }
            let siblings = nodes[nodes[index].parent].children
            guard let position = siblings.firstIndex(of: index) else { return [] }
            result =
                axis == .followingSibling
                ? siblings[(position + 1)...].map(plain) : siblings[..<position].reversed().map(plain)
        case .following:
            let start = node.isAttribute ? index + 1 : nodes[index].end
            result = (start..<nodes.count).map(plain)
        case .preceding:
            var ancestors = Set<Int>()
            var current = node.isAttribute ? index : nodes[index].parent
            while current >= 0 {
                ancestors.insert(current)
                current = nodes[current].parent
            }
            result = (0..<index).reversed().filter { !ancestors.contains($0) }.map(plain)
        case .namespace:
            return []
        }
        try spend(result.count)
        return result
    }

    /// Whether `node` passes `test`; the principal node type is attribute on the attribute axis, else element.
    func matches(_ test: XPathNodeTest, _ node: XPathNode, axis: XPathAxis) -> Bool {
        let xmlNode = document[node.index]
        let name: XMLName
        if node.isAttribute {
            name = xmlNode.attributes[node.attribute].name
        } else {
            name = xmlNode.name
        }
        let isPrincipal = axis == .attribute ? node.isAttribute : (!node.isAttribute && xmlNode.kind == .element)
        switch test {
        case .node: return true
        case .text: return !node.isAttribute && xmlNode.isText
        case .comment: return !node.isAttribute && xmlNode.kind == .comment
        case .processingInstruction(let target):
            return !node.isAttribute && xmlNode.kind == .processingInstruction
                && (target == nil || target == xmlNode.name.localName)
        case .anyName: return isPrincipal
        case .anyInNamespace(let uri): return isPrincipal && name.namespaceURI == uri
        case .name(let qualified, let local, let uri):
            guard isPrincipal else { return false }
            if namespaceAware { return name.localName == local && name.namespaceURI == uri }
            if matchesLocalNames { return uri == nil && name.localName == local }
            return name.qualifiedName == qualified
        }
    }

    /// `local-name()`, `name()` and `namespace-uri()` of a node.
    func names(of node: XPathNode) -> XMLName? {
        let xmlNode = document[node.index]
        if node.isAttribute { return xmlNode.attributes[node.attribute].name }
        switch xmlNode.kind {
        case .element, .processingInstruction: return xmlNode.name
        case .document, .text, .cdata, .comment: return nil
        }
    }
}
