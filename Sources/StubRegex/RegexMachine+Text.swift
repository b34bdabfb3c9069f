extension RegexMachine {
    /// The scalar starting at byte `i` (which must be a scalar boundary below `text.count`) and its length.
    @inline(__always)
    package func scalar(at i: Int) -> (value: UInt32, length: Int) {
        let b0 = UInt32(text[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return ((b0 & 0x1F) << 6 | UInt32(text[i + 1]) & 0x3F, 2) }
        if b0 < 0xF0 {
            return ((b0 & 0x0F) << 12 | (UInt32(text[i + 1]) & 0x3F) << 6 | UInt32(text[i + 2]) & 0x3F, 3)
        }
        return (
            (b0 & 0x07) << 18 | (UInt32(text[i + 1]) & 0x3F) << 12 | (UInt32(text[i + 2]) & 0x3F) << 6
                | UInt32(text[i + 3]) & 0x3F, 4
        )
    }

    /// The start of the scalar before byte `i` (`i > 0`).
    @inline(__always)
    package func previousStart(_ i: Int) -> Int {
        var j = i - 1
        while j > 0, text[j] & 0xC0 == 0x80 { j -= 1 }
        return j
    }

    /// The scalar before byte `i`, or `nil` at the start.
    package func scalar(before i: Int) -> UInt32? {
        i > 0 ? scalar(at: previousStart(i)).value : nil
    }

    /// Where `atom` leaves off when it matches at `pos`, or -1.
    @inline(__always)
    package func match(_ atom: RegexAtom, at pos: Int) -> Int {
        guard pos < text.count else { return -1 }
        let byte = text[pos]
        switch atom {
        case let .scalar(c):
            if c < 0x80 { return UInt32(byte) == c ? pos + 1 : -1 }
            let (value, length) = scalar(at: pos)
            return value == c ? pos + length : -1
        case let .either(a, b):
            let value = UInt32(byte)  // ASCII letters only
            return value == a || value == b ? pos + 1 : -1
        case .any:
            return pos + Self.length(leadingByte: byte)
        case .notNewline:
            return byte == 0x0A ? -1 : pos + Self.length(leadingByte: byte)
        case .notLineTerminator:
            if byte < 0x80 { return byte == 0x0A || byte == 0x0D ? -1 : pos + 1 }
            let (value, length) = scalar(at: pos)
            return RegexParser.isLineTerminator(value) ? -1 : pos + length
        case let .set(index):
            if byte < 0x80 { return classes[index].contains(UInt32(byte)) ? pos + 1 : -1 }
            let (value, length) = scalar(at: pos)
            return classes[index].contains(value) ? pos + length : -1
        }
    }

    @inline(__always)
    package static func length(leadingByte b: UInt8) -> Int {
        b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    }

    /// Group `group`'s text again at `pos`: where it ends, or -1 (also when the group has not matched).
    package func backReference(_ group: Int, _ mode: RegexCaseMode, at pos: Int) -> Int {
        guard 2 * group + 1 < registers.count else { return -1 }
        let start = registers[2 * group], end = registers[2 * group + 1]
        guard start >= 0, end >= start else { return -1 }
        if mode == .exact {
            let length = end - start
            guard pos + length <= text.count else { return -1 }
            for k in 0..<length where text[start + k] != text[pos + k] { return -1 }
            return pos + length
        }
        var a = start, b = pos
        while a < end {
            guard b < text.count else { return -1 }
            let (x, xl) = scalar(at: a), (y, yl) = scalar(at: b)
            guard RegexCaseFolding.equal(x, y, mode) else { return -1 }
            a += xl
            b += yl
        }
        return b
    }
}
