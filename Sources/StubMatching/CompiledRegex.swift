import StubHTTP
import StubModel
import StubRegex

/// A regular expression compiled once, matched against WHOLE values as Java's `Matcher.matches()` does
/// (WireMock's `matches` / `doesNotMatch` / `urlPattern`), by stubserver's own engine (``JavaRegex``):
/// `java.util.regex` syntax and semantics, no Foundation, no ICU.
///
/// `.` also matches line breaks: WireMock compiles with `DOTALL` (`AbstractRegexPattern`:
/// `Pattern.compile(regex, DOTALL)`, then `matcher(value).matches()`), so `{"matches": "a.b"}` matches
/// the body `"a\nb"`. `a|ab` matches `"ab"`: the whole value must match, whichever branch gets there.
///
/// A class, so the route table and the matchers holding one share it instead of copying it.
package final class CompiledRegex: @unchecked Sendable, Hashable {
    // Immutable but for `lastOverrun`, which is behind a lock; a JavaRegex is a value shared read-only.
    let pattern: String
    private let regex: JavaRegex?
    /// Why the pattern does not compile, or `nil`.
    let compileError: String?
    /// Turns away most values that cannot match before the regex runs.
    let prefilter: RegexPrefilter
    /// The stub this regex belongs to, told when an evaluation runs out of budget.
    private let owner: RegexOwner?
    /// The last value (at most ``RegexBudget/rememberedOverrunLength`` UTF-8 bytes) an evaluation gave
    /// up on: matching, the near-miss report and the unmatched log ask about the same request several
    /// times, and each repeat would spend the whole budget again.
    private let lastOverrun = LockedValue<String?>(nil)

    /// Counts the regexes compiled by the current task while a test sets it: how a test sees that loading a
    /// stubs directory and building its route table compile each regex once.
    @TaskLocal package static var compilations: CompileCounter?

    /// - Parameter owner: the stub to name in a warning when an evaluation runs out of budget.
    /// A regex that matches nothing when `pattern` does not compile (``compileError`` says why).
    convenience init(_ pattern: String, owner: RegexOwner? = nil) {
        let compiled = Result { () throws(RegexSyntaxError) in try JavaRegex(pattern) }
        self.init(pattern, compiled, owner: owner)
    }

    /// The regex, or why `pattern` does not compile.
    /// `pattern` compiled, or `nil` when it does not compile (for code outside matching, e.g. the OpenAPI drift
    /// check's test of a stub's URL regex).
    package static func compiled(_ pattern: String) -> CompiledRegex? { try? CompiledRegex(compiling: pattern) }

    convenience init(compiling pattern: String, owner: RegexOwner? = nil) throws(MatcherCompileError) {
        let compiled = Result { () throws(RegexSyntaxError) in try JavaRegex(pattern) }
        if case let .failure(error) = compiled { throw .regex(error) }
        self.init(pattern, compiled, owner: owner)
    }

    /// `other`'s compiled regex, for `owner`: nothing is compiled again.
    private init(sharing other: CompiledRegex, owner: RegexOwner?) {
        pattern = other.pattern
        regex = other.regex
        compileError = other.compileError
        prefilter = other.prefilter
        self.owner = owner
    }

    /// This regex, warning `owner` when an evaluation runs out of budget: shares the compiled form.
    func owned(by owner: RegexOwner?) -> CompiledRegex {
        owner == nil && self.owner == nil ? self : CompiledRegex(sharing: self, owner: owner)
    }

    private init(_ pattern: String, _ compiled: Result<JavaRegex, RegexSyntaxError>, owner: RegexOwner?) {
        Self.compilations?.record(pattern)
        self.pattern = pattern
        self.owner = owner
        prefilter = RegexPrefilter(pattern: pattern)
        switch compiled {
        case let .success(regex): (self.regex, compileError) = (regex, nil)
        case let .failure(error): (regex, compileError) = (nil, Self.describe(error))
        }
    }

    /// `invalid regular expression "/a(": Unclosed group at position 3`.
    package static func describe(_ error: RegexSyntaxError) -> String {
        "invalid regular expression \(JSONValue.string(error.pattern).serialized()): \(error)"
    }

    /// Whether the whole of `value` matches. An invalid pattern matches nothing, nor does an evaluation
    /// that runs out of budget (see ``wholeMatch(_:)``).
    package func matchesWhole(_ value: String) -> Bool { wholeMatch(value) ?? false }

    /// Whether the whole of `value` does NOT match: `false` too when the evaluation ran out of budget, so
    /// a stub is never chosen on an answer the regex did not give.
    func doesNotMatchWhole(_ value: String) -> Bool { wholeMatch(value).map { !$0 } ?? false }

    /// Whether the whole of `value` matches, or `nil` if the evaluation ran out of its step budget
    /// (``RegexBudget``): a pattern with nested quantifiers such as `/(a+)+$` backtracks exponentially
    /// on `/aaaa…a!`, and without a bound one request would hold the event loop for seconds.
    func wholeMatch(_ value: String) -> Bool? {
        // A pattern that does not compile gives no answer: `doesNotMatch` must not pass on it.
        guard let regex else { return nil }
        guard prefilter.admits(value) else { return false }
        let length = value.utf8.count
        let remembers = length <= RegexBudget.rememberedOverrunLength
        if remembers, lastOverrun.withLock({ $0 == value }) { return nil }
        switch regex.wholeMatch(value, stepBudget: RegexBudget.steps(forLength: length)) {
        case .matched: return true
        case .noMatch: return false
        case .gaveUp:
            if remembers { lastOverrun.withLock { $0 = value } }
            owner?.overran(pattern: pattern, length: length)
            return nil
        }
    }

    /// The capture groups of a whole match (group 1...n, `""` for a group that took no part), or `nil` if
    /// `value` does not match (or the evaluation ran out of budget).
    func wholeMatchGroups(_ value: String) -> [String]? {
        guard let regex, prefilter.admits(value) else { return nil }
        let groups = regex.wholeMatchGroups(value, stepBudget: RegexBudget.steps(forLength: value.utf8.count))
        return groups?.map { $0 ?? "" }
    }

    package static func == (lhs: CompiledRegex, rhs: CompiledRegex) -> Bool { lhs.pattern == rhs.pattern }
    package func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}

/// The patterns of the regexes compiled while a test sets ``CompiledRegex/compilations`` (or the templates parsed
/// while it sets `Template.parses`), in order.
package final class CompileCounter: Sendable {
    private let compiled = LockedValue<[String]>([])

    package init() {}

    /// Each pattern compiled, as many times as it was.
    package var patterns: [String] { compiled.withLock { $0 } }

    package func record(_ pattern: String) { compiled.withLock { $0.append(pattern) } }
}
