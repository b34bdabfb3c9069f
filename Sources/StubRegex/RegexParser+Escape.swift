/// What a backslash escape stands for.
package enum RegexEscape {
    case scalar(UInt32)
    case set(RegexCharSet)
    /// Anything that is not a single character or class: anchors, back references, `\R`.
    case node(RegexNode)
}

extension RegexParser {
    /// An escape in a sequence, as a node.
    package mutating func parseEscapeNode() throws(RegexSyntaxError) -> RegexNode {
        switch try parseEscape(inClass: false) {
        case let .scalar(c): .scalar(c, literalCaseMode)
        case let .set(set): .set(set)
        case let .node(node): node
        }
    }

    /// The escape at `i` (on its backslash), as Java's `Pattern.escape` reads it: letters that are not
    /// escapes are errors, anything else stands for itself.
    package mutating func parseEscape(inClass: Bool) throws(RegexSyntaxError) -> RegexEscape {
        let backslash = i
        i += 1
        guard i < p.count else { throw error("Unexpected internal error (pattern ends with '\\')", at: backslash) }
        let c = p[i]
        i += 1
        guard c < 0x80, Self.isASCIILetter(c) || Self.isDigit(c) else { return .scalar(c) }
        let letter = Unicode.Scalar(UInt8(c))
        if let set = RegexPredefined.escapeClass(letter) { return .set(set) }
        let unix = flags.contains(.unixLines)
        switch letter {
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "r": return .scalar(0x0D)
        case "f": return .scalar(0x0C)
        case "a": return .scalar(0x07)
        case "e": return .scalar(0x1B)
        case "0": return .scalar(try octal())
        case "x": return .scalar(try hex())
        case "u": return .scalar(try unicodeEscape())
        case "c":
            guard i < p.count else { throw error("Illegal control escape sequence") }
            i += 1
            return .scalar(p[i - 1] ^ 64)
        case "p", "P": return .set(try property(negated: letter == "P"))
        default: break
        }
        guard !inClass else { throw error("Illegal/unsupported escape sequence", at: backslash + 1) }
        switch letter {
        case "1"..."9": return .node(backReference(first: Int(c - 0x30)))
        case "A", "G": return .node(.assertion(.start))
        case "z": return .node(.assertion(.end))
        case "Z": return .node(.assertion(.endBeforeFinalTerminator(unixLines: unix)))
        case "b":
            if i < p.count, p[i] == 0x7B { throw error("\\b{g} (grapheme boundaries) is not supported") }
            return .node(.assertion(.wordBoundary))
        case "B": return .node(.assertion(.notWordBoundary))
        case "R":
            let crlf = RegexNode.sequence([.scalar(0x0D, .exact), .scalar(0x0A, .exact)])
            return .node(.alternation([crlf, .set(RegexPredefined.verticalSpace)]))
        case "k":
            guard i < p.count, p[i] == 0x3C else { throw error("\\k is not followed by '<' for named capturing group") }
            i += 1
            let name = try groupName()
            guard let index = groupNames[name] else { throw error("named capturing group <\(name)> does not exist") }
            return .node(.backReference(index, literalCaseMode))
        case "X": throw error("\\X (grapheme clusters) is not supported", at: backslash)
        case "N": throw error("\\N{name} (named characters) is not supported; use \\x{…} or \\u…", at: backslash)
        default: throw error("Illegal/unsupported escape sequence", at: backslash + 1)
        }
    }

    /// `\1`…`\9`, extended by further digits while the longer number names a group already opened.
    private mutating func backReference(first: Int) -> RegexNode {
        var number = first
        while i < p.count, Self.isDigit(p[i]) {
            let longer = number * 10 + Int(p[i] - 0x30)
            guard longer <= groupCount else { break }
            number = longer
            i += 1
        }
        highestReference = Swift.max(highestReference, number)
        return .backReference(number, literalCaseMode)
    }

    /// `\0n`, `\0nn`, `\0mnn` (m ≤ 3).
    private mutating func octal() throws(RegexSyntaxError) -> UInt32 {
        func digit(_ k: Int) -> UInt32? { k < p.count && (0x30...0x37).contains(p[k]) ? p[k] - 0x30 : nil }
        guard let n = digit(i) else { throw error("Illegal octal escape sequence") }
        i += 1
        guard let m = digit(i) else { return n }
        i += 1
        guard n <= 3, let o = digit(i) else { return n * 8 + m }
        i += 1
        return (n * 8 + m) * 8 + o
    }

    /// `\xhh` or `\x{h…h}`.
    private mutating func hex() throws(RegexSyntaxError) -> UInt32 {
        if i < p.count, p[i] == 0x7B {
            i += 1
            var value: UInt32 = 0, digits = 0
            while i < p.count, let d = Self.hexValue(p[i]) {
                value = value * 16 + d
                digits += 1
                i += 1
                if value > 0x10FFFF { throw error("Hexadecimal codepoint is too big") }
            }
            guard digits > 0, i < p.count, p[i] == 0x7D else { throw error("Unclosed hexadecimal escape sequence") }
            i += 1
            return value
        }
        guard i + 1 < p.count, let high = Self.hexValue(p[i]), let low = Self.hexValue(p[i + 1]) else {
            throw error("Illegal hexadecimal escape sequence")
        }
        i += 2
        return high * 16 + low
    }

    /// `\uhhhh`; a high surrogate followed by `\u` and a low surrogate is one supplementary scalar.
    private mutating func unicodeEscape() throws(RegexSyntaxError) -> UInt32 {
        let unit = try fourHexDigits()
        guard (0xD800...0xDBFF).contains(unit), i + 1 < p.count, p[i] == 0x5C, p[i + 1] == 0x75 else { return unit }
        let resume = i
        i += 2
        if let low = try? fourHexDigits(), (0xDC00...0xDFFF).contains(low) {
            return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        }
        i = resume
        return unit
    }

    private mutating func fourHexDigits() throws(RegexSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard i < p.count, let d = Self.hexValue(p[i]) else { throw error("Illegal Unicode escape sequence") }
            value = value * 16 + d
            i += 1
        }
        return value
    }

    package static func hexValue(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// `\pL`, `\p{Lu}`, `\P{IsAlphabetic}` (after the `p`).
    private mutating func property(negated: Bool) throws(RegexSyntaxError) -> RegexCharSet {
        var name = ""
        let start = i
        if i < p.count, p[i] == 0x7B {
            i += 1
            while i < p.count, p[i] != 0x7D {
                guard let s = Unicode.Scalar(p[i]) else { break }
                name.unicodeScalars.append(s)
                i += 1
            }
            guard i < p.count else { throw error("Unclosed character family") }
            i += 1
        } else {
            guard i < p.count, let s = Unicode.Scalar(p[i]) else { throw error("Illegal character family") }
            name.unicodeScalars.append(s)
            i += 1
        }
        if name.isEmpty { throw error("Empty character family") }
        switch RegexPredefined.property(named: name, caseInsensitive: flags.contains(.caseInsensitive)) {
        case let .success(set)?: return negated ? .negated(set) : set
        case let .failure(unsupported)?: throw error(unsupported.reason, at: start)
        case nil: throw error("Unknown character property name {\(name)}", at: start)
        }
    }
}
