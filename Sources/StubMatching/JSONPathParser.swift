import StubModel

/// A recursive-descent parser for ``JSONPathExpression`` expressions.
///
/// Parsing recurses once per `!`, `(` and nested `[?(`, and so does evaluating and releasing what it
/// builds: their depth is bounded by ``maxDepth`` (and the expression's size by ``maxLength``), so a hostile
/// expression from a stub file, the admin API or a request is a syntax error, not a stack overflow on a
/// 512 KiB stack. `&&` and `||` chains are flat lists, not nesting.
struct JSONPathParser {
    /// How deep `!`, `(` and filters `[?(` may nest, together (each one is a level). A level costs the
    /// parser about 8 KiB of stack in a debug build, and evaluating it a few KiB more.
    static let maxDepth = 16
    /// The longest expression accepted, in UTF-8 bytes (16 KiB): far past any real one, and what keeps
    /// its parsed form and the cost of evaluating it per request small.
    static let maxLength = 16 * 1024

    private let expression: String
    private let chars: [Character]
    private var position = 0
    /// `!`, `(` and `[?(` open around `position`.
    private var depth = 0

    /// - Throws: ``JSONPathError`` when `expression` is longer than ``maxLength``.
    init(_ expression: String) throws(JSONPathError) {
        guard expression.utf8.count <= Self.maxLength else {
            throw JSONPathError(
                expression: expression, offset: 0,
                message: "longer than \(Self.maxLength) bytes (\(expression.utf8.count))", exceedsLimit: true)
        }
        self.expression = expression
        chars = Array(expression)
    }

    /// The whole expression: `$...` up to the end.
    mutating func parseExpression() throws(JSONPathError) -> [JSONPathExpression.Step] {
        skipSpaces()
        var steps: [JSONPathExpression.Step]
        if let first = peek, first != "$", first != "@" {
            // Jayway reads a path that starts with neither `$` nor `@` as `$.` and the path: `a.b`, `[?(@.a)]`.
            steps = [first == "[" ? try parseBracket() : try parseDotted()]
            steps += try parseSteps(inFilter: false)
        } else {
            steps = try parsePath(from: "$", inFilter: false)
        }
        if position < chars.count { throw error("unexpected text") }
        return steps
    }

    /// `$...` or `@...` (`start`). Inside a filter it ends at the first character that cannot continue a
    /// path; outside, at the first it does not understand.
    private mutating func parsePath(from start: Character, inFilter: Bool) throws(JSONPathError) -> [JSONPathExpression
        .Step]
    {
        skipSpaces()
        guard peek == start else { throw expected(start) }
        position += 1
        return try parseSteps(inFilter: inFilter)
    }

    /// The steps after `$`, `@` or a first step: `.a`, `..a`, `[…]`, in turn.
    private mutating func parseSteps(inFilter: Bool) throws(JSONPathError) -> [JSONPathExpression.Step] {
        var steps: [JSONPathExpression.Step] = []
        while let c = peek {
            if c == "." {
                if peek(1) == "." {
                    position += 2
                    if peek == "[" {
                        steps.append(.deepScan(try parseBracket()))
                    } else {
                        steps.append(.deepScan(try parseDotted()))
                    }
                } else {
                    position += 1
                    // Jayway reads `$.[0]` and `$.['a']` as `$[0]` and `$['a']`.
                    steps.append(peek == "[" ? try parseBracket() : try parseDotted())
                }
            } else if c == "[" {
                steps.append(try parseBracket())
            } else if inFilter {
                break
            } else {
                throw unexpected(c)
            }
        }
        return steps
    }

    /// Enters one more level of `!`, `(` or `[?(`.
    /// - Throws: when that is deeper than ``maxDepth``.
    private mutating func enter() throws(JSONPathError) {
        depth += 1
        if depth > Self.maxDepth {
            throw JSONPathError(
                expression: expression, offset: position,
                message: "filters nested deeper than \(Self.maxDepth) (each '!', '(' and '[?(' counts as one level)",
                exceedsLimit: true)
        }
    }

    private var peek: Character? { position < chars.count ? chars[position] : nil }
    private func peek(_ offset: Int) -> Character? { position + offset < chars.count ? chars[position + offset] : nil }

    private func error(_ message: String) -> JSONPathError {
        JSONPathError(expression: expression, offset: position, message: message)
    }

    private mutating func skipSpaces() {
        while let c = peek, c == " " || c == "\t" { position += 1 }
    }

    private mutating func expect(_ c: Character) throws(JSONPathError) {
        skipSpaces()
        guard peek == c else { throw expected(c) }
        position += 1
    }

    private func expected(_ c: Character) -> JSONPathError { error("expected '\(c)'") }

    private func unexpected(_ c: Character) -> JSONPathError { error("unexpected '\(c)'") }

    /// After `.`: `name`, `*`, `length()`.
    private mutating func parseDotted() throws(JSONPathError) -> JSONPathExpression.Step {
        if peek == "*" { position += 1; return .wildcard }
        let begin = position
        while let c = peek, c != ".", c != "[", c != " ", c != ")", c != "=", c != "!", c != "<", c != ">", c != "&",
            c != "|", c != "("
        {
            position += 1
        }
        let name = String(chars[begin..<position])
        guard !name.isEmpty else { throw error("expected a member name") }
        if peek == "(", peek(1) == ")", name == "length" || name == "size" {
            position += 2
            return .length
        }
        return .member(name)
    }

    // The functions a nested filter recurses through (parseBracket, parseFilter, parseOr, parseAnd,
    // parseUnary, parsePredicate, parseOperand, parsePath) keep little on the stack; what does not
    // recurse (selectors, literals) is parsed in functions of its own, whose frames are gone before the
    // next level starts.

    /// `[...]`: names, indexes, slices, `*`, filters.
    private mutating func parseBracket() throws(JSONPathError) -> JSONPathExpression.Step {
        try expect("[")
        skipSpaces()
        let step = peek == "?" ? JSONPathExpression.Step.filter(try parseFilter()) : try parseSelector()
        try expect("]")
        return step
    }

    /// `?(...)`, one level deeper.
    private mutating func parseFilter() throws(JSONPathError) -> JSONPathFilter {
        position += 1
        try expect("(")
        try enter()
        let filter = try parseOr()
        try expect(")")
        depth -= 1
        return filter
    }

    /// Inside `[...]`, anything but a filter: `*`, names, indexes, slices.
    private mutating func parseSelector() throws(JSONPathError) -> JSONPathExpression.Step {
        let step: JSONPathExpression.Step
        if peek == "*" {
            position += 1
            step = .wildcard
        } else if peek == "'" || peek == "\"" {
            var names = [try parseQuoted()]
            skipSpaces()
            while peek == "," {
                position += 1
                skipSpaces()
                names.append(try parseQuoted())
                skipSpaces()
            }
            step = names.count == 1 ? .member(names[0]) : .members(names)
        } else {
            let first = parseInt()
            skipSpaces()
            if peek == ":" {
                position += 1
                skipSpaces()
                step = .slice(start: first, end: parseInt())
            } else {
                guard let first else { throw error("expected an index, a quoted name, '*' or '?('") }
                var list = [first]
                while peek == "," {
                    position += 1
                    skipSpaces()
                    guard let next = parseInt() else { throw error("expected an index") }
                    list.append(next)
                    skipSpaces()
                }
                step = list.count == 1 ? .index(first) : .indexes(list)
            }
        }
        return step
    }

    private mutating func parseInt() -> Int? {
        let begin = position
        if peek == "-" { position += 1 }
        while let c = peek, c.isASCII, c.isNumber { position += 1 }
        guard let value = Int(String(chars[begin..<position])) else { position = begin; return nil }
        return value
    }

    private mutating func parseQuoted() throws(JSONPathError) -> String {
        guard let quote = peek, quote == "'" || quote == "\"" else { throw error("expected a quoted name") }
        position += 1
        var out = ""
        while let c = peek, c != quote {
            if c == "\\", let next = peek(1) { out.append(next); position += 2; continue }
            out.append(c)
            position += 1
        }
        guard peek == quote else { throw error("unterminated string") }
        position += 1
        return out
    }

    // MARK: Filters

    /// `a || b || …`, one flat list however long.
    private mutating func parseOr() throws(JSONPathError) -> JSONPathFilter {
        var terms = [try parseAnd()]
        while true {
            skipSpaces()
            guard peek == "|", peek(1) == "|" else { return terms.count == 1 ? terms[0] : .any(terms) }
            position += 2
            terms.append(try parseAnd())
        }
    }

    /// `a && b && …`, one flat list however long.
    private mutating func parseAnd() throws(JSONPathError) -> JSONPathFilter {
        var terms = [try parseUnary()]
        while true {
            skipSpaces()
            guard peek == "&", peek(1) == "&" else { return terms.count == 1 ? terms[0] : .all(terms) }
            position += 2
            terms.append(try parseUnary())
        }
    }

    private mutating func parseUnary() throws(JSONPathError) -> JSONPathFilter {
        skipSpaces()
        if peek == "!", peek(1) != "=" {
            try enter()
            position += 1
            let inner = try parseUnary()
            depth -= 1
            return .not(inner)
        }
        if peek == "(" {
            try enter()
            position += 1
            let inner = try parseOr()
            try expect(")")
            depth -= 1
            return inner
        }
        return try parsePredicate(try parseOperand())
    }

    /// After the left operand: `=~ /regex/`, a comparison and the right operand, or nothing (existence).
    private mutating func parsePredicate(_ lhs: JSONPathFilter.Operand) throws(JSONPathError) -> JSONPathFilter {
        skipSpaces()
        if peek == "=", peek(1) == "~" {
            position += 2
            skipSpaces()
            return .regex(lhs, try parseRegexLiteral())
        }
        guard let op = parseComparison() else {
            guard case .literal = lhs else { return .exists(lhs) }
            throw error("expected a comparison operator")
        }
        return .compare(lhs, op, try parseOperand())
    }

    private mutating func parseComparison() -> JSONPathFilter.Comparison? {
        for op in ["==", "!=", "<=", ">=", "<", ">"] where matchesAhead(op) {
            position += op.count
            return JSONPathFilter.Comparison(rawValue: op)
        }
        return nil
    }

    private func matchesAhead(_ text: String) -> Bool {
        for (i, c) in text.enumerated() where peek(i) != c { return false }
        return true
    }

    private mutating func parseOperand() throws(JSONPathError) -> JSONPathFilter.Operand {
        skipSpaces()
        switch peek {
        case "@": return .current(try parsePath(from: "@", inFilter: true))
        case "$": return .root(try parsePath(from: "$", inFilter: true))
        default: return .literal(try parseLiteral())
        }
    }

    /// A string, `true`, `false`, `null` or a number.
    private mutating func parseLiteral() throws(JSONPathError) -> JSONValue {
        switch peek {
        case "'", "\"": return .string(try parseQuoted())
        default:
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
            where matchesAhead(word) {
                position += word.count
                return value
            }
            let begin = position
            while let c = peek, c.isASCII, c.isNumber || c == "-" || c == "+" || c == "." || c == "e" || c == "E" {
                position += 1
            }
            let text = String(chars[begin..<position])
            guard !text.isEmpty, Double(text) != nil else { throw error("expected a value") }
            return .number(text)
        }
    }

    private mutating func parseRegexLiteral() throws(JSONPathError) -> CompiledRegex {
        guard peek == "/" else { throw error("expected '/regex/'") }
        position += 1
        var pattern = ""
        while let c = peek, c != "/" {
            if c == "\\", peek(1) == "/" { pattern.append("/"); position += 2; continue }
            pattern.append(c)
            position += 1
        }
        guard peek == "/" else { throw error("unterminated regular expression") }
        position += 1
        var flags = ""
        while let c = peek, c == "i" || c == "m" || c == "s" || c == "x" { flags.append(c); position += 1 }
        let regex = CompiledRegex(flags.isEmpty ? pattern : "(?\(flags))" + pattern)
        if regex.compileError != nil { throw error("invalid regular expression /\(pattern)/") }
        return regex
    }
}
