/// `or`, `and`, comparisons, arithmetic and union.
extension XPathEvaluator {
    /// `left symbol right`, with `left` already evaluated (`or` and `and` evaluate `right` only if needed).
    mutating func combine(
        _ left: XPathValue, _ symbol: String, _ right: XPathNodeExpression, _ context: Context
    ) throws(XPathEvaluationFailure) -> XPathValue {
        switch symbol {
        case "or":
            if boolean(left) { return .boolean(true) }
            return .boolean(boolean(try evaluate(right, context)))
        case "and":
            if !boolean(left) { return .boolean(false) }
            return .boolean(boolean(try evaluate(right, context)))
        case "|":
            let nodes = try nodeSet(left) + nodeSet(try evaluate(right, context))
            return .nodes(Array(Set(nodes)).sorted())
        case "=", "!=", "<", "<=", ">", ">=":
            return .boolean(try compare(symbol, left, try evaluate(right, context)))
        default:
            let lhs = number(left)
            let rhs = number(try evaluate(right, context))
            switch symbol {
            case "+": return .number(lhs + rhs)
            case "-": return .number(lhs - rhs)
            case "*": return .number(lhs * rhs)
            case "div": return .number(lhs / rhs)
            default: return .number(lhs.truncatingRemainder(dividingBy: rhs))
            }
        }
    }

    /// XPath 1.0 section 3.4: node-sets compare through their nodes' string values.
    mutating func compare(_ symbol: String, _ left: XPathValue, _ right: XPathValue) throws(XPathEvaluationFailure)
        -> Bool
    {
        switch (left, right) {
        case (.nodes(let lhs), .nodes(let rhs)):
            let rightStrings = rhs.map(stringValue)
            for node in lhs {
                try spend(rhs.count)
                let text = stringValue(node)
                if rightStrings.contains(where: { scalar(symbol, .string(text), .string($0)) }) { return true }
            }
            return false
        case (.nodes(let nodes), let other):
            if case .boolean = other { return scalar(symbol, .boolean(!nodes.isEmpty), other) }
            return nodes.contains { scalar(symbol, .string(stringValue($0)), other) }
        case (let other, .nodes(let nodes)):
            if case .boolean = other { return scalar(symbol, other, .boolean(!nodes.isEmpty)) }
            return nodes.contains { scalar(symbol, other, .string(stringValue($0))) }
        case (.string, _), (.number, _), (.boolean, _):
            return scalar(symbol, left, right)
        }
    }

    /// Comparison of two values that are not node-sets (a node's string value counts as a string).
    func scalar(_ symbol: String, _ left: XPathValue, _ right: XPathValue) -> Bool {
        if symbol == "=" || symbol == "!=" {
            let equal: Bool
            switch (left, right) {
            case (.boolean, _), (_, .boolean): equal = boolean(left) == boolean(right)
            case (.number, _), (_, .number): equal = number(left) == number(right)
            case (.nodes, _), (.string, _): equal = string(left) == string(right)
            }
            return symbol == "=" ? equal : !equal
        }
        let lhs = number(left)
        let rhs = number(right)
        switch symbol {
        case "<": return lhs < rhs
        case "<=": return lhs <= rhs
        case ">": return lhs > rhs
        default: return lhs >= rhs
        }
    }
}
