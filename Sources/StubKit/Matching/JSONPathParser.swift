/// A recursive-descent parser for ``JSONPathExpression`` expressions.
struct JSONPathParser {
    private let expression: String
    private let chars: [Character]
    private var position = 0

    init(_ expression: String) {
        self.expression = expression
        chars = Array(expression)
    }

    /// `$...` (or `@...` when `relative`) up to the end, or, inside a filter, up to the first character
    /// that cannot continue a path.
    mutating func parsePath(relative: Bool) throws(JSONPathError) -> [JSONPathExpression.Step] {
        skipSpaces()
        let start: Character = relative ? "@" : "$"
        guard peek == start else { throw error("expected '\(start)'") }
        position += 1
        var steps: [JSONPathExpression.Step] = []
        while let c = peek {
            if c == "." {
                if peek(1) == "." {
                    position += 2
                    if peek == "[" { steps.append(.deepScan(try parseBracket())) } else { steps.append(.deepScan(try parseDotted())) }
                } else {
                    position += 1
                    steps.append(try parseDotted())
                }
            } else if c == "[" {
                steps.append(try parseBracket())
            } else if relative {
                break
            } else {
                throw error("unexpected '\(c)'")
            }
        }
        if !relative, position < chars.count { throw error("unexpected text") }
        return steps
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
        guard peek == c else { throw error("expected '\(c)'") }
        position += 1
    }

    /// After `.`: `name`, `*`, `length()`.
    private mutating func parseDotted() throws(JSONPathError) -> JSONPathExpression.Step {
        if peek == "*" { position += 1; return .wildcard }
        let begin = position
        while let c = peek, c != ".", c != "[", c != " ", c != ")", c != "=", c != "!", c != "<", c != ">", c != "&", c != "|", c != "(" {
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

    /// `[...]`: names, indexes, slices, `*`, filters.
    private mutating func parseBracket() throws(JSONPathError) -> JSONPathExpression.Step {
        try expect("[")
        skipSpaces()
        let step: JSONPathExpression.Step
        if peek == "*" {
            position += 1
            step = .wildcard
        } else if peek == "?" {
            position += 1
            try expect("(")
            let filter = try parseOr()
            try expect(")")
            step = .filter(filter)
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
        try expect("]")
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

    private mutating func parseOr() throws(JSONPathError) -> JSONPathFilter {
        var lhs = try parseAnd()
        while true {
            skipSpaces()
            guard peek == "|", peek(1) == "|" else { return lhs }
            position += 2
            lhs = .or(lhs, try parseAnd())
        }
    }

    private mutating func parseAnd() throws(JSONPathError) -> JSONPathFilter {
        var lhs = try parseUnary()
        while true {
            skipSpaces()
            guard peek == "&", peek(1) == "&" else { return lhs }
            position += 2
            lhs = .and(lhs, try parseUnary())
        }
    }

    private mutating func parseUnary() throws(JSONPathError) -> JSONPathFilter {
        skipSpaces()
        if peek == "!", peek(1) != "=" {
            position += 1
            return .not(try parseUnary())
        }
        if peek == "(" {
            position += 1
            let inner = try parseOr()
            try expect(")")
            return inner
        }
        let lhs = try parseOperand()
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
        case "@": return .current(try parsePath(relative: true))
        case "$":
            // A root path inside a filter: parse it as a relative path that starts with '$'.
            position += 1
            var sub = JSONPathParser("@" + String(chars[position...]))
            let steps = try sub.parsePath(relative: true)
            position += sub.position - 1
            return .root(steps)
        case "'", "\"": return .literal(.string(try parseQuoted()))
        default:
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] where matchesAhead(word) {
                position += word.count
                return .literal(value)
            }
            let begin = position
            while let c = peek, c.isASCII, c.isNumber || c == "-" || c == "+" || c == "." || c == "e" || c == "E" { position += 1 }
            let text = String(chars[begin..<position])
            guard !text.isEmpty, Double(text) != nil else { throw error("expected a value") }
            return .literal(.number(text))
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
