/// Parses a GraphQL executable document (operations and fragments; no type system definitions).
///
/// Recursive descent with a depth bound: selection sets, values and list types nest at most
/// ``maxDepth`` levels, so a hostile document cannot exhaust the stack; at most ``maxTokens`` tokens are read, and
/// the lexer bounds the size.
struct GraphQLParser {
    /// The deepest nesting of selection sets, values and types read.
    static let maxDepth = 64
    /// The most tokens read: far above real operations (Apollo's largest run to a few thousand).
    static let maxTokens = 100_000
    private var tokenCount = 0
    private var lexer: GraphQLLexer
    private var token: GraphQLToken = .end
    private var tokenOffset = 0
    private var depth = 0

    /// Parses `text`; a document without an operation is an error.
    static func parse(_ text: String) throws(GraphQLSyntaxError) -> GraphQLDocument {
        var parser = try GraphQLParser(text)
        return try parser.document()
    }

    private init(_ text: String) throws(GraphQLSyntaxError) {
        lexer = try GraphQLLexer(text)
        try advance()
    }

    private mutating func advance() throws(GraphQLSyntaxError) {
        (token, tokenOffset) = try lexer.next()
        tokenCount += 1
        guard tokenCount <= Self.maxTokens else {
            throw GraphQLSyntaxError(
                message: "the document has more than \(Self.maxTokens) tokens", offset: tokenOffset)
        }
    }

    private func error(_ expected: String) -> GraphQLSyntaxError {
        GraphQLSyntaxError(message: "expected \(expected), found \(token.description)", offset: tokenOffset)
    }

    private func isPunctuator(_ character: Unicode.Scalar) -> Bool {
        token == .punctuator(UInt8(ascii: character))
    }

    private mutating func skip(_ character: Unicode.Scalar) throws(GraphQLSyntaxError) -> Bool {
        guard isPunctuator(character) else { return false }
        try advance()
        return true
    }

    private mutating func expect(_ character: Unicode.Scalar) throws(GraphQLSyntaxError) {
        guard try skip(character) else { throw error(character == "." ? "'...'" : "'\(character)'") }
    }

    private mutating func name(_ what: String = "a name") throws(GraphQLSyntaxError) -> String {
        guard case .name(let name) = token else { throw error(what) }
        try advance()
        return name
    }

    private mutating func enter() throws(GraphQLSyntaxError) {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw GraphQLSyntaxError(
                message: "nested more than \(Self.maxDepth) levels deep", offset: tokenOffset)
        }
    }

    private mutating func document() throws(GraphQLSyntaxError) -> GraphQLDocument {
        var document = GraphQLDocument()
        repeat {
            if isPunctuator("{") {
                document.operations.append(
                    .init(kind: "query", name: nil, variables: [], directives: [], selections: try selectionSet()))
                continue
            }
            guard case .name(let keyword) = token else { throw error("an operation or fragment definition") }
            switch keyword {
            case "query", "mutation", "subscription": document.operations.append(try operation())
            case "fragment": document.fragments.append(try fragment())
            default: throw error("'query', 'mutation', 'subscription', 'fragment' or '{'")
            }
        } while token != .end
        guard !document.operations.isEmpty else {
            throw GraphQLSyntaxError(message: "expected an operation, found only fragments", offset: 0)
        }
        return document
    }

    private mutating func operation() throws(GraphQLSyntaxError) -> GraphQLDocument.Operation {
        let kind = try name()
        var operationName: String?
        if case .name = token { operationName = try name() }
        var variables: [GraphQLDocument.VariableDefinition] = []
        if try skip("(") {
            repeat {
                try expect("$")
                let variable = try name("a variable name")
                try expect(":")
                let type = try typeReference()
                let defaultValue = try skip("=") ? try value(constant: true) : nil
                variables.append(
                    .init(name: variable, type: type, defaultValue: defaultValue, directives: try directives()))
            } while !(try skip(")"))
        }
        let directives = try directives()
        return .init(
            kind: kind, name: operationName, variables: variables, directives: directives,
            selections: try selectionSet())
    }

    private mutating func fragment() throws(GraphQLSyntaxError) -> GraphQLDocument.Fragment {
        try advance()
        let fragmentName = try name("a fragment name")
        guard fragmentName != "on" else { throw error("a fragment name other than 'on'") }
        guard try name("'on'") == "on" else { throw error("'on'") }
        let typeCondition = try name("a type name")
        let directives = try directives()
        return .init(
            name: fragmentName, typeCondition: typeCondition, directives: directives, selections: try selectionSet())
    }

    private mutating func typeReference() throws(GraphQLSyntaxError) -> String {
        var text: String
        if try skip("[") {
            try enter()
            text = "[" + (try typeReference()) + "]"
            depth -= 1
            try expect("]")
        } else {
            text = try name("a type")
        }
        if try skip("!") { text += "!" }
        return text
    }

    private mutating func directives() throws(GraphQLSyntaxError) -> [GraphQLDocument.Directive] {
        var result: [GraphQLDocument.Directive] = []
        while try skip("@") {
            result.append(.init(name: try name("a directive name"), arguments: try arguments()))
        }
        return result
    }

    private mutating func arguments() throws(GraphQLSyntaxError) -> [GraphQLDocument.Argument] {
        guard try skip("(") else { return [] }
        var result: [GraphQLDocument.Argument] = []
        repeat {
            let argument = try name("an argument name")
            try expect(":")
            result.append(.init(name: argument, value: try value(constant: false)))
        } while !(try skip(")"))
        return result
    }

    private mutating func selectionSet() throws(GraphQLSyntaxError) -> [GraphQLDocument.Selection] {
        try expect("{")
        try enter()
        var result: [GraphQLDocument.Selection] = []
        repeat {
            result.append(try selection())
        } while !(try skip("}"))
        depth -= 1
        return result
    }

    private mutating func selection() throws(GraphQLSyntaxError) -> GraphQLDocument.Selection {
        if try skip(".") {
            if case .name(let word) = token, word != "on" {
                try advance()
                return .fragmentSpread(name: word, directives: try directives())
            }
            var typeCondition: String?
            if case .name = token {
                try advance()
                typeCondition = try name("a type name")
            }
            let directives = try directives()
            return .inlineFragment(typeCondition: typeCondition, directives: directives, selections: try selectionSet())
        }
        var fieldName = try name("a field, '...' or '}'")
        var alias: String?
        if try skip(":") {
            alias = fieldName
            fieldName = try name("a field name")
        }
        let arguments = try arguments()
        let directives = try directives()
        let selections = isPunctuator("{") ? try selectionSet() : []
        return .field(
            .init(alias: alias, name: fieldName, arguments: arguments, directives: directives, selections: selections))
    }

    private mutating func value(constant: Bool) throws(GraphQLSyntaxError) -> GraphQLDocument.Value {
        let current = token
        switch current {
        case .punctuator(UInt8(ascii: "$")) where !constant:
            try advance()
            return .variable(try name("a variable name"))
        case .punctuator(UInt8(ascii: "[")):
            try advance()
            try enter()
            var items: [GraphQLDocument.Value] = []
            while !(try skip("]")) { items.append(try value(constant: constant)) }
            depth -= 1
            return .list(items)
        case .punctuator(UInt8(ascii: "{")):
            try advance()
            try enter()
            var fields: [GraphQLDocument.Argument] = []
            while !(try skip("}")) {
                let field = try name("an object field name or '}'")
                try expect(":")
                fields.append(.init(name: field, value: try value(constant: constant)))
            }
            depth -= 1
            return .object(fields)
        case .int(let text):
            try advance()
            return .int(text)
        case .float(let text):
            try advance()
            return .float(text)
        case .string(let text):
            try advance()
            return .string(text)
        case .name(let word):
            try advance()
            switch word {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            case "null": return .null
            default: return .enumValue(word)
            }
        case .punctuator, .end:
            throw error(constant ? "a constant value" : "a value")
        }
    }
}
