extension RegexMachine {
    /// Whether a zero-width assertion holds at `pos`, with Java's rules: `\r\n` is one line terminator
    /// (nothing matches between its halves), and `^` under `MULTILINE` does not match at the very end.
    package func holds(_ assertion: RegexAssertion, at pos: Int) -> Bool {
        let end = text.count
        switch assertion {
        case .start:
            return pos == 0
        case .end:
            return pos == end
        case let .endBeforeFinalTerminator(unix):
            if pos == end { return true }
            let (c, length) = scalar(at: pos)
            if unix { return c == 0x0A && pos + 1 == end }
            if c == 0x0D, pos + 2 == end, text[pos + 1] == 0x0A { return true }
            guard pos + length == end, RegexParser.isLineTerminator(c) else { return false }
            return !(c == 0x0A && pos > 0 && text[pos - 1] == 0x0D)
        case let .lineStart(unix):
            if pos == end { return false }
            guard pos > 0, let before = scalar(before: pos) else { return true }
            if unix { return before == 0x0A }
            guard RegexParser.isLineTerminator(before) else { return false }
            return !(before == 0x0D && text[pos] == 0x0A)
        case let .lineEnd(unix):
            if pos == end { return true }
            let c = scalar(at: pos).value
            if unix { return c == 0x0A }
            guard RegexParser.isLineTerminator(c) else { return false }
            return !(c == 0x0A && pos > 0 && text[pos - 1] == 0x0D)
        case .wordBoundary, .notWordBoundary:
            let left = scalar(before: pos).map(Self.isWord) ?? false
            let right = pos < end && Self.isWord(scalar(at: pos).value)
            return (left != right) == (assertion == .wordBoundary)
        }
    }

    /// A word character for `\b`, as Java 17 decides it: `_` or `Character.isLetterOrDigit`.
    package static func isWord(_ c: UInt32) -> Bool {
        if c < 0x80 {
            return c == 0x5F || (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
        }
        guard let scalar = Unicode.Scalar(c) else { return false }
        return RegexProperty.categoryBit(scalar.properties.generalCategory) & letterOrDigit != 0
    }

    private static let letterOrDigit = RegexProperty.mask("L") | RegexProperty.mask("Nd")
}
