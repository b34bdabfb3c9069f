/// Literal text every whole match of a regular expression must contain, read off the pattern once, so
/// most values that cannot match are turned away with a byte comparison instead of a regex run.
///
/// `/(?:users|orders)/[0-9]+/items` must end with `/items`; `/api/.*` must start with `/api/`;
/// `.*/users/[0-9]+` must contain `/users/`. The analysis is deliberately conservative: it looks only at
/// literal characters outside groups, character classes and quantifiers, and gives up (admitting every
/// value) on top-level alternation, inline flags and special groups `(?…`, quoting `\Q`, nested classes,
/// and any letter or digit escape it does not know. Literals are compared as UTF-8 bytes, which is how
/// the regex engine compares scalars (no normalisation, case-sensitive without `(?i)`).
struct RegexPrefilter: Sendable, Hashable {
    /// Every whole match starts with these bytes.
    let prefix: [UInt8]
    /// Every whole match ends with these bytes.
    let suffix: [UInt8]
    /// Every whole match contains these bytes (the longest literal run that is neither prefix nor suffix).
    let infix: [UInt8]

    /// Admits everything.
    static let none = RegexPrefilter(prefix: [], suffix: [], infix: [])

    var isEmpty: Bool { prefix.isEmpty && suffix.isEmpty && infix.isEmpty }

    /// Whether `value` may match: `false` only when it certainly cannot.
    func admits(_ value: String) -> Bool {
        if isEmpty { return true }
        return value.utf8.withContiguousStorageIfAvailable { admits(bytes: $0) } ?? true
    }

    func admits(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needed = prefix.count + suffix.count
        guard bytes.count >= needed, bytes.count >= infix.count else { return false }
        if !prefix.isEmpty, !Self.equal(bytes, at: 0, prefix) { return false }
        if !suffix.isEmpty, !Self.equal(bytes, at: bytes.count - suffix.count, suffix) { return false }
        if !infix.isEmpty, !Self.contains(bytes, infix) { return false }
        return true
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ literal: [UInt8]) -> Bool {
        for (offset, byte) in literal.enumerated() where bytes[start + offset] != byte { return false }
        return true
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return needle.isEmpty }
        var start = 0
        while start <= bytes.count - needle.count {
            if bytes[start] == first, equal(bytes, at: start, needle) { return true }
            start += 1
        }
        return false
    }
}

extension RegexPrefilter {
    /// The prefilter of `pattern`, as wrapped by ``CompiledRegex`` (`\A(?:pattern)\z`, `DOTALL`, no other
    /// flags). ``none`` when the pattern has anything the analysis does not understand.
    init(pattern: String) {
        self = Self.analyse(Array(pattern.unicodeScalars)) ?? .none
    }

    /// Escapes that stand for one character or a zero-width assertion, never consuming literal text of
    /// their own and never followed by an operand (`\x41`, `\p{L}`, `\cA`, `\1`, `\Q` are not listed).
    private static let knownEscapes: Set<Unicode.Scalar> = ["d", "D", "w", "W", "s", "S", "b", "B", "n", "t", "r", "f"]

    private static func analyse(_ p: [Unicode.Scalar]) -> RegexPrefilter? {
        var runs: [(text: String, start: Bool, end: Bool)] = []
        var run = "", runAtStart = true, lastWasLiteral = false
        var i = 0
        if p.first == "^" { i = 1 }
        func finish() {
            if !run.isEmpty { runs.append((run, runAtStart, false)) }
            run = ""
            runAtStart = false
            lastWasLiteral = false
        }
        while i < p.count {
            let c = p[i]
            switch c {
            case "|": return nil
            case "(":
                if i + 1 < p.count, p[i + 1] == "?" { guard i + 2 < p.count, p[i + 2] == ":" else { return nil } }
                finish()
                guard let close = skipGroup(p, from: i) else { return nil }
                i = close + 1
                continue
            case "[":
                finish()
                guard let close = skipClass(p, from: i) else { return nil }
                i = close + 1
                continue
            case "\\":
                guard i + 1 < p.count else { return nil }
                let e = p[i + 1]
                if e.properties.isAlphabetic || ("0"..."9").contains(e) {
                    guard knownEscapes.contains(e) else { return nil }
                    finish()
                } else {
                    run.unicodeScalars.append(e)
                    lastWasLiteral = true
                }
                i += 2
                continue
            case "?", "*":
                if lastWasLiteral { run.unicodeScalars.removeLast() }
                finish()
            case "+":
                finish()
            case "{":
                if lastWasLiteral { run.unicodeScalars.removeLast() }
                finish()
                guard let close = p[i...].firstIndex(of: "}") else { return nil }
                i = close + 1
                continue
            case "$" where i == p.count - 1:
                break
            case ".", "^", "$":
                finish()
            case ")", "]", "}":
                return nil  // unbalanced: the pattern may reach outside the wrapping group
            default:
                guard c.properties.isWhitespace == false || c == " " else { return nil }
                run.unicodeScalars.append(c)
                lastWasLiteral = true
            }
            i += 1
        }
        if !run.isEmpty { runs.append((run, runAtStart, true)) }
        let prefix = runs.first { $0.start }?.text ?? ""
        let suffix = runs.last { $0.end && !$0.start }?.text ?? ""
        let infix = runs.filter { !$0.start && !$0.end }.max { $0.text.utf8.count < $1.text.utf8.count }?.text ?? ""
        return RegexPrefilter(prefix: Array(prefix.utf8), suffix: Array(suffix.utf8), infix: Array(infix.utf8))
    }

    /// The index of the `)` closing the group opened at `open`; `nil` if unbalanced or odd inside.
    private static func skipGroup(_ p: [Unicode.Scalar], from open: Int) -> Int? {
        var depth = 0, i = open
        while i < p.count {
            switch p[i] {
            case "\\":
                if i + 1 < p.count, p[i + 1] == "Q" { return nil }
                i += 2
                continue
            case "[":
                guard let close = skipClass(p, from: i) else { return nil }
                i = close + 1
                continue
            case "(":
                if i + 1 < p.count, p[i + 1] == "?" { guard i + 2 < p.count, p[i + 2] == ":" else { return nil } }
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return i }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// The index of the `]` closing the class opened at `open`; `nil` for nested classes, `[]…` and
    /// `[^]…` (read differently by different engines) or an unterminated class.
    private static func skipClass(_ p: [Unicode.Scalar], from open: Int) -> Int? {
        var i = open + 1
        if i < p.count, p[i] == "^" { i += 1 }
        if i < p.count, p[i] == "]" { return nil }
        while i < p.count {
            switch p[i] {
            case "\\":
                if i + 1 < p.count, p[i + 1] == "Q" { return nil }
                i += 2
                continue
            case "[": return nil
            case "]": return i
            default: i += 1
            }
        }
        return nil
    }
}
