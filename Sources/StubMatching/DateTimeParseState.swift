/// Reading a text with a ``DateTimePattern``: the position and the fields read so far, then Java's smart
/// resolution into a ``DateTimeValue``.
struct DateTimeParseState {
    private let bytes: [UInt8]
    private var position = 0
    private var fields: [DateTimePattern.Field: Int] = [:]
    private var nanos = 0
    private var monthName: Int?
    private var weekday: Int?
    private var pm: Bool?
    private var offset: Int?
    private var zone: String?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position == bytes.count }

    /// Reads every piece in turn; an optional section that does not fit is skipped, leaving no trace.
    mutating func read(_ pieces: [DateTimePattern.Piece]) -> Bool {
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .literal(let text):
                guard readLiteral(text) else { return false }
            case let .number(field, minimum, maximum, reducedBase):
                let reserved = minimum == maximum ? 0 : Self.reservedWidth(after: index, in: pieces)
                guard let value = number(minimum: minimum, maximum: maximum, reserved: reserved) else { return false }
                let resolved = reducedBase.map { $0 + value } ?? value
                if let earlier = fields[field], earlier != resolved { return false }
                fields[field] = resolved
            case .fraction(let digits):
                guard position + digits <= bytes.count,
                    let value = number(minimum: digits, maximum: digits, reserved: 0)
                else { return false }
                var scaled = value
                for _ in digits..<9 { scaled *= 10 }
                nanos = scaled
            case let .text(field, full):
                guard readText(field, full: full) else { return false }
            case let .offset(style, zulu):
                guard let value = readOffset(style, zulu: zulu) else { return false }
                offset = value
            case .localizedOffset:
                guard readLiteral("GMT") else { return false }
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
                {
                    guard let value = readOffset(.hoursColonMinutes, zulu: false) else { return false }
                    offset = value
                } else {
                    offset = 0
                }
            case .zoneName:
                let start = position
                while position < bytes.count, Self.isZoneByte(bytes[position]) { position += 1 }
                guard position > start else { return false }
                zone = String(decoding: bytes[start..<position], as: UTF8.self)
            case .optional(let section):
                var attempt = self
                if attempt.read(section) { self = attempt }
            }
        }
        return true
    }

    /// The digits the fixed-width numbers right after `index` need (Java's adjacent value parsing).
    private static func reservedWidth(after index: Int, in pieces: [DateTimePattern.Piece]) -> Int {
        var width = 0
        for piece in pieces[(index + 1)...] {
            switch piece {
            case let .number(_, minimum, maximum, _) where minimum == maximum: width += minimum
            case .fraction(let digits): width += digits
            case .number, .literal, .text, .offset, .localizedOffset, .zoneName, .optional: return width
            }
        }
        return width
    }

    private mutating func number(minimum: Int, maximum: Int, reserved: Int) -> Int? {
        var end = position
        while end < bytes.count, end - position < maximum + reserved, bytes[end] >= 0x30, bytes[end] <= 0x39 {
            end += 1
        }
        let available = min(maximum, end - position - reserved)
        guard available >= minimum else { return nil }
        var value = 0
        for byte in bytes[position..<position + available] {
            let (product, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = product + Int(byte - 0x30)
        }
        position += available
        return value
    }

    private mutating func readLiteral(_ text: String) -> Bool {
        guard bytes[position...].starts(with: text.utf8) else { return false }
        position += text.utf8.count
        return true
    }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December"
    ]
    private static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let shortMonths = months.map { String($0.prefix(3)) }
    private static let shortWeekdays = weekdays.map { String($0.prefix(3)) }
    private static let amPm = ["AM", "PM"]

    private mutating func readText(_ field: DateTimePattern.TextField, full: Bool) -> Bool {
        let names: [String]
        switch field {
        case .month: names = full ? Self.months : Self.shortMonths
        case .weekday: names = full ? Self.weekdays : Self.shortWeekdays
        case .amPm: names = Self.amPm
        }
        guard let index = names.firstIndex(where: { readLiteral($0) }) else { return false }
        switch field {
        case .month: monthName = index + 1
        case .weekday: weekday = index
        case .amPm: pm = index == 1
        }
        return true
    }

    /// `+HH[mm]` (minutes optional), `+HHMM`, `+HH:MM`, or `Z` when `zulu`; at most 18 hours.
    private mutating func readOffset(_ style: DateTimePattern.OffsetStyle, zulu: Bool) -> Int? {
        if zulu, readLiteral("Z") { return 0 }
        guard position < bytes.count else { return nil }
        let sign: Int
        switch bytes[position] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        position += 1
        guard let hours = number(minimum: 2, maximum: 2, reserved: 0) else { return nil }
        var minutes = 0
        switch style {
        case .hoursMinutesOptional:
            if let value = number(minimum: 2, maximum: 2, reserved: 0) { minutes = value }
        case .hoursMinutes:
            guard let value = number(minimum: 2, maximum: 2, reserved: 0) else { return nil }
            minutes = value
        case .hoursColonMinutes:
            guard readLiteral(":"), let value = number(minimum: 2, maximum: 2, reserved: 0) else { return nil }
            minutes = value
        }
        guard minutes < 60, hours * 3600 + minutes * 60 <= 18 * 3600 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func isZoneByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: ":"):
            return true
        default: return false
        }
    }

    /// Java's smart resolution: a date needs year, month and day (a day past the month's end is its last);
    /// a time needs an hour; a zoned value needs a time and an offset or zone.
    func resolved(defaultOffset: Int?) -> DateTimeValue? {
        guard let year = fields[.year], let month = fields[.month] ?? monthName, let day = fields[.day],
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        if let monthName, monthName != month { return nil }
        let clampedDay = min(day, DateTimeValue.daysInMonth(year: year, month: month))
        let days = DateTimeValue.days(year: year, month: month, day: clampedDay)
        if let weekday, Int(((days % 7) + 7 + 3) % 7) != weekday { return nil }
        guard let hour = resolvedHour() else {
            return DateTimeValue(year: year, month: month, day: clampedDay, seconds: 0, nanos: 0, offset: nil)
        }
        let minute = fields[.minute] ?? 0, second = fields[.second] ?? 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        let local = DateTimeValue(
            year: year, month: month, day: clampedDay, seconds: hour * 3600 + minute * 60 + second, nanos: nanos,
            offset: nil)
        if let zone { return DateTimeZones.value(local, inZone: zone) }
        guard let offset = offset ?? defaultOffset else { return local }
        return DateTimeValue(civilSeconds: local.civilSeconds, nanos: local.nanos, offset: offset)
    }

    /// The hour of the day from `H`, `k`, or `h`/`K` with `a`; `nil` when there is none (or a 12-hour clock
    /// without AM/PM, which Java cannot resolve); 24 (invalid) for an out-of-range value.
    private func resolvedHour() -> Int? {
        if let hour = fields[.hour24] { return hour }
        if let hour = fields[.clockHour24] { return hour == 24 ? 0 : hour == 0 ? 24 : hour }
        guard let pm else { return nil }
        if let hour = fields[.hour12] { return hour < 12 ? hour + (pm ? 12 : 0) : 24 }
        if let hour = fields[.clockHour12] {
            guard (1...12).contains(hour) else { return 24 }
            return hour % 12 + (pm ? 12 : 0)
        }
        return nil
    }
}
