/// Numbers as WireMock's numeric matchers read them: Java's `Double.parseDouble`, and back to text.
package enum JavaNumber {
    /// The longest text parsed: a number longer than this is no number (a header is bounded anyway; a body
    /// is not, and parsing must not cost more than reading it once).
    static let maxLength = 1024

    /// `text` read as Java's `Double.parseDouble` reads it, or `nil` where Java throws: surrounding characters
    /// up to U+0020 are trimmed; then an optional sign and `NaN`, `Infinity`, a decimal (`1`, `1.`, `.5`,
    /// `1e-3`) or a hexadecimal (`0x1.8p1`) number, optionally ending in `f`, `F`, `d` or `D`.
    package static func parse(_ text: String) -> Double? {
        var bytes = Substring(text).utf8.drop { $0 <= 0x20 }
        while let last = bytes.last, last <= 0x20 { bytes = bytes.dropLast() }
        guard !bytes.isEmpty, bytes.count <= maxLength else { return nil }
        let body = bytes.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
        // One sign at most.
        guard bytes.count - body.count <= 1 else { return nil }
        let negative = bytes.first == UInt8(ascii: "-")
        if body.elementsEqual("NaN".utf8) { return .nan }
        if body.elementsEqual("Infinity".utf8) { return negative ? -.infinity : .infinity }
        var number = body
        if let last = number.last, Self.suffixes.contains(last) { number = number.dropLast() }
        let isHex = number.starts(with: "0x".utf8) || number.starts(with: "0X".utf8)
        guard isHex ? isHexadecimal(number.dropFirst(2)) : isDecimal(number) else { return nil }
        let literal = String(decoding: negative ? [UInt8(ascii: "-")] + Array(number) : Array(number), as: UTF8.self)
        return Double(literal)
    }

    /// The operand as a stub file and a report show it: `5`, `1.5`, `-0.25`, `1e+20`, `NaN`, `Infinity`.
    package static func text(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static let suffixes: Set<UInt8> = Set("fFdD".utf8)

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// Drops `digits [. digits]` (`digit` says what a digit is) from the front of `rest`; returns how many digits
    /// there were.
    private static func dropMantissa(
        from rest: inout Substring.UTF8View.SubSequence, digit: (UInt8) -> Bool
    ) -> Int {
        let whole = rest.prefix(while: digit).count
        rest = rest.dropFirst(whole)
        guard rest.first == UInt8(ascii: ".") else { return whole }
        rest = rest.dropFirst()
        let fraction = rest.prefix(while: digit).count
        rest = rest.dropFirst(fraction)
        return whole + fraction
    }

    /// `digits [. digits] [e [sign] digits]`, with at least one mantissa digit.
    private static func isDecimal(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        var rest = bytes[...]
        guard dropMantissa(from: &rest, digit: isDigit) > 0 else { return false }
        return isExponent(rest, marker: "e")
    }

    /// `hexdigits [. hexdigits] p [sign] digits` (Java requires the binary exponent).
    private static func isHexadecimal(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        var rest = bytes[...]
        guard dropMantissa(from: &rest, digit: isHexDigit) > 0, !rest.isEmpty else { return false }
        return isExponent(rest, marker: "p")
    }

    /// Empty, or the marker (either case), an optional sign and at least one digit, and nothing else.
    private static func isExponent(_ bytes: Substring.UTF8View.SubSequence, marker: Unicode.Scalar) -> Bool {
        guard let first = bytes.first else { return true }
        guard first | 0x20 == UInt8(ascii: marker) else { return false }
        var rest = bytes.dropFirst()
        if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        return !rest.isEmpty && rest.allSatisfy(isDigit)
    }
}
