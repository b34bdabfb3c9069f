/// Evaluates an ``XPathNodeExpression`` against a document. Recursion follows the expression tree, whose
/// depth the parser bounds; every node visited costs a step of ``budget``.
struct XPathEvaluator {
    let document: XMLDocument
    let namespaceAware: Bool
    var budget: Int
    /// ``XPathExpression/matchesLocalNames``.
    var matchesLocalNames = false

    struct Context {
        var node: XPathNode
        var position: Int
        var size: Int
    }

    mutating func spend(_ count: Int = 1) throws(XPathEvaluationFailure) {
        budget -= count
        if budget < 0 { throw XPathEvaluationFailure(reason: "gave up: the expression visits too many nodes") }
    }

    mutating func evaluate(_ expression: XPathNodeExpression, _ context: Context) throws(XPathEvaluationFailure)
        -> XPathValue
    {
        switch expression {
        case .literal(let text): return .string(text)
        case .number(let value): return .number(value)
        case .negate(let inner): return .number(-number(try evaluate(inner, context)))
        case .function(let name, let arguments):
            return try XPathFunctions.call(name, arguments, context, &self)
        case .filter(let primary, let predicates):
            var nodes = try nodeSet(try evaluate(primary, context))
            for predicate in predicates { nodes = try filter(nodes, by: predicate) }
            return .nodes(nodes)
        case .path(let start, let absolute, let steps):
            var nodes: [XPathNode]
            if let start {
                nodes = try nodeSet(try evaluate(start, context))
            } else {
                nodes = [absolute ? XPathNode(index: 0, attribute: -1) : context.node]
            }
            for step in steps { nodes = try apply(step, to: nodes) }
            return .nodes(nodes)
        case .chain(let first, let rest):
            var value = try evaluate(first, context)
            for (symbol, operand) in rest { value = try combine(value, symbol, operand, context) }
            return value
        }
    }

    func nodeSet(_ value: XPathValue) throws(XPathEvaluationFailure) -> [XPathNode] {
        guard case .nodes(let nodes) = value else {
            throw XPathEvaluationFailure(reason: "expected a node-set, found a \(Self.typeName(value))")
        }
        return nodes
    }

    static func typeName(_ value: XPathValue) -> String {
        switch value {
        case .nodes: "node-set"
        case .string: "string"
        case .number: "number"
        case .boolean: "boolean"
        }
    }

    mutating func apply(_ step: XPathStep, to nodes: [XPathNode]) throws(XPathEvaluationFailure) -> [XPathNode] {
        var result: [XPathNode] = []
        for node in nodes {
            var candidates = try axisNodes(step.axis, from: node).filter { matches(step.test, $0, axis: step.axis) }
            for predicate in step.predicates { candidates = try filter(candidates, by: predicate) }
            result.append(contentsOf: candidates)
        }
        if nodes.count > 1 || step.axis.isReverse { result = Array(Set(result)).sorted() }
        return result
    }

    /// Keeps the nodes (in the order given, which gives positions) for which `predicate` holds.
    mutating func filter(_ nodes: [XPathNode], by predicate: XPathNodeExpression) throws(XPathEvaluationFailure)
        -> [XPathNode]
    {
        var kept: [XPathNode] = []
        for (offset, node) in nodes.enumerated() {
            try spend()
            let value = try evaluate(predicate, Context(node: node, position: offset + 1, size: nodes.count))
            if case .number(let position) = value {
                if position == Double(offset + 1) { kept.append(node) }
            } else if boolean(value) {
                kept.append(node)
            }
        }
        return kept
    }

    func stringValue(_ node: XPathNode) -> String {
        node.isAttribute ? document[node.index].attributes[node.attribute].value : document.stringValue(of: node.index)
    }

    func string(_ value: XPathValue) -> String {
        switch value {
        case .nodes(let nodes): nodes.first.map(stringValue) ?? ""
        case .string(let text): text
        case .number(let number): XPathValue.string(from: number)
        case .boolean(let flag): flag ? "true" : "false"
        }
    }

    func number(_ value: XPathValue) -> Double {
        switch value {
        case .number(let number): number
        case .boolean(let flag): flag ? 1 : 0
        case .nodes, .string: XPathValue.number(from: string(value))
        }
    }

    func boolean(_ value: XPathValue) -> Bool {
        switch value {
        case .nodes(let nodes): !nodes.isEmpty
        case .string(let text): !text.isEmpty
        case .number(let number): number != 0 && !number.isNaN
        case .boolean(let flag): flag
        }
    }
}
