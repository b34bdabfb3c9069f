import Testing

/// One row of a matcher table: a matcher, the value it is given (`nil`: absent), and what it should answer
/// (whether it matches, or its distance).
struct MatcherRow<Matcher: Sendable, Outcome: Sendable>: CustomTestStringConvertible, Sendable {
    let matcher: Matcher
    let value: String?
    let expected: Outcome
    var testDescription: String { "\(matcher) vs \(value.map { "\"\($0)\"" } ?? "absent") → \(expected)" }

    init(_ matcher: Matcher, _ value: String?, _ expected: Outcome) {
        self.matcher = matcher
        self.value = value
        self.expected = expected
    }
}
