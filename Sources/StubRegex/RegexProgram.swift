/// A compiled pattern: instructions for ``RegexMachine``, a backtracking machine with an explicit stack.
package struct RegexProgram: Sendable {
    package var code: [RegexInstruction] = []
    package var classes: [RegexClass] = []
    /// Capture slots (two per group, group 0 included) followed by loop registers.
    package var registerCount = 2
    /// Capturing groups in the pattern.
    package var groupCount = 0

    /// Runs the program over `text` and hands the finished machine (its registers hold the captures) to `body`.
    package func evaluate<R>(_ text: UnsafeBufferPointer<UInt8>, budget: Int, _ body: (RegexOutcome, RegexMachine) -> R)
        -> R
    {
        code.withUnsafeBufferPointer { code in
            classes.withUnsafeBufferPointer { classes in
                var machine = RegexMachine(
                    code: code, classes: classes, registerCount: registerCount, text: text, budget: budget)
                let outcome = machine.run()
                return body(outcome, machine)
            }
        }
    }
}

/// Something that matches exactly one scalar.
package enum RegexAtom: Sendable {
    case scalar(UInt32)
    /// `(?i)` on an ASCII letter: either case.
    case either(UInt32, UInt32)
    case any
    case notLineTerminator
    case notNewline
    /// An index into ``RegexProgram/classes``.
    case set(Int)
}

package enum RegexInstruction: Sendable {
    case atom(RegexAtom)
    /// A quantified atom, run as a loop that leaves one backtracking entry, not one per character.
    /// `max` is `Int.max` when unbounded.
    case repeatAtom(RegexAtom, min: Int, max: Int, RegexQuantifierKind)
    /// Continue at the first target; on failure, at the second.
    case split(Int, Int)
    case jump(Int)
    /// Store the position in a register (restored on backtracking).
    case save(Int)
    /// A capturing group ends: its start (kept in register `start`) and the position become its text.
    case closeGroup(Int, start: Int)
    case assert(RegexAssertion)
    /// Group `index`'s text again.
    case backReference(Int, RegexCaseMode)
    /// An iteration of a loop whose body can match the empty string starts: remember where.
    case loopMark(Int)
    /// The iteration ends: if it consumed nothing, leave the loop (continue at `exit`) instead of going
    /// round again, as Java's `Loop` does.
    case loopCheck(Int, exit: Int)
    case atomicStart
    /// Drops the alternatives left inside the atomic group (or possessive quantifier).
    case atomicEnd
    /// A lookaround begins; `after` is the instruction after its ``lookEnd``.
    case lookStart(RegexLook, after: Int)
    case lookEnd
    /// Succeeds at the end of the value (Java's `matches()`), fails elsewhere.
    case accept
}
