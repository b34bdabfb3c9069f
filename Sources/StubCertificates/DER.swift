/// The DER encodings certificates and keys are made of (X.690): each function returns one whole element.
///
/// ```swift
/// let name = DER.sequence([DER.set([DER.sequence([DER.oid("2.5.4.3"), DER.utf8String("localhost")])])])
/// ```
enum DER {
    /// Tags of the universal class used here.
    enum Tag {
        static let boolean: UInt8 = 0x01
        static let integer: UInt8 = 0x02
        static let bitString: UInt8 = 0x03
        static let octetString: UInt8 = 0x04
        static let null: UInt8 = 0x05
        static let oid: UInt8 = 0x06
        static let utf8String: UInt8 = 0x0C
        static let printableString: UInt8 = 0x13
        static let ia5String: UInt8 = 0x16
        static let utcTime: UInt8 = 0x17
        static let generalizedTime: UInt8 = 0x18
        static let sequence: UInt8 = 0x30
        static let set: UInt8 = 0x31
    }

    /// A tag, its definite length and `content`.
    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var bytes = [tag]
        if content.count < 0x80 {
            bytes.append(UInt8(content.count))
        } else {
            var length = content.count
            var lengthBytes: [UInt8] = []
            while length > 0 {
                lengthBytes.insert(UInt8(length & 0xFF), at: 0)
                length >>= 8
            }
            bytes.append(0x80 | UInt8(lengthBytes.count))
            bytes += lengthBytes
        }
        return bytes + content
    }

    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { element(Tag.sequence, elements.flatMap { $0 }) }

    /// A SET OF, its elements sorted as DER requires.
    static func set(_ elements: [[UInt8]]) -> [UInt8] {
        element(Tag.set, elements.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// A non-negative INTEGER from its big-endian magnitude: leading zeros dropped, one zero put back when the top
    /// bit is set.
    static func integer(unsigned magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return element(Tag.integer, bytes)
    }

    static func integer(_ value: Int) -> [UInt8] {
        precondition(value >= 0)
        var magnitude: [UInt8] = []
        var rest = value
        while rest > 0 {
            magnitude.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return integer(unsigned: magnitude)
    }

    static func boolean(_ value: Bool) -> [UInt8] { element(Tag.boolean, [value ? 0xFF : 0x00]) }

    static let null: [UInt8] = [Tag.null, 0]

    /// An OBJECT IDENTIFIER from its dotted form (`1.2.840.10045.2.1`); the arcs must be valid.
    static func oid(_ dotted: String) -> [UInt8] {
        let arcs = dotted.split(separator: ".").map { UInt64($0)! }
        var content = base128(arcs[0] * 40 + arcs[1])
        for arc in arcs.dropFirst(2) { content += base128(arc) }
        return element(Tag.oid, content)
    }

    private static func base128(_ value: UInt64) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    static func utf8String(_ text: String) -> [UInt8] { element(Tag.utf8String, Array(text.utf8)) }

    static func printableString(_ text: String) -> [UInt8] { element(Tag.printableString, Array(text.utf8)) }

    static func ia5String(_ text: String) -> [UInt8] { element(Tag.ia5String, Array(text.utf8)) }

    /// A BIT STRING of whole bytes (no unused bits): keys and signatures.
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(Tag.bitString, [0] + bytes) }

    /// A BIT STRING of named bits (0 is the first byte's top bit), trailing zero bits dropped as DER requires.
    static func namedBits(_ bits: [Int]) -> [UInt8] {
        guard let highest = bits.max() else { return element(Tag.bitString, [0]) }
        var bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        return element(Tag.bitString, [UInt8(7 - highest % 8)] + bytes)
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(Tag.octetString, bytes) }

    /// `[number] EXPLICIT`: a constructed context tag around one whole element.
    static func explicit(_ number: UInt8, _ inner: [UInt8]) -> [UInt8] { element(0xA0 | number, inner) }

    /// `[number] IMPLICIT`: the context tag in place of the element's own, around `content`.
    static func implicit(_ number: UInt8, constructed: Bool = false, _ content: [UInt8]) -> [UInt8] {
        element((constructed ? 0xA0 : 0x80) | number, content)
    }

    /// UTCTime through 2049, GeneralizedTime from 2050 on (RFC 5280 §4.1.2.5), to the second, in UTC.
    static func time(secondsSince1970 seconds: Int64) -> [UInt8] {
        let civil = CivilTime(secondsSince1970: seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let rest = two(civil.month) + two(civil.day) + two(civil.hour) + two(civil.minute) + two(civil.second) + "Z"
        if civil.year < 2050 {
            return element(Tag.utcTime, Array((two(civil.year % 100) + rest).utf8))
        }
        return element(Tag.generalizedTime, Array((String(civil.year) + rest).utf8))
    }
}

/// A UTC date and time of the proleptic Gregorian calendar, from and to seconds since 1970 (Howard Hinnant's
/// `civil_from_days` and `days_from_civil`).
struct CivilTime: Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    init(secondsSince1970 seconds: Int64) {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
    }

    var secondsSince1970: Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }
}
