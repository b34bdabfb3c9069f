/// The random source of `randomValue`: SplitMix64 seeded once per response from the system generator,
/// so a long random value costs no system call per character.
struct TemplateRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    init() {
        var system = SystemRandomNumberGenerator()
        state = system.next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static let alphanumeric = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let alphabetic = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    private static let numeric = Array("0123456789".utf8)
    private static let hexadecimal = Array("0123456789abcdef".utf8)
    private static let symbols = Array((33...126).map { UInt8($0) })

    /// `length` characters of `type` (lower-case letters unless `uppercase`); `UUID` ignores `length`.
    mutating func value(type: RandomValueType, length: Int, uppercase: Bool) -> String {
        let alphabet: [UInt8]
        switch type {
        case .UUID: return uuid()
        case .ALPHANUMERIC: alphabet = Self.alphanumeric
        case .ALPHABETIC: alphabet = Self.alphabetic
        case .NUMERIC: alphabet = Self.numeric
        case .HEXADECIMAL: alphabet = Self.hexadecimal
        case .ALPHANUMERIC_AND_SYMBOLS: alphabet = Self.symbols
        }
        var out: [UInt8] = []
        out.reserveCapacity(length)
        for _ in 0..<length {
            var byte = alphabet[Int(next() % UInt64(alphabet.count))]
            if uppercase, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { byte -= 0x20 }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A version 4 UUID, lower case.
    mutating func uuid() -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = next()
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
