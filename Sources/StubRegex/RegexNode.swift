/// The parsed form of a Java regular expression, before it is compiled to a ``RegexProgram``.
package indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One Unicode scalar (`UInt32`, so that an unpaired `\uD800` can be written and never matches).
    case scalar(UInt32, RegexCaseMode)
    /// `.`: any scalar, or any but a line terminator.
    case any(RegexDot)
    /// A character class, a predefined class (`\d`) or a property (`\p{L}`).
    case set(RegexCharSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// A capturing group (`index` counts from 1) or, with `nil`, a non-capturing one.
    case group(RegexNode, capture: Int?)
    case quantified(RegexNode, min: Int, max: Int?, RegexQuantifierKind)
    /// `(?>…)`: once it matched, its alternatives are dropped.
    case atomic(RegexNode)
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`; lookbehind carries the length range of its body in scalars.
    case look(RegexNode, RegexLook)
    case assertion(RegexAssertion)
    /// `\1`, `\k<name>`.
    case backReference(Int, RegexCaseMode)
}

/// How a literal compares: exactly, ASCII letters in either case (`(?i)`, Java's default), or by Unicode
/// simple case mapping (`(?iu)`).
package enum RegexCaseMode: Sendable, Equatable {
    case exact, ascii, unicode
}

/// What `.` matches: everything under `DOTALL` (WireMock's mode), else anything but a line terminator
/// (`\n`, `\r`, U+0085, U+2028, U+2029; only `\n` under `UNIX_LINES`).
package enum RegexDot: Sendable, Equatable {
    case all, notLineTerminator, notNewline
}

package enum RegexQuantifierKind: Sendable, Equatable {
    case greedy, lazy, possessive
}

package struct RegexLook: Sendable, Equatable {
    package var behind: Bool
    package var negative: Bool
    /// Lookbehind only: the shortest and longest text its body can match, in scalars.
    package var minLength = 0
    package var maxLength = 0
}

/// Zero-width assertions, with Java's line-terminator rules.
package enum RegexAssertion: Sendable, Equatable {
    /// `\A`, `\G`, and `^` without `MULTILINE`.
    case start
    /// `\z`.
    case end
    /// `\Z`, and `$` without `MULTILINE`: at the end, or before a final line terminator.
    case endBeforeFinalTerminator(unixLines: Bool)
    /// `^` under `MULTILINE`: at the start, or after a line terminator that is not the last character.
    case lineStart(unixLines: Bool)
    /// `$` under `MULTILINE`: at the end, or before any line terminator.
    case lineEnd(unixLines: Bool)
    case wordBoundary
    case notWordBoundary
}
