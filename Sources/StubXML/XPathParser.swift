/// A recursive-descent parser for XPath 1.0, nesting (parentheses, predicates, arguments) bounded by
/// ``maxDepth``.
struct XPathParser {
    static let maxDepth = 32
    let tokens: [XPathToken]
    let namespaces: [String: String]
    var index = 0
    var depth = 0

    /// Whether a prefix not in ``namespaces`` makes a name test that selects nothing (WireMock's `xPath`
    /// helper) rather than an error.
    var lenientPrefixes = false

    init(tokens: [XPathToken], namespaces: [String: String]) {
        self.tokens = tokens
        self.namespaces = namespaces
    }

    var atEnd: Bool { index >= tokens.count }
    var current: XPathToken? { atEnd ? nil : tokens[index] }

    func describeCurrent() -> String { current.map { "token \($0)" } ?? "end of expression" }

    mutating func expect(_ token: XPathToken) throws(XPathError) {
        guard current == token else { throw XPathError("expected \(token), found \(describeCurrent())") }
        index += 1
    }

    mutating func parseExpression() throws(XPathError) -> XPathNodeExpression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw XPathError("expression nested deeper than \(Self.maxDepth)") }
        return try parseBinary(level: 0)
    }

    /// Operator levels, loosest first.
    private static let levels: [[XPathToken]] = [
        [.operatorName("or")], [.operatorName("and")], [.equal, .notEqual],
        [.less, .lessOrEqual, .greater, .greaterOrEqual], [.plus, .minus],
        [.operatorName("*"), .operatorName("div"), .operatorName("mod")]
    ]

    private static func symbol(_ token: XPathToken) -> String {
        switch token {
        case .operatorName(let name): name
        case .equal: "="
        case .notEqual: "!="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        case .plus: "+"
        case .minus: "-"
        // Not operators: `levels` holds none of them.
        case .slash, .doubleSlash, .leftBracket, .rightBracket, .leftParen, .rightParen, .at, .dot, .dotDot, .comma,
            .pipe, .star, .name, .axis, .literal, .number:
            "-"
        }
    }

    private mutating func parseBinary(level: Int) throws(XPathError) -> XPathNodeExpression {
        guard level < Self.levels.count else { return try parseUnary() }
        let first = try parseBinary(level: level + 1)
        var rest: [(symbol: String, operand: XPathNodeExpression)] = []
        while let token = current, Self.levels[level].contains(token) {
            index += 1
            rest.append((Self.symbol(token), try parseBinary(level: level + 1)))
        }
        return rest.isEmpty ? first : .chain(first, rest)
    }

    private mutating func parseUnary() throws(XPathError) -> XPathNodeExpression {
        var negations = 0
        while current == .minus {
            index += 1
            negations += 1
        }
        let first = try parsePathExpression()
        var rest: [(symbol: String, operand: XPathNodeExpression)] = []
        while current == .pipe {
            index += 1
            rest.append(("|", try parsePathExpression()))
        }
        let union = rest.isEmpty ? first : .chain(first, rest)
        // `--x` is `number(x)`: no chain of nested negations.
        guard negations > 0 else { return union }
        return negations % 2 == 1 ? .negate(union) : .function("number", [union])
    }

    private mutating func parsePathExpression() throws(XPathError) -> XPathNodeExpression {
        guard let token = current else { throw XPathError("unexpected end of expression") }
        var isPrimary = false
        switch token {
        case .literal, .number, .leftParen: isPrimary = true
        case .name(let name):
            if index + 1 < tokens.count, tokens[index + 1] == .leftParen {
                isPrimary = !["node", "text", "comment", "processing-instruction"].contains(name)
            }
        case .slash, .doubleSlash, .leftBracket, .rightBracket, .rightParen, .at, .dot, .dotDot, .comma, .pipe, .star,
            .plus, .minus, .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .operatorName, .axis:
            break
        }
        guard isPrimary else { return try parseLocationPath() }
        let primary = try parsePrimary()
        var predicates: [XPathNodeExpression] = []
        while current == .leftBracket { predicates.append(try parsePredicate()) }
        let filtered = predicates.isEmpty ? primary : .filter(primary, predicates)
        guard current == .slash || current == .doubleSlash else { return filtered }
        return .path(start: filtered, absolute: false, steps: try parseRelativeSteps(afterSeparator: false))
    }

    private mutating func parsePrimary() throws(XPathError) -> XPathNodeExpression {
        switch current {
        case .literal(let text)?:
            index += 1
            return .literal(text)
        case .number(let value)?:
            index += 1
            return .number(value)
        case .leftParen?:
            index += 1
            let inner = try parseExpression()
            try expect(.rightParen)
            return inner
        case .name(let name)?:
            index += 2
            var arguments: [XPathNodeExpression] = []
            if current != .rightParen {
                arguments.append(try parseExpression())
                while current == .comma {
                    index += 1
                    arguments.append(try parseExpression())
                }
            }
            try expect(.rightParen)
            try XPathFunctions.check(name, arity: arguments.count)
            return .function(name, arguments)
        case .slash?, .doubleSlash?, .leftBracket?, .rightBracket?, .rightParen?, .at?, .dot?, .dotDot?, .comma?,
            .pipe?, .star?, .plus?, .minus?, .equal?, .notEqual?, .less?, .lessOrEqual?, .greater?, .greaterOrEqual?,
            .operatorName?, .axis?, nil:
            throw XPathError("expected an expression, found \(describeCurrent())")
        }
    }

    private mutating func parsePredicate() throws(XPathError) -> XPathNodeExpression {
        try expect(.leftBracket)
        let predicate = try parseExpression()
        try expect(.rightBracket)
        return predicate
    }

    private mutating func parseLocationPath() throws(XPathError) -> XPathNodeExpression {
        if current == .slash {
            index += 1
            guard let next = current, Self.startsStep(next) else { return .path(start: nil, absolute: true, steps: []) }
            return .path(start: nil, absolute: true, steps: try parseRelativeSteps(afterSeparator: true))
        }
        if current == .doubleSlash {
            return .path(start: nil, absolute: true, steps: try parseRelativeSteps(afterSeparator: false))
        }
        return .path(start: nil, absolute: false, steps: try parseRelativeSteps(afterSeparator: true))
    }

    private static func startsStep(_ token: XPathToken) -> Bool {
        switch token {
        case .name, .star, .at, .dot, .dotDot, .axis: true
        case .slash, .doubleSlash, .leftBracket, .rightBracket, .leftParen, .rightParen, .comma, .pipe, .plus, .minus,
            .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .operatorName, .literal, .number:
            false
        }
    }

    /// Steps separated by `/` or `//`; `afterSeparator`: a step comes first, else a separator.
    private mutating func parseRelativeSteps(afterSeparator: Bool) throws(XPathError) -> [XPathStep] {
        var steps: [XPathStep] = []
        var needStep = afterSeparator
        while true {
            if needStep {
                steps.append(try parseStep())
                needStep = false
            } else if current == .slash {
                index += 1
                needStep = true
            } else if current == .doubleSlash {
                index += 1
                steps.append(XPathStep(axis: .descendantOrSelf, test: .node, predicates: []))
                needStep = true
            } else {
                return steps
            }
        }
    }

    private mutating func parseStep() throws(XPathError) -> XPathStep {
        switch current {
        case .dot?:
            index += 1
            return XPathStep(axis: .self, test: .node, predicates: [])
        case .dotDot?:
            index += 1
            return XPathStep(axis: .parent, test: .node, predicates: [])
        case .slash?, .doubleSlash?, .leftBracket?, .rightBracket?, .leftParen?, .rightParen?, .at?, .comma?, .pipe?,
            .star?, .plus?, .minus?, .equal?, .notEqual?, .less?, .lessOrEqual?, .greater?, .greaterOrEqual?,
            .operatorName?, .name?, .axis?, .literal?, .number?, nil:
            break
        }
        var axis = XPathAxis.child
        if current == .at {
            index += 1
            axis = .attribute
        } else if case .axis(let name)? = current {
            guard let named = XPathAxis(rawValue: name), named != .namespace else {
                throw XPathError("unknown or unsupported axis '\(name)::'")
            }
            axis = named
            index += 1
        }
        let test = try parseNodeTest()
        var predicates: [XPathNodeExpression] = []
        while current == .leftBracket { predicates.append(try parsePredicate()) }
        return XPathStep(axis: axis, test: test, predicates: predicates)
    }

    private mutating func parseNodeTest() throws(XPathError) -> XPathNodeTest {
        switch current {
        case .star?:
            index += 1
            return .anyName
        case .name(let name)?:
            index += 1
            if current == .leftParen, ["node", "text", "comment", "processing-instruction"].contains(name) {
                index += 1
                var target: String? = nil
                if name == "processing-instruction", case .literal(let literal)? = current {
                    target = literal
                    index += 1
                }
                try expect(.rightParen)
                switch name {
                case "node": return .node
                case "text": return .text
                case "comment": return .comment
                default: return .processingInstruction(target)
                }
            }
            guard let colon = name.firstIndex(of: ":") else {
                return .name(qualified: name, local: name, uri: nil)
            }
            let prefix = String(name[..<colon])
            let local = String(name[name.index(after: colon)...])
            guard let uri = namespaces[prefix] else {
                if lenientPrefixes {
                    return .name(qualified: name, local: local, uri: XPathExpression.unresolvedPrefix)
                }
                let hint = namespaces.isEmpty ? "no xPathNamespaces are given" : "it is not in xPathNamespaces"
                throw XPathError("namespace prefix '\(prefix)' of '\(name)' is not declared: \(hint)")
            }
            return local == "*" ? .anyInNamespace(uri) : .name(qualified: name, local: local, uri: uri)
        case .slash?, .doubleSlash?, .leftBracket?, .rightBracket?, .leftParen?, .rightParen?, .at?, .dot?, .dotDot?,
            .comma?, .pipe?, .plus?, .minus?, .equal?, .notEqual?, .less?, .lessOrEqual?, .greater?, .greaterOrEqual?,
            .operatorName?, .axis?, .literal?, .number?, nil:
            throw XPathError("expected a step (a name, '*', '@', '.' or '..'), found \(describeCurrent())")
        }
    }
}
