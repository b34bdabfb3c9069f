/// An incremental UTF-8 validator (RFC 3629, Unicode Table 3-7): bytes go in as they arrive, split anywhere,
/// and an invalid byte is reported at once: overlong encodings, surrogates (U+D800–U+DFFF), code points above
/// U+10FFFF, stray continuation bytes. A sequence cut short shows as ``isAtBoundary`` being `false` at the end.
package struct WebSocketUTF8Validator: Sendable, Hashable {
    /// Continuation bytes still expected for the current sequence.
    private var remaining = 0
    /// The range the next continuation byte must fall in (narrower than 0x80–0xBF after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    /// Whether an invalid byte was seen; sticky.
    private var failed = false

    /// A validator at the start of a text.
    package init() {}

    /// Validates `bytes`, continuing the sequence the previous call left open. Returns `false` once an invalid
    /// byte has been seen (in this call or before).
    package mutating func consume<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        guard !failed else { return false }
        for byte in bytes where !step(byte) {
            failed = true
            return false
        }
        return true
    }

    /// Whether the bytes so far end at a character boundary, with nothing invalid: a complete text.
    package var isAtBoundary: Bool { !failed && remaining == 0 }

    private mutating func step(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard byte >= lower, byte <= upper else { return false }
            remaining -= 1
            (lower, upper) = (0x80, 0xBF)
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: remaining = 1
        case 0xE0: (remaining, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED: (remaining, upper) = (2, 0x9F)
        case 0xF0: (remaining, lower) = (3, 0x90)
        case 0xF1...0xF3: remaining = 3
        case 0xF4: (remaining, upper) = (3, 0x8F)
        default: return false
        }
        return true
    }
}
