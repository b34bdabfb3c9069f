/// Turns a ``RegexNode`` into a ``RegexProgram``.
///
/// Counted repetition of a group (`(ab){2,5}`) is expanded into copies, bounded by ``maxInstructions``;
/// repetition of a single-character atom (`.*`, `[a-z0-9-]+`, `\d{4}`) is one ``RegexInstruction/repeatAtom``.
package struct RegexCompiler {
    /// Patterns whose expansion exceeds this are refused (`(…){1,100000}`), as a bound on memory.
    package static let maxInstructions = 50_000

    private var program = RegexProgram()
    private let pattern: String

    /// - Parameter references: the highest group number a back reference names.
    package static func compile(_ node: RegexNode, groups: Int, references: Int, pattern: String)
        throws(RegexSyntaxError) -> RegexProgram
    {
        var compiler = RegexCompiler(pattern: pattern)
        compiler.program.groupCount = groups
        compiler.program.registerCount = 2 * (Swift.max(groups, references) + 1)
        compiler.emit(.save(0))
        try compiler.compile(node)
        compiler.emit(.save(1))
        compiler.emit(.accept)
        return compiler.program
    }

    private init(pattern: String) { self.pattern = pattern }

    @discardableResult
    private mutating func emit(_ instruction: RegexInstruction) -> Int {
        program.code.append(instruction)
        return program.code.count - 1
    }

    private var here: Int { program.code.count }

    private mutating func compile(_ node: RegexNode) throws(RegexSyntaxError) {
        guard program.code.count <= Self.maxInstructions else {
            throw RegexSyntaxError(
                pattern: pattern, position: 0, reason: "Pattern too large once its counted repetitions are expanded")
        }
        switch node {
        case .empty: break
        case .scalar, .any, .set: emit(.atom(atom(node)))
        case let .sequence(items):
            for item in items { try compile(item) }
        case let .alternation(branches):
            var exits: [Int] = []
            for (k, branch) in branches.enumerated() {
                guard k < branches.count - 1 else {
                    try compile(branch)
                    break
                }
                let split = emit(.split(0, 0))
                try compile(branch)
                exits.append(emit(.jump(0)))
                program.code[split] = .split(split + 1, here)
            }
            for exit in exits { program.code[exit] = .jump(here) }
        case let .group(body, capture):
            guard let capture else { return try compile(body) }
            // The start goes to a scratch register until the group closes, so that `\1` inside a
            // repeated group 1 sees the previous iteration's whole text, as in Java.
            let start = newRegister()
            emit(.save(start))
            try compile(body)
            emit(.closeGroup(capture, start: start))
        case let .quantified(body, min, max, kind):
            try compileQuantified(body, min: min, max: max, kind)
        case let .atomic(body):
            emit(.atomicStart)
            try compile(body)
            emit(.atomicEnd)
        case let .look(body, look):
            let start = emit(.lookStart(look, after: 0))
            try compile(body)
            emit(.lookEnd)
            program.code[start] = .lookStart(look, after: here)
        case let .assertion(assertion): emit(.assert(assertion))
        case let .backReference(index, mode): emit(.backReference(index, mode))
        }
    }

    /// The node as a single-scalar atom, or `nil` if it is not one.
    private func singleAtom(_ node: RegexNode) -> RegexNode? {
        switch node {
        case .scalar, .any, .set: node
        case let .group(body, nil): singleAtom(body)
        case let .sequence(items) where items.count == 1: singleAtom(items[0])
        case .empty, .sequence, .alternation, .group, .quantified, .atomic, .look, .assertion, .backReference: nil
        }
    }

    private mutating func atom(_ node: RegexNode) -> RegexAtom {
        switch node {
        case let .scalar(c, mode):
            switch mode {
            case .exact: return .scalar(c)
            case .ascii: return RegexCaseFolding.asciiOtherCase(c).map { .either(c, $0) } ?? .scalar(c)
            case .unicode:
                // Java's UNICODE_CASE maps the input's character too: (?iu)k matches the Kelvin sign.
                return addClass(.caseFolded(.scalar(c), unicode: true))
            }
        case let .any(dot):
            switch dot {
            case .all: return .any
            case .notLineTerminator: return .notLineTerminator
            case .notNewline: return .notNewline
            }
        case let .set(set): return addClass(set)
        case .empty, .sequence, .alternation, .group, .quantified, .atomic, .look, .assertion, .backReference:
            return .any  // unreachable: callers pass single atoms only
        }
    }

    private mutating func addClass(_ set: RegexCharSet) -> RegexAtom {
        program.classes.append(RegexClass(set))
        return .set(program.classes.count - 1)
    }

    private mutating func compileQuantified(_ body: RegexNode, min: Int, max: Int?, _ kind: RegexQuantifierKind)
        throws(RegexSyntaxError)
    {
        if max == 0 { return }
        if RegexLength.range(of: body) == (0, 0), min > 1 || (max ?? 2) > 1 {
            // A zero-width body (`(?:)`, `(?=a)`) repeated is the same as once: no need to expand it.
            return try compileQuantified(body, min: Swift.min(min, 1), max: 1, kind)
        }
        if let single = singleAtom(body) {
            emit(.repeatAtom(atom(single), min: min, max: max ?? Int.max, kind))
            return
        }
        if kind == .possessive {
            emit(.atomicStart)
            try compileQuantified(body, min: min, max: max, .greedy)
            emit(.atomicEnd)
            return
        }
        let lazy = kind == .lazy
        let nullable = RegexLength.range(of: body).0 == 0
        if !nullable, min >= 1, max == nil {
            // X{n,}: n-1 copies, then a loop that runs the body and asks whether to go round again.
            for _ in 1..<min { try compile(body) }
            let top = here
            try compile(body)
            emit(lazy ? .split(here + 1, top) : .split(top, here + 1))
            return
        }
        // A body that can match the empty string checks each iteration: an empty one leaves the loop at
        // once, even before the minimum (Java's `Loop`), so nothing spins.
        let register = nullable ? newRegister() : nil
        var checks: [Int] = []
        for _ in 0..<min { try iteration(body, register, &checks) }
        if let max {
            var splits: [Int] = []
            for _ in min..<max {
                splits.append(emit(.split(0, 0)))
                try iteration(body, register, &checks)
            }
            for split in splits { program.code[split] = lazy ? .split(here, split + 1) : .split(split + 1, here) }
        } else {
            // X*: at the top, choose between another iteration and the exit.
            let top = emit(.split(0, 0))
            try iteration(body, register, &checks)
            emit(.jump(top))
            program.code[top] = lazy ? .split(here, top + 1) : .split(top + 1, here)
        }
        if let register {
            for check in checks { program.code[check] = .loopCheck(register, exit: here) }
        }
    }

    /// One iteration of a loop body, between ``RegexInstruction/loopMark(_:)`` and
    /// ``RegexInstruction/loopCheck(_:exit:)`` when the body can match the empty string.
    private mutating func iteration(_ body: RegexNode, _ register: Int?, _ checks: inout [Int]) throws(RegexSyntaxError)
    {
        guard program.code.count <= Self.maxInstructions else {
            throw RegexSyntaxError(
                pattern: pattern, position: 0, reason: "Pattern too large once its counted repetitions are expanded")
        }
        if let register { emit(.loopMark(register)) }
        try compile(body)
        if let register { checks.append(emit(.loopCheck(register, exit: 0))) }
    }

    private mutating func newRegister() -> Int {
        program.registerCount += 1
        return program.registerCount - 1
    }
}
