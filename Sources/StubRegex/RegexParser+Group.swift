extension RegexParser {
    /// A group after its `(`; `nil` for a flags-only group such as `(?i)`, whose flags hold until the end
    /// of the enclosing group.
    package mutating func parseGroup() throws(RegexSyntaxError) -> RegexNode? {
        try enterNesting()
        defer { depth -= 1 }
        let saved = flags
        let open = i - 1
        guard i < p.count, p[i] == 0x3F else {  // '(' without '?': a capturing group
            groupCount += 1
            let index = groupCount
            let body = try groupBody(open: open, restoring: saved)
            return .group(body, capture: index)
        }
        i += 1
        guard i < p.count else { throw error("Unknown inline modifier") }
        let kind = p[i]
        switch kind {
        case 0x3A:  // ':'
            i += 1
            return .group(try groupBody(open: open, restoring: saved), capture: nil)
        case 0x3D, 0x21:  // '=', '!'
            i += 1
            return .look(try groupBody(open: open, restoring: saved), RegexLook(behind: false, negative: kind == 0x21))
        case 0x3E:  // '>'
            i += 1
            return .atomic(try groupBody(open: open, restoring: saved))
        case 0x3C:  // '<'
            i += 1
            guard i < p.count else { throw error("Unknown look-behind group") }
            if p[i] == 0x3D || p[i] == 0x21 {
                let negative = p[i] == 0x21
                i += 1
                let body = try groupBody(open: open, restoring: saved)
                // Java 17 accepts an unbounded body (`(?<=a+)`) and tries every start back to the beginning.
                let (minLength, maxLength) = RegexLength.range(of: body)
                let look = RegexLook(
                    behind: true, negative: negative, minLength: minLength, maxLength: maxLength ?? Int(Int32.max))
                return .look(body, look)
            }
            let name = try groupName()
            if groupNames[name] != nil { throw error("Named capturing group <\(name)> is already defined") }
            groupCount += 1
            let index = groupCount
            groupNames[name] = index
            return .group(try groupBody(open: open, restoring: saved), capture: index)
        case 0x24, 0x40:  // '$', '@'
            throw error("Unknown group type")
        default:
            try parseFlags()
            guard i < p.count else { throw error("Unknown inline modifier") }
            if p[i] == 0x29 {  // ')': the flags apply from here on
                i += 1
                return nil
            }
            guard p[i] == 0x3A else { throw error("Unknown inline modifier") }
            i += 1
            return .group(try groupBody(open: open, restoring: saved), capture: nil)
        }
    }

    /// The alternation up to the group's `)`, after which the flags are those before the group.
    private mutating func groupBody(open: Int, restoring saved: RegexFlags) throws(RegexSyntaxError) -> RegexNode {
        let body = try parseAlternation()
        guard i < p.count, p[i] == 0x29 else { throw error("Unclosed group") }
        i += 1
        flags = saved
        return body
    }

    /// A group name `[a-zA-Z][a-zA-Z0-9]*` and its closing `>`.
    package mutating func groupName() throws(RegexSyntaxError) -> String {
        guard i < p.count, Self.isASCIILetter(p[i]) else {
            throw error("capturing group name does not start with a Latin letter")
        }
        var name = ""
        while i < p.count, Self.isASCIILetter(p[i]) || Self.isDigit(p[i]) {
            name.unicodeScalars.append(Unicode.Scalar(UInt8(p[i])))
            i += 1
        }
        guard i < p.count, p[i] == 0x3E else { throw error("named capturing group is missing trailing '>'") }
        i += 1
        return name
    }

    /// `idmsux` and `-idmsux`, as `(?i)` or `(?i-s:…)` carry them.
    private mutating func parseFlags() throws(RegexSyntaxError) {
        var on = true
        while i < p.count {
            let flag: RegexFlags
            switch p[i] {
            case 0x69: flag = .caseInsensitive  // i
            case 0x6D: flag = .multiline  // m
            case 0x73: flag = .dotAll  // s
            case 0x64: flag = .unixLines  // d
            case 0x75: flag = .unicodeCase  // u
            case 0x78: flag = .comments  // x
            case 0x2D:  // '-'
                on = false
                i += 1
                continue
            case 0x55: throw error("The inline flag (?U) (UNICODE_CHARACTER_CLASS) is not supported")
            case 0x63: throw error("The inline flag (?c) (CANON_EQ) is not supported")
            default: return
            }
            if on { flags.insert(flag) } else { flags.remove(flag) }
            i += 1
        }
    }
}

/// The shortest and longest text a node can match, in scalars (`nil`: unbounded). Lookbehind needs a
/// bounded maximum, as in Java; the compiler uses the minimum to know which loops need an empty check.
package enum RegexLength {
    package static func range(of node: RegexNode) -> (Int, Int?) {
        switch node {
        case .empty, .assertion, .look: return (0, 0)
        case .scalar, .any, .set: return (1, 1)
        case .backReference: return (0, nil)
        case let .group(body, _), let .atomic(body): return range(of: body)
        case let .sequence(items):
            var low = 0, high: Int? = 0
            for item in items {
                let (a, b) = range(of: item)
                low = saturating(low, a)
                high = high.flatMap { h in b.map { saturating(h, $0) } }
            }
            return (low, high)
        case let .alternation(branches):
            var low = Int.max, high: Int? = 0
            for branch in branches {
                let (a, b) = range(of: branch)
                low = Swift.min(low, a)
                high = high.flatMap { h in b.map { Swift.max(h, $0) } }
            }
            return (low == Int.max ? 0 : low, high)
        case let .quantified(body, min, max, _):
            let (a, b) = range(of: body)
            let low = a == 0 || min == 0 ? 0 : (a > Int(Int32.max) / min ? Int(Int32.max) : a * min)
            guard let max, let b else { return (low, b == 0 ? 0 : nil) }
            return (low, b == 0 || max == 0 ? 0 : (b > Int(Int32.max) / max ? Int(Int32.max) : b * max))
        }
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int { Swift.min(a + b, Int(Int32.max)) }
}
