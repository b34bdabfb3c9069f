extension RegexParser {
    /// A character class after its `[`, as Java's `Pattern.clazz` reads it: nested classes are unions,
    /// `&&` intersects everything before it with what follows, `^` right after `[` negates the whole
    /// class, and `]` first in a class is a literal. With `consume == false` (the right side of
    /// `abc&&def`) it stops before the `]`.
    package mutating func parseClass(consume: Bool) throws(RegexSyntaxError) -> RegexCharSet {
        try enterNesting()
        defer { depth -= 1 }
        let open = i - 1
        var negated = false
        if consume, i < p.count, p[i] == 0x5E {  // '^'
            negated = true
            i += 1
        }
        var acc: RegexCharSet?
        while true {
            skipIgnorable()
            guard i < p.count else { throw error("Unclosed character class", at: Swift.max(open, p.count - 1)) }
            let c = p[i]
            if c == 0x5B {  // '[': a nested class, united
                i += 1
                acc = Self.union(acc, try parseClass(consume: true))
                continue
            }
            if c == 0x26, i + 1 < p.count, p[i + 1] == 0x26 {  // "&&"
                i += 2
                var right: RegexCharSet?
                skipIgnorable()
                while i < p.count, p[i] != 0x5D, p[i] != 0x26 {
                    if p[i] == 0x5B {
                        i += 1
                        right = Self.union(right, try parseClass(consume: true))
                    } else {
                        right = try parseClass(consume: false)
                    }
                    skipIgnorable()
                }
                if let right {
                    acc = acc.map { .intersection($0, right) } ?? right
                } else if acc == nil {
                    throw error("Bad class syntax")
                }
                continue
            }
            if c == 0x5D, let set = acc {  // ']' closes a class that has something in it
                if consume { i += 1 }
                return negated ? .negated(set) : set
            }
            acc = Self.union(acc, try parseClassElement())
        }
    }

    private static func union(_ a: RegexCharSet?, _ b: RegexCharSet) -> RegexCharSet {
        guard let a else { return b }
        if case var .union(items) = a {
            items.append(b)
            return .union(items)
        }
        return .union([a, b])
    }

    /// One character, a range `a-z`, an escape (`\d`, `\x41`) or a property (`\p{L}`).
    private mutating func parseClassElement() throws(RegexSyntaxError) -> RegexCharSet {
        let start: UInt32
        if p[i] == 0x5C {
            switch try parseEscape(inClass: true) {
            case let .set(set): return set
            case let .scalar(c): start = c
            case .node: throw error("Illegal/unsupported escape sequence")
            }
        } else {
            start = p[i]
            i += 1
        }
        guard i + 1 < p.count, p[i] == 0x2D, p[i + 1] != 0x5D, p[i + 1] != 0x5B else { return folded(start...start) }
        i += 1  // '-'
        let end: UInt32
        if p[i] == 0x5C {
            guard case let .scalar(c) = try parseEscape(inClass: true) else { throw error("Illegal character range") }
            end = c
        } else {
            end = p[i]
            i += 1
        }
        guard end >= start else { throw error("Illegal character range", at: i - 1) }
        return folded(start...end)
    }

    /// A literal range, widened to both cases under `(?i)`.
    private func folded(_ range: ClosedRange<UInt32>) -> RegexCharSet {
        switch literalCaseMode {
        case .exact: .ranges([range])
        case .ascii: .caseFolded(.ranges([range]), unicode: false)
        case .unicode: .caseFolded(.ranges([range]), unicode: true)
        }
    }
}
