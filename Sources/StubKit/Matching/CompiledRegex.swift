import Foundation

/// A regular expression compiled once, matched against WHOLE values as Java's `Matcher.matches()` does
/// (WireMock's `matches` / `doesNotMatch` / `urlPattern`).
///
/// `.` also matches line breaks: WireMock compiles with `DOTALL` (verified against WireMock 2.35.1:
/// `{"matches": "a.b"}` matches the body `"a\nb"`). `a|ab` matches `"ab"` because the alternation is
/// wrapped as `\A(?:a|ab)\z`, not searched and then compared.
///
/// A class, so the route table and the matchers holding one share it instead of copying it.
final class CompiledRegex: @unchecked Sendable, Hashable {
    // Immutable; NSRegularExpression is immutable and documented as safe to use from several threads.
    let pattern: String
    private let regex: NSRegularExpression?
    /// Why the pattern does not compile, or `nil`.
    let compileError: String?
    /// Turns away most values that cannot match before the regex runs.
    let prefilter: RegexPrefilter

    init(_ pattern: String) {
        self.pattern = pattern
        prefilter = RegexPrefilter(pattern: pattern)
        do {
            regex = try NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z", options: [.dotMatchesLineSeparators])
            compileError = nil
        } catch {
            regex = nil
            compileError = "invalid regular expression \"\(pattern)\": \(error.localizedDescription)"
        }
    }

    /// Whether the whole of `value` matches. An invalid pattern matches nothing.
    func matchesWhole(_ value: String) -> Bool {
        guard let regex, prefilter.admits(value) else { return false }
        return regex.firstMatch(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count)) != nil
    }

    /// The capture groups of a whole match (group 1...n), or `nil` if `value` does not match.
    func wholeMatchGroups(_ value: String) -> [String]? {
        guard let regex, prefilter.admits(value),
              let match = regex.firstMatch(in: value, options: [], range: NSRange(location: 0, length: value.utf16.count))
        else { return nil }
        var groups: [String] = []
        for i in stride(from: 1, to: match.numberOfRanges, by: 1) {
            let range = match.range(at: i)
            if let r = Range(range, in: value) { groups.append(String(value[r])) } else { groups.append("") }
        }
        return groups
    }

    static func == (lhs: CompiledRegex, rhs: CompiledRegex) -> Bool { lhs.pattern == rhs.pattern }
    func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}
