/// The XPath 1.0 core functions stubserver supports.
enum XPathFunctions {
    /// Name → accepted argument counts.
    static let arities: [String: ClosedRange<Int>] = [
        "last": 0...0, "position": 0...0, "count": 1...1, "local-name": 0...1, "name": 0...1,
        "namespace-uri": 0...1, "string": 0...1, "concat": 2...64, "starts-with": 2...2, "ends-with": 2...2,
        "contains": 2...2, "substring-before": 2...2, "substring-after": 2...2, "substring": 2...3,
        "string-length": 0...1, "normalize-space": 0...1, "translate": 3...3, "not": 1...1, "true": 0...0,
        "false": 0...0, "boolean": 1...1, "number": 0...1, "sum": 1...1, "floor": 1...1, "ceiling": 1...1,
        "round": 1...1
    ]

    static func check(_ name: String, arity: Int) throws(XPathError) {
        guard let range = arities[name] else {
            throw XPathError("unknown function '\(name)()' (known: \(arities.keys.sorted().joined(separator: ", ")))")
        }
        guard range.contains(arity) else {
            throw XPathError("\(name)() takes \(range.lowerBound)…\(range.upperBound) arguments, found \(arity)")
        }
    }

    static func call(
        _ name: String, _ arguments: [XPathNodeExpression], _ context: XPathEvaluator.Context,
        _ evaluator: inout XPathEvaluator
    ) throws(XPathEvaluationFailure) -> XPathValue {
        var evaluated: [XPathValue] = []
        for argument in arguments { evaluated.append(try evaluator.evaluate(argument, context)) }
        let values = evaluated
        let reader = evaluator
        func strings(_ index: Int) -> String {
            values.count > index ? reader.string(values[index]) : reader.stringValue(context.node)
        }
        switch name {
        case "last": return .number(Double(context.size))
        case "position": return .number(Double(context.position))
        case "count": return .number(Double(try evaluator.nodeSet(values[0]).count))
        case "local-name", "name", "namespace-uri":
            let node = values.isEmpty ? context.node : try evaluator.nodeSet(values[0]).first
            guard let node, let xmlName = evaluator.names(of: node) else { return .string("") }
            switch name {
            case "local-name": return .string(xmlName.localName)
            case "name": return .string(xmlName.qualifiedName)
            default: return .string(evaluator.namespaceAware ? xmlName.namespaceURI ?? "" : "")
            }
        case "string": return .string(strings(0))
        case "concat": return .string(values.map(evaluator.string).joined())
        case "starts-with": return .boolean(strings(0).hasPrefix(strings(1)))
        case "ends-with": return .boolean(strings(0).hasSuffix(strings(1)))
        case "contains": return .boolean(strings(1).isEmpty || strings(0).contains(strings(1)))
        case "substring-before", "substring-after":
            let text = strings(0)
            guard let range = text.firstRange(of: strings(1)) else { return .string("") }
            return .string(String(name == "substring-before" ? text[..<range.lowerBound] : text[range.upperBound...]))
        case "substring":
            let characters = Array(strings(0))
            let start = (evaluator.number(values[1])).rounded(.toNearestOrAwayFromZero)
            let end =
                values.count > 2 ? start + evaluator.number(values[2]).rounded(.toNearestOrAwayFromZero) : .infinity
            guard !start.isNaN, !end.isNaN else { return .string("") }
            // Positions clamped to 1…count+1 before converting, so that no number traps.
            let limit = Double(characters.count + 1)
            let from = Int(min(max(start, 1), limit)) - 1
            let to = Int(min(max(end, 1), limit)) - 1
            return .string(from < to ? String(characters[from..<to]) : "")
        case "string-length": return .number(Double(strings(0).count))
        case "normalize-space": return .string(strings(0).normalizingXPathSpace())
        case "translate":
            let from = Array(strings(1))
            let to = Array(strings(2))
            var result = ""
            for character in strings(0) {
                guard let position = from.firstIndex(of: character) else {
                    result.append(character)
                    continue
                }
                if position < to.count { result.append(to[position]) }
            }
            return .string(result)
        case "not": return .boolean(!evaluator.boolean(values[0]))
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "boolean": return .boolean(evaluator.boolean(values[0]))
        case "number":
            return .number(values.isEmpty ? XPathValue.number(from: strings(0)) : evaluator.number(values[0]))
        case "sum":
            let nodes = try evaluator.nodeSet(values[0])
            return .number(nodes.reduce(0) { $0 + XPathValue.number(from: evaluator.stringValue($1)) })
        case "floor": return .number(evaluator.number(values[0]).rounded(.down))
        case "ceiling": return .number(evaluator.number(values[0]).rounded(.up))
        default: return .number((evaluator.number(values[0]) + 0.5).rounded(.down))
        }
    }
}
