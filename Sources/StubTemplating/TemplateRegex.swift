import StubMatching
import StubRegex

/// A pattern of `matches` / `regexExtract`, compiled as Java's `Pattern.compile` does (no `DOTALL`), with
/// the search form `regexExtract` needs (Java's `Matcher.find`): the pattern wrapped as
/// `((?s:.*?))(pattern)(?s:.*)` and matched whole, so group 1 is the text before the leftmost match and
/// group 2 that match.
struct TemplateRegex: Sendable {
    /// The pattern as written.
    let pattern: String
    let whole: JavaRegex
    /// `nil` when the pattern has a back-reference (`\1`, `\k<name>`), which the wrapping group would
    /// renumber.
    let search: JavaRegex?

    init(_ pattern: String) throws(RegexSyntaxError) {
        self.pattern = pattern
        whole = try JavaRegex(pattern, flags: [])
        search = Self.hasBackReference(pattern) ? nil : try JavaRegex("((?s:.*?))(\(pattern))(?s:.*)", flags: [])
    }

    /// Java's `value.matches(pattern)`; `nil` when the evaluation ran out of steps.
    func wholeMatch(_ value: String) -> Bool? {
        switch whole.wholeMatch(value, stepBudget: RegexBudget.steps(forLength: value.utf8.count)) {
        case .matched: true
        case .noMatch: false
        case .gaveUp: nil
        }
    }

    /// The leftmost match in `value` and its groups (`nil` for a group that took no part), or `nil`.
    func firstMatch(in value: String) -> (match: String, groups: [String?])? {
        search(value).map { ($0.match, $0.groups) }
    }

    /// Every match, left to right, each searched for in what follows the previous one (so `^` and
    /// look-behinds see only that rest); at most `limit`.
    func allMatches(in value: String, limit: Int) -> [(match: String, groups: [String?])] {
        var found: [(match: String, groups: [String?])] = []
        var rest = Substring(value)
        while found.count < limit, let next = search(String(rest)) {
            found.append((next.match, next.groups))
            var end = rest.utf8.index(rest.startIndex, offsetBy: next.prefix.utf8.count + next.match.utf8.count)
            // An empty match moves one character on, as Java's find does.
            if next.match.isEmpty {
                guard end < rest.endIndex else { break }
                end = rest.index(after: end)
            }
            rest = rest[end...]
        }
        return found
    }

    private func search(_ value: String) -> (prefix: String, match: String, groups: [String?])? {
        guard let search,
            let groups = search.wholeMatchGroups(value, stepBudget: RegexBudget.steps(forLength: value.utf8.count)),
            groups.count >= 2, let prefix = groups[0], let match = groups[1]
        else { return nil }
        return (prefix, match, Array(groups.dropFirst(2)))
    }

    private static func hasBackReference(_ pattern: String) -> Bool {
        var escaped = false
        for scalar in pattern.unicodeScalars {
            if escaped {
                if ("1"..."9").contains(scalar) || scalar == "k" { return true }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            }
        }
        return false
    }
}
