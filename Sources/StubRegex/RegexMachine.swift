/// What one evaluation concluded.
package enum RegexOutcome: Sendable, Equatable {
    case matched
    case noMatch
    /// The step budget (or the backtracking stack's bound) ran out before an answer.
    case gaveUp
}

/// Runs a ``RegexProgram`` over UTF-8 text: a backtracking machine whose choice points live on an
/// explicit stack (``RegexFrame``), so deep backtracking needs no thread stack, and whose every
/// instruction and backtrack counts one step against a budget.
///
/// Text is read as Unicode scalars decoded in place from the string's own UTF-8 storage: no copy of the
/// value, and a supplementary character (an emoji) is one character to `.` and to classes, as it is to
/// Java (which sees it as one code point over two UTF-16 units).
package struct RegexMachine {
    /// The most backtracking entries one evaluation may hold (24 bytes each: 6 MiB); beyond it the
    /// evaluation gives up, as Java would overflow its thread stack far earlier.
    package static let maxFrames = 1 << 18

    /// The program's instructions and classes, borrowed for the evaluation (see ``RegexProgram/evaluate(_:budget:_:)``).
    package let code: UnsafeBufferPointer<RegexInstruction>
    package let classes: UnsafeBufferPointer<RegexClass>
    package let text: UnsafeBufferPointer<UInt8>
    package let budget: Int
    package var registers: [Int]
    package var stack: [RegexFrame] = []
    package var steps = 0
    package var exhausted = false

    package init(
        code: UnsafeBufferPointer<RegexInstruction>, classes: UnsafeBufferPointer<RegexClass>, registerCount: Int,
        text: UnsafeBufferPointer<UInt8>, budget: Int
    ) {
        self.code = code
        self.classes = classes
        self.text = text
        self.budget = budget
        registers = Array(repeating: -1, count: registerCount)
        stack.reserveCapacity(16)
    }

    /// Matches the whole text; on success ``registers`` holds the capture positions (UTF-8 offsets).
    package mutating func run() -> RegexOutcome {
        var pc = 0, pos = 0
        let end = text.count
        while true {
            steps &+= 1
            if steps > budget { return .gaveUp }
            var ok = true
            switch code[pc] {
            case let .atom(atom):
                let next = match(atom, at: pos)
                if next < 0 { ok = false } else { pos = next; pc += 1 }
            case let .repeatAtom(atom, min, max, kind):
                ok = repeatAtom(atom, min: min, max: max, kind, pc: pc, pos: &pos)
                if ok { pc += 1 }
            case let .split(first, second):
                push(RegexFrame(.retry, pc: second, a: pos))
                pc = first
            case let .jump(target):
                pc = target
            case let .save(slot):
                push(RegexFrame(.restore, pc: 0, a: slot, b: registers[slot]))
                registers[slot] = pos
                pc += 1
            case let .closeGroup(group, start):
                push(RegexFrame(.restore, pc: 0, a: 2 * group, b: registers[2 * group]))
                push(RegexFrame(.restore, pc: 0, a: 2 * group + 1, b: registers[2 * group + 1]))
                registers[2 * group] = registers[start]
                registers[2 * group + 1] = pos
                pc += 1
            case let .assert(assertion):
                ok = holds(assertion, at: pos)
                if ok { pc += 1 }
            case let .backReference(group, mode):
                let next = backReference(group, mode, at: pos)
                if next < 0 { ok = false } else { pos = next; pc += 1 }
            case let .loopMark(register):
                push(RegexFrame(.restore, pc: 0, a: register, b: registers[register]))
                registers[register] = pos
                pc += 1
            case let .loopCheck(register, exit):
                pc = registers[register] == pos ? exit : pc + 1
            case .atomicStart:
                push(RegexFrame(.marker, pc: pc, a: pos))
                pc += 1
            case .atomicEnd:
                let marker = innermostMarker()
                if marker >= 0 { cut(at: marker) }
                pc += 1
            case let .lookStart(look, after):
                ok = startLook(look, after: after, pc: &pc, pos: &pos)
            case .lookEnd:
                ok = endLook(pc: &pc, pos: &pos)
            case .accept:
                if pos == end { return .matched }
                ok = false
            }
            if exhausted { return .gaveUp }
            if !ok {
                guard backtrack(pc: &pc, pos: &pos) else { return exhausted || steps > budget ? .gaveUp : .noMatch }
            }
        }
    }

    package mutating func push(_ frame: RegexFrame) {
        if stack.count >= Self.maxFrames {
            exhausted = true
            return
        }
        stack.append(frame)
    }

    /// Pops entries until one offers another way to go on; `false` when none is left.
    package mutating func backtrack(pc: inout Int, pos: inout Int) -> Bool {
        while let frame = stack.popLast() {
            steps &+= 1
            if steps > budget { return false }
            switch frame.kind {
            case .retry:
                pc = Int(frame.pc)
                pos = frame.a
                return true
            case .restore:
                registers[frame.a] = frame.b
            case .giveBack:
                pos = giveBack(frame)
                pc = Int(frame.pc) + 1
                return true
            case .takeMore:
                if takeMore(frame, pos: &pos) {
                    pc = Int(frame.pc) + 1
                    return true
                }
            case .marker:
                // An atomic group's marker is passed over; a negative lookaround whose body failed succeeds.
                if case let .lookStart(look, after) = code[Int(frame.pc)], look.negative {
                    pc = after
                    pos = frame.a
                    return true
                }
            case .behindStart:
                guard frame.b > 0, frame.a > 0 else { continue }
                let start = previousStart(frame.a)
                push(RegexFrame(.behindStart, pc: Int(frame.pc), a: start, b: frame.b - 1))
                pc = Int(frame.pc) + 1
                pos = start
                return true
            }
        }
        return false
    }

    /// The index of the topmost atomic or lookaround marker, or -1.
    package func innermostMarker() -> Int {
        var k = stack.count - 1
        while k >= 0, stack[k].kind != .marker { k -= 1 }
        return k
    }

    /// Drops the marker at `index` and every alternative above it, keeping the register restores so that
    /// backtracking past the group still undoes its captures.
    package mutating func cut(at index: Int) {
        var kept = index
        for k in index + 1..<stack.count where stack[k].kind == .restore {
            stack[kept] = stack[k]
            kept += 1
        }
        steps &+= stack.count - index
        stack.removeSubrange(kept...)
    }
}

/// One backtracking entry.
package struct RegexFrame {
    package enum Kind: UInt8 {
        /// Resume at `pc`, position `a`.
        case retry
        /// Set register `a` back to `b`.
        case restore
        /// A greedy atom loop at `pc` that consumed up to `b` may give back characters down to `a`.
        case giveBack
        /// A lazy atom loop at `pc`, at `a` after `b` iterations, may take one more.
        case takeMore
        /// An atomic group or lookaround (`pc` is its start instruction) entered at position `a`.
        case marker
        /// A lookbehind at `pc` tried its body from `a`; `b` earlier starts remain.
        case behindStart
    }

    package var kind: Kind
    package var pc: Int32
    package var a: Int
    package var b: Int

    package init(_ kind: Kind, pc: Int, a: Int, b: Int = 0) {
        self.kind = kind
        self.pc = Int32(truncatingIfNeeded: pc)
        self.a = a
        self.b = b
    }
}
