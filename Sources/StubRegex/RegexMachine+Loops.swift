extension RegexMachine {
    /// Runs a quantified atom at `pos`: a greedy loop takes all it can and leaves one ``RegexFrame/Kind/giveBack``
    /// entry, a lazy one takes the minimum and leaves a ``RegexFrame/Kind/takeMore``, a possessive one
    /// leaves nothing.
    package mutating func repeatAtom(
        _ atom: RegexAtom, min: Int, max: Int, _ kind: RegexQuantifierKind, pc: Int, pos: inout Int
    ) -> Bool {
        var count = 0, at = pos
        while count < min {
            let next = match(atom, at: at)
            if next < 0 { return false }
            at = next
            count += 1
        }
        steps &+= count
        let floor = at
        switch kind {
        case .lazy:
            if count < max { push(RegexFrame(.takeMore, pc: pc, a: at, b: count)) }
        case .greedy, .possessive:
            if case .any = atom, max == Int.max {
                at = text.count
            } else {
                while count < max {
                    let next = match(atom, at: at)
                    if next < 0 { break }
                    at = next
                    count += 1
                }
                steps &+= count - min
            }
            if kind == .greedy, at > floor { push(RegexFrame(.giveBack, pc: pc, a: floor, b: at)) }
        }
        pos = at
        return true
    }

    /// A greedy loop gives back one character (or, when a literal follows, back to the nearest place
    /// where that literal could match) and returns the new position.
    package mutating func giveBack(_ frame: RegexFrame) -> Int {
        var at = previousStart(frame.b)
        let next = Int(frame.pc) + 1
        if next < code.count, case let .atom(.scalar(c)) = code[next], c < 0x80 {
            let byte = UInt8(c)
            while at > frame.a, text[at] != byte {
                at = previousStart(at)
                steps &+= 1
            }
        }
        if at > frame.a { push(RegexFrame(.giveBack, pc: Int(frame.pc), a: frame.a, b: at)) }
        return at
    }

    /// A lazy loop takes one more character if it can.
    package mutating func takeMore(_ frame: RegexFrame, pos: inout Int) -> Bool {
        guard case let .repeatAtom(atom, _, max, _) = code[Int(frame.pc)] else { return false }
        let next = match(atom, at: frame.a)
        guard next >= 0 else { return false }
        if frame.b + 1 < max { push(RegexFrame(.takeMore, pc: Int(frame.pc), a: next, b: frame.b + 1)) }
        pos = next
        return true
    }

    /// Enters a lookaround at instruction `pc`; `false` if it fails at once.
    package mutating func startLook(_ look: RegexLook, after: Int, pc: inout Int, pos: inout Int) -> Bool {
        guard look.behind else {
            push(RegexFrame(.marker, pc: pc, a: pos))
            pc += 1
            return true
        }
        // Lookbehind: try the body from `minLength` characters back, then one further each time, up to
        // `maxLength`; it must end exactly here.
        var start = pos
        for _ in 0..<look.minLength {
            guard start > 0 else {
                if look.negative { pc = after }
                return look.negative
            }
            start = previousStart(start)
        }
        push(RegexFrame(.marker, pc: pc, a: pos))
        push(RegexFrame(.behindStart, pc: pc, a: start, b: look.maxLength - look.minLength))
        pc += 1
        pos = start
        return true
    }

    /// The body of the innermost lookaround matched: a positive one continues after it at the position
    /// it started from, a negative one fails.
    package mutating func endLook(pc: inout Int, pos: inout Int) -> Bool {
        let index = innermostMarker()
        guard index >= 0 else { return false }
        let marker = stack[index]
        guard case let .lookStart(look, after) = code[Int(marker.pc)] else { return false }
        if look.behind, pos != marker.a { return false }
        cut(at: index)
        if look.negative { return false }
        pos = marker.a
        pc = after
        return true
    }
}
