/// Why a regular expression does not compile: what the parser expected and where it stopped.
///
/// Messages follow `java.util.regex.PatternSyntaxException` (`Unclosed group`, `Dangling meta character
/// '*'`, `Illegal repetition`) so they read as WireMock's do; constructs Java has and this engine does
/// not (scripts, blocks, `\X`, `\N{…}`) say so plainly instead of failing at match time.
package struct RegexSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written in the stub.
    package let pattern: String
    /// Position in the pattern, counted in Unicode scalars from 0, where the problem was found.
    package let position: Int
    /// What is wrong, without the pattern.
    package let reason: String

    /// `Unclosed group at position 7`.
    package var description: String { "\(reason) at position \(position)" }
}
