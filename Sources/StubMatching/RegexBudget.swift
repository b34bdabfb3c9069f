import StubHTTP
import StubRegex

/// How much work one regular-expression evaluation may do before it gives up (and its stub is taken as
/// not matching).
///
/// A step is one instruction of ``RegexMachine`` (one character of a `.*` or `[a-z]+` loop, one
/// backtrack). A value may use 50,000 steps plus 16 per UTF-8 byte: `.*` twice over a 200-character URL
/// needs about 20,000 at worst; a linear pattern over a long body (`.*"id": 42.*`) takes one to three
/// steps per byte, far less than its allowance; exponential backtracking (`/(a+)+$` on `/aaaa…a!`) runs
/// into the bound after about a millisecond. The count of steps, not the clock, decides: the same value
/// gets the same answer on a loaded machine. The budget is small because the evaluation runs on an event
/// loop: every request on that loop waits for it.
package enum RegexBudget {
    /// Steps every evaluation may use.
    static let baseSteps = 50_000
    /// Steps each UTF-8 byte of the value adds.
    static let stepsPerByte = 16

    /// The longest value (in UTF-8 bytes) whose overrun a regex remembers, so asking again gives up at once.
    static let rememberedOverrunLength = 64 * 1024

    /// The most steps an evaluation over a value of `length` UTF-8 bytes may use.
    package static func steps(forLength length: Int) -> Int { baseSteps + length * stepsPerByte }
}

/// The stub a compiled regex belongs to: names it, once, in a warning when an evaluation runs out of
/// budget.
final class RegexOwner: Sendable {
    let stubID: String
    /// How the stub is named in the warning (its name, file or id).
    let stubName: String
    private let report: @Sendable (_ key: String, _ line: String) -> Void
    private let warned = LockedValue(false)

    /// - Parameter report: gets a key (stub id and pattern, for saying it once across route tables) and the line.
    init(stubID: String, stubName: String, report: @escaping @Sendable (_ key: String, _ line: String) -> Void) {
        self.stubID = stubID
        self.stubName = stubName
        self.report = report
    }

    /// An evaluation of `pattern` over a value of `length` UTF-8 bytes gave up: warns the first time.
    func overran(pattern: String, length: Int) {
        let first = warned.withLock { warned in
            defer { warned = true }
            return !warned
        }
        guard first else { return }
        report(
            stubID + "\u{0}" + pattern,
            "stubserver: warning: stub \(stubName): the regular expression \"\(pattern)\" gave up on a "
                + "\(length)-byte value after \(RegexBudget.steps(forLength: length)) matching steps; "
                + "the stub is treated as not matching. Nested quantifiers such as (a+)+ backtrack exponentially: "
                + "simplify the pattern (this warning is given once per stub).")
    }
}
