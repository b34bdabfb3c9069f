/// Reads a pattern with `java.util.regex.Pattern`'s grammar into a ``RegexNode``.
///
/// The parser follows Java's where engines differ: `{` not starting a valid repetition is an error
/// (`Illegal repetition`), `]` and `}` outside a class are literals, inline flags such as `(?i)` hold to
/// the end of the enclosing group (across `|`), `(?i)` folds ASCII letters only unless `u` is also set,
/// and `\Q…\E` quotes before anything else is read.
package struct RegexParser {
    /// The pattern as written, for error messages.
    package let pattern: String
    /// The pattern's scalars after `\Q…\E` has been replaced by escapes.
    package var p: [UInt32]
    package var i = 0
    package var flags: RegexFlags
    /// Capturing groups opened so far.
    package var groupCount = 0
    package var groupNames: [String: Int] = [:]
    /// The highest group a back reference names (it may exceed ``groupCount``: it then never matches).
    package var highestReference = 0
    /// Groups and classes open around `i`: parsing recurses into them, so their depth is bounded.
    package var depth = 0
    /// The deepest nesting of groups and classes a pattern may have (a stub is read on threads with small
    /// stacks; Java itself overflows its stack on deep nesting).
    package static let maxDepth = 50

    package init(_ pattern: String, flags: RegexFlags) {
        self.pattern = pattern
        self.flags = flags
        p = Self.removingQuotes(pattern.unicodeScalars.map(\.value))
    }

    /// The whole pattern.
    package mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        let node = try parseAlternation()
        if i < p.count { throw error("Unmatched closing ')'") }
        return node
    }

    package func error(_ reason: String, at position: Int? = nil) -> RegexSyntaxError {
        RegexSyntaxError(pattern: pattern, position: min(position ?? i, p.count), reason: reason)
    }

    package var literalCaseMode: RegexCaseMode {
        guard flags.contains(.caseInsensitive) else { return .exact }
        return flags.contains(.unicodeCase) ? .unicode : .ascii
    }

    /// Skips whitespace and `#` comments under `(?x)`.
    package mutating func skipIgnorable() {
        guard flags.contains(.comments) else { return }
        while i < p.count {
            let c = p[i]
            if c == 0x20 || (0x09...0x0D).contains(c) {
                i += 1
            } else if c == 0x23 {  // '#': to the end of the line
                while i < p.count, !Self.isLineTerminator(p[i]) { i += 1 }
            } else {
                return
            }
        }
    }

    /// Enters a group or class; throws when they nest deeper than ``maxDepth``.
    package mutating func enterNesting() throws(RegexSyntaxError) {
        depth += 1
        if depth > Self.maxDepth { throw error("Groups and classes nest more than \(Self.maxDepth) deep") }
    }

    package static func isLineTerminator(_ c: UInt32) -> Bool {
        c == 0x0A || c == 0x0D || c == 0x85 || c == 0x2028 || c == 0x2029
    }

    package mutating func parseAlternation() throws(RegexSyntaxError) -> RegexNode {
        var branches = [try parseSequence()]
        while i < p.count, p[i] == 0x7C {  // '|'
            i += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseSequence() throws(RegexSyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while true {
            skipIgnorable()
            guard i < p.count else { break }
            let c = p[i]
            let atom: RegexNode
            switch c {
            case 0x7C, 0x29:  // '|', ')'
                return items.count == 1 ? items[0] : .sequence(items)
            case 0x28:  // '('
                i += 1
                guard let group = try parseGroup() else { continue }
                atom = group
            case 0x5B:  // '['
                i += 1
                atom = .set(try parseClass(consume: true))
            case 0x5C:  // '\'
                atom = try parseEscapeNode()
            case 0x5E:  // '^'
                i += 1
                atom = .assertion(
                    flags.contains(.multiline) ? .lineStart(unixLines: flags.contains(.unixLines)) : .start)
            case 0x24:  // '$'
                i += 1
                let unix = flags.contains(.unixLines)
                atom = .assertion(
                    flags.contains(.multiline) ? .lineEnd(unixLines: unix) : .endBeforeFinalTerminator(unixLines: unix))
            case 0x2E:  // '.'
                i += 1
                atom = .any(
                    flags.contains(.dotAll) ? .all : flags.contains(.unixLines) ? .notNewline : .notLineTerminator)
            case 0x2A, 0x2B, 0x3F:  // '*', '+', '?'
                throw error("Dangling meta character '\(Character(Unicode.Scalar(UInt8(c))))'")
            case 0x7B:  // '{' with nothing before it: a repetition of the empty string, or an error
                atom = .empty
            default:
                i += 1
                atom = .scalar(c, literalCaseMode)
            }
            items.append(try parseQuantifier(atom))
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// `atom` followed by `?`, `*`, `+` or `{n,m}`, each optionally lazy (`?`) or possessive (`+`).
    private mutating func parseQuantifier(_ atom: RegexNode) throws(RegexSyntaxError) -> RegexNode {
        skipIgnorable()
        guard i < p.count else { return atom }
        let min: Int, max: Int?
        switch p[i] {
        case 0x3F: (min, max) = (0, 1)
        case 0x2A: (min, max) = (0, nil)
        case 0x2B: (min, max) = (1, nil)
        case 0x7B: (min, max) = try parseCountedRepetition()
        default: return atom
        }
        i += 1
        var kind = RegexQuantifierKind.greedy
        if i < p.count, p[i] == 0x3F {
            kind = .lazy
            i += 1
        } else if i < p.count, p[i] == 0x2B {
            kind = .possessive
            i += 1
        }
        return .quantified(atom, min: min, max: max, kind)
    }

    /// `{n}`, `{n,}`, `{n,m}`; leaves `i` on the closing `}`.
    private mutating func parseCountedRepetition() throws(RegexSyntaxError) -> (Int, Int?) {
        guard i + 1 < p.count, Self.isDigit(p[i + 1]) else { throw error("Illegal repetition") }
        i += 1
        let min = try number()
        var max: Int? = min
        if i < p.count, p[i] == 0x2C {  // ','
            i += 1
            max = i < p.count && Self.isDigit(p[i]) ? try number() : nil
        }
        guard i < p.count, p[i] == 0x7D else { throw error("Unclosed counted closure") }
        if let max, max < min { throw error("Illegal repetition range") }
        return (min, max)
    }

    private mutating func number() throws(RegexSyntaxError) -> Int {
        var value = 0
        while i < p.count, Self.isDigit(p[i]) {
            value = value * 10 + Int(p[i] - 0x30)
            if value > Int(Int32.max) { throw error("Illegal repetition range") }
            i += 1
        }
        return value
    }

    package static func isDigit(_ c: UInt32) -> Bool { (0x30...0x39).contains(c) }
    package static func isASCIILetter(_ c: UInt32) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }

    /// Java's first pass: `\Q…\E` becomes the same text with every character but ASCII letters and digits
    /// escaped, so `\Qa.b\E*` repeats only the `b`.
    package static func removingQuotes(_ s: [UInt32]) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(s.count)
        var k = 0
        while k < s.count {
            if s[k] == 0x5C, k + 1 < s.count {
                if s[k + 1] != 0x51 {  // not 'Q'
                    out.append(s[k])
                    out.append(s[k + 1])
                    k += 2
                    continue
                }
                k += 2
                while k < s.count, !(s[k] == 0x5C && k + 1 < s.count && s[k + 1] == 0x45) {
                    if !(isASCIILetter(s[k]) || isDigit(s[k])) { out.append(0x5C) }
                    out.append(s[k])
                    k += 1
                }
                k += 2  // past "\E"
                continue
            }
            out.append(s[k])
            k += 1
        }
        return out
    }
}

/// Java's `Pattern` flags that inline modifiers may set.
package struct RegexFlags: OptionSet, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let caseInsensitive = RegexFlags(rawValue: 1)
    package static let multiline = RegexFlags(rawValue: 2)
    package static let dotAll = RegexFlags(rawValue: 4)
    package static let unixLines = RegexFlags(rawValue: 8)
    package static let unicodeCase = RegexFlags(rawValue: 16)
    package static let comments = RegexFlags(rawValue: 32)
}
