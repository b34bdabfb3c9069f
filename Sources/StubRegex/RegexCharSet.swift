/// A set of Unicode scalars as Java's character classes build it: ranges, properties, union (`[a[b]]`),
/// intersection (`[a-z&&[^e]]`), negation and case folding.
package indirect enum RegexCharSet: Sendable {
    /// Sorted or not; each range is inclusive.
    case ranges([ClosedRange<UInt32>])
    case property(RegexProperty)
    case union([RegexCharSet])
    case intersection(RegexCharSet, RegexCharSet)
    case negated(RegexCharSet)
    /// Under `(?i)`: a scalar belongs if it or its other case does (ASCII letters only unless `unicode`).
    case caseFolded(RegexCharSet, unicode: Bool)

    package static func scalar(_ c: UInt32) -> RegexCharSet { .ranges([c...c]) }

    package func contains(_ c: UInt32) -> Bool {
        switch self {
        case let .ranges(ranges):
            for r in ranges where r.contains(c) { return true }
            return false
        case let .property(p): return p.contains(c)
        case let .union(sets):
            for s in sets where s.contains(c) { return true }
            return false
        case let .intersection(a, b): return a.contains(c) && b.contains(c)
        case let .negated(s): return !s.contains(c)
        case let .caseFolded(s, unicode):
            if s.contains(c) { return true }
            if unicode { return RegexCaseFolding.otherCases(of: c).contains { s.contains($0) } }
            guard let other = RegexCaseFolding.asciiOtherCase(c) else { return false }
            return s.contains(other)
        }
    }
}

/// A character class ready for matching: ASCII answers come from a 128-bit table built once, others from
/// the set's tree.
package struct RegexClass: Sendable {
    private let low: UInt64
    private let high: UInt64
    private let set: RegexCharSet

    package init(_ set: RegexCharSet) {
        self.set = set
        var low: UInt64 = 0, high: UInt64 = 0
        for c in UInt32(0)..<128 where set.contains(c) {
            if c < 64 { low |= 1 << UInt64(c) } else { high |= 1 << UInt64(c - 64) }
        }
        self.low = low
        self.high = high
    }

    @inline(__always)
    package func contains(_ c: UInt32) -> Bool {
        if c < 64 { return low & (1 << UInt64(c)) != 0 }
        if c < 128 { return high & (1 << UInt64(c - 64)) != 0 }
        return set.contains(c)
    }
}

/// Case mappings for `(?i)`: Java compares ASCII letters only, unless `UNICODE_CASE` (`(?iu)`) is set.
package enum RegexCaseFolding {
    package static func asciiOtherCase(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x41...0x5A: c + 0x20
        case 0x61...0x7A: c - 0x20
        default: nil
        }
    }

    /// The simple upper- and lowercase of `c` (and the lowercase of its uppercase), where each is one scalar.
    package static func otherCases(of c: UInt32) -> [UInt32] {
        guard let scalar = Unicode.Scalar(c) else { return [] }
        var result: [UInt32] = []
        let upper = single(scalar.properties.uppercaseMapping)
        if let upper, upper != c { result.append(upper) }
        if let lower = single(scalar.properties.lowercaseMapping), lower != c { result.append(lower) }
        if let upper, let u = Unicode.Scalar(upper), let lower = single(u.properties.lowercaseMapping), lower != c,
            !result.contains(lower)
        {
            result.append(lower)
        }
        return result
    }

    /// Whether `a` and `b` are equal under `mode`.
    @inline(__always)
    package static func equal(_ a: UInt32, _ b: UInt32, _ mode: RegexCaseMode) -> Bool {
        if a == b { return true }
        switch mode {
        case .exact: return false
        case .ascii: return asciiOtherCase(a) == b
        case .unicode: return otherCases(of: a).contains(b)
        }
    }

    private static func single(_ s: String) -> UInt32? {
        var it = s.unicodeScalars.makeIterator()
        guard let first = it.next(), it.next() == nil else { return nil }
        return first.value
    }
}
