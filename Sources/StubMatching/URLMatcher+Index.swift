extension CompiledURLMatcher {
    /// The raw first path segment (`users` in `/users/...`) every URL this matcher accepts must have, when
    /// it can be read off a pattern or template, so ``RouteTable`` can skip patterns that cannot match.
    /// `nil` when unknown (or for literal paths, which are indexed whole by ``literalPath``).
    var firstSegment: String? {
        switch source {
        case .url, .urlPath: return nil
        case let .urlPattern(pattern), let .urlPathPattern(pattern):
            let (prefix, complete) = Self.literalPrefix(ofRegex: pattern)
            return Self.firstSegment(of: prefix, complete: complete)
        case let .urlPathTemplate(template):
            guard let brace = template.firstIndex(of: "{") else { return nil }
            return Self.firstSegment(of: String(template[..<brace]), complete: false)
        }
    }

    /// `/users/` → `users`; `/users` only if the prefix is the whole path (`complete`); else `nil`.
    static func firstSegment(of prefix: String, complete: Bool) -> String? {
        guard prefix.hasPrefix("/") else { return nil }
        let rest = prefix.dropFirst()
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) { return String(rest[..<slash]) }
        return complete ? String(rest) : nil
    }

    /// The literal text every whole match of `pattern` must start with, and whether that text is the
    /// entire pattern. Conservative: any alternation gives no prefix; a quantifier removes the character
    /// it applies to; the scan stops at the first construct that is not a plain or escaped character.
    static func literalPrefix(ofRegex pattern: String) -> (prefix: String, complete: Bool) {
        if pattern.contains("|") { return ("", false) }
        var chars = Substring(pattern)
        if chars.first == "^" { chars = chars.dropFirst() }
        var prefix = ""
        while let c = chars.first {
            switch c {
            case "?", "*", "{":
                if !prefix.isEmpty { prefix.removeLast() }
                return (prefix, false)
            case "+":
                return (prefix, false)
            case "\\":
                guard let escaped = chars.dropFirst().first, !escaped.isLetter, !escaped.isNumber else {
                    return (prefix, false)
                }
                chars = chars.dropFirst(2)
                if let next = chars.first, next == "?" || next == "*" || next == "{" { return (prefix, false) }
                prefix.append(escaped)
                continue
            case ".", "(", ")", "[", "]", "$", "^":
                return (prefix, false)
            default:
                prefix.append(c)
                chars = chars.dropFirst()
            }
        }
        return (prefix, true)
    }
}
