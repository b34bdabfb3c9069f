/// A regular expression with `java.util.regex` syntax and semantics, compiled once and matched against
/// whole values (Java's `Matcher.matches()`), without Foundation or ICU.
///
/// ```swift
/// let regex = try JavaRegex("/users/[a-z0-9-]+")
/// regex.wholeMatch("/users/ab-12", stepBudget: 50_000) // .matched
/// ```
///
/// Every evaluation has a step budget: each instruction run and each backtrack is a step, so a pattern
/// that backtracks exponentially (`/(a+)+$` on `/aaaa…a!`) ends in ``RegexOutcome/gaveUp`` after a bounded
/// amount of work instead of holding the thread.
package struct JavaRegex: Sendable {
    /// The pattern as written.
    package let pattern: String
    package let program: RegexProgram

    /// - Parameter flags: Java's compile flags; WireMock compiles with `DOTALL`, the default here.
    /// - Throws: ``RegexSyntaxError`` naming the position where the pattern stops making sense.
    package init(_ pattern: String, flags: RegexFlags = [.dotAll]) throws(RegexSyntaxError) {
        self.pattern = pattern
        var parser = RegexParser(pattern, flags: flags)
        let node = try parser.parse()
        program = try RegexCompiler.compile(
            node, groups: parser.groupCount, references: parser.highestReference, pattern: pattern)
    }

    /// Whether all of `value` matches, within `stepBudget` steps.
    package func wholeMatch(_ value: String, stepBudget: Int) -> RegexOutcome {
        var value = value
        return value.withUTF8 { wholeMatch(utf8: $0, stepBudget: stepBudget) }
    }

    /// Whether all of the UTF-8 text `utf8` (valid UTF-8) matches, within `stepBudget` steps.
    package func wholeMatch(utf8: UnsafeBufferPointer<UInt8>, stepBudget: Int) -> RegexOutcome {
        program.evaluate(utf8, budget: stepBudget) { outcome, _ in outcome }
    }

    /// The text of groups 1…n when all of `value` matches (`nil` for a group that took no part), or `nil`
    /// if it does not match or the evaluation gave up.
    package func wholeMatchGroups(_ value: String, stepBudget: Int) -> [String?]? {
        var value = value
        return value.withUTF8 { utf8 -> [String?]? in
            program.evaluate(utf8, budget: stepBudget) { outcome, machine -> [String?]? in
                guard outcome == .matched else { return nil }
                return (1...max(program.groupCount, 1)).prefix(program.groupCount).map { group in
                    let start = machine.registers[2 * group], end = machine.registers[2 * group + 1]
                    guard start >= 0, end >= start else { return nil }
                    return String(decoding: UnsafeBufferPointer(rebasing: utf8[start..<end]), as: UTF8.self)
                }
            }
        }
    }
}
