/// Reads the date-time forms WireMock's date matchers accept: ISO-8601 (as `DateTimeFormatter`'s
/// `ISO_ZONED_DATE_TIME` with its `[Region/City]` suffix, `ISO_LOCAL_DATE_TIME`, `ISO_LOCAL_DATE`, strict) and
/// RFC 1123; RFC 1036 and asctime are ``DateTimePattern``s.
struct DateTimeScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    private var atEnd: Bool { position == bytes.count }

    private mutating func take(_ byte: Character) -> Bool {
        guard !atEnd, bytes[position] == byte.asciiValue else { return false }
        position += 1
        return true
    }

    /// Exactly `count` digits.
    private mutating func digits(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + count] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += count
        return value
    }

    private static func validDate(_ year: Int, _ month: Int, _ day: Int) -> Bool {
        (1...12).contains(month) && day >= 1 && day <= DateTimeValue.daysInMonth(year: year, month: month)
    }

    /// `yyyy-MM-dd`, then `THH:mm[:ss[.fraction]]` and an offset (`Z`, `±HH:MM[:SS]`), or nothing more.
    mutating func iso() -> DateTimeValue? {
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2),
            Self.validDate(year, month, day)
        else { return nil }
        if atEnd { return DateTimeValue(year: year, month: month, day: day, seconds: 0, nanos: 0, offset: nil) }
        guard take("T"), let hour = digits(2), hour < 24, take(":"), let minute = digits(2), minute < 60 else {
            return nil
        }
        var second = 0
        var nanos = 0
        if take(":") {
            guard let value = digits(2), value < 60 else { return nil }
            second = value
            if take(".") {
                var count = 0
                while count < 9, let digit = digits(1) {
                    nanos = nanos * 10 + digit
                    count += 1
                }
                guard count > 0 else { return nil }
                for _ in count..<9 { nanos *= 10 }
            }
        }
        let seconds = hour * 3600 + minute * 60 + second
        if atEnd {
            return DateTimeValue(year: year, month: month, day: day, seconds: seconds, nanos: nanos, offset: nil)
        }
        guard let offset = isoOffset() else { return nil }
        let value = DateTimeValue(year: year, month: month, day: day, seconds: seconds, nanos: nanos, offset: offset)
        if atEnd { return value }
        guard let region = bracketedRegion() else { return nil }
        return DateTimeZones.value(value, atRegion: region)
    }

    /// `[Europe/Paris]` at the end of the text: the name inside.
    private mutating func bracketedRegion() -> String? {
        guard take("["), let close = bytes[position...].firstIndex(of: UInt8(ascii: "]")), close == bytes.count - 1,
            close > position
        else { return nil }
        let name = String(decoding: bytes[position..<close], as: UTF8.self)
        position = bytes.count
        return name
    }

    /// `Z` or `±HH:MM[:SS]` (at most 18 hours).
    private mutating func isoOffset() -> Int? {
        if take("Z") { return 0 }
        let sign: Int
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = digits(2), take(":"), let minutes = digits(2), minutes < 60 else { return nil }
        var seconds = 0
        if take(":") {
            guard let value = digits(2), value < 60 else { return nil }
            seconds = value
        }
        let total = hours * 3600 + minutes * 60 + seconds
        guard total <= 18 * 3600 else { return nil }
        return sign * total
    }

    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }

    private mutating func word(_ words: [[UInt8]]) -> Int? {
        guard position + 3 <= bytes.count else { return nil }
        guard let index = words.firstIndex(where: { $0[...] == bytes[position..<position + 3] }) else { return nil }
        position += 3
        return index
    }

    /// `[Day, ]d MMM yyyy HH:mm[:ss] (GMT|±HHMM)`, as `DateTimeFormatter.RFC_1123_DATE_TIME`.
    mutating func rfc1123() -> DateTimeValue? {
        let weekday = word(Self.days)
        if weekday != nil {
            guard take(","), take(" ") else { return nil }
        }
        guard let first = digits(1) else { return nil }
        var day = first
        if let second = digits(1) { day = day * 10 + second }
        guard take(" "), let monthIndex = word(Self.months), take(" "), let year = digits(4), take(" "),
            Self.validDate(year, monthIndex + 1, day), let hour = digits(2), hour < 24, take(":"),
            let minute = digits(2), minute < 60
        else { return nil }
        var second = 0
        if take(":") {
            guard let value = digits(2), value < 60 else { return nil }
            second = value
        }
        guard take(" ") else { return nil }
        let offset: Int
        if take("G") {
            guard take("M"), take("T") else { return nil }
            offset = 0
        } else {
            let sign: Int
            if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
            guard let hours = digits(2), let minutes = digits(2), minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard atEnd else { return nil }
        // Java checks a day name against the date (WM: "Tue, 14 Jun 2021" is no date-time).
        let days = DateTimeValue.days(year: year, month: monthIndex + 1, day: day)
        if let weekday, Int(((days % 7) + 7 + 3) % 7) != weekday { return nil }
        return DateTimeValue(
            year: year, month: monthIndex + 1, day: day, seconds: hour * 3600 + minute * 60 + second, nanos: 0,
            offset: offset)
    }
}
