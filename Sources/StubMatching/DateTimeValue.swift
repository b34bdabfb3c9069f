import StubModel

/// A date-time as WireMock's date matchers read one: civil fields (proleptic Gregorian) and, for a zoned value,
/// its offset from UTC; a local value (`2021-06-14T12:13:14`, `2021-06-14`) has none.
package struct DateTimeValue: Sendable, Equatable {
    /// Seconds from 1970-01-01T00:00:00 of the civil (wall-clock) date-time.
    var civilSeconds: Int64
    /// 0 ..< 1_000_000_000.
    var nanos: Int
    /// Seconds east of UTC; `nil` for a local date-time.
    var offset: Int?

    /// The instant, in seconds from the epoch: the civil time less the offset (a local value is read as UTC,
    /// as the JVM's default zone of a server in UTC reads it).
    var instantSeconds: Int64 { civilSeconds - Int64(offset ?? 0) }

    /// The longest text read as a date-time.
    static let maxLength = 64

    /// `2021-06-14T12:13:14Z`, `…+02:00[Europe/Paris]` (ISO zoned), `2021-06-14T12:13:14` (ISO local),
    /// `2021-06-14` (the day's start, local), RFC 1123 `Mon, 14 Jun 2021 12:13:14 GMT`, RFC 1036
    /// `Monday, 14-Jun-21 12:13:14 GMT` or asctime `Mon Jun 14 12:13:14 2021` (GMT), in WireMock's order.
    package static func parse(_ text: String) -> DateTimeValue? {
        guard text.utf8.count <= maxLength else { return nil }
        var scanner = DateTimeScanner(text)
        if let value = scanner.iso() { return value }
        scanner = DateTimeScanner(text)
        if let value = scanner.rfc1123() { return value }
        return DateTimePattern.rfc1036.parse(text) ?? DateTimePattern.asctime.lazy.compactMap { $0.parse(text) }.first
    }

    init(civilSeconds: Int64, nanos: Int, offset: Int?) {
        self.civilSeconds = civilSeconds
        self.nanos = nanos
        self.offset = offset
    }

    init(year: Int, month: Int, day: Int, seconds: Int, nanos: Int, offset: Int?) {
        civilSeconds = Self.days(year: year, month: month, day: day) * 86_400 + Int64(seconds)
        self.nanos = nanos
        self.offset = offset
    }

    /// `(year, month, day, second of day)` of the civil time.
    var civil: (year: Int, month: Int, day: Int, second: Int) {
        let days = civilSeconds >= 0 ? civilSeconds / 86_400 : (civilSeconds - 86_399) / 86_400
        let (year, month, day) = Self.date(days: days)
        return (year, month, day, Int(civilSeconds - days * 86_400))
    }

    /// Days from 1970-01-01 (Howard Hinnant's days_from_civil).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * Int64(month > 2 ? month - 3 : month + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of `days` from 1970-01-01 (civil_from_days).
    static func date(days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        return (Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The value moved by `offset`: seconds to days exactly, months and years on the calendar with the day
    /// clamped to the month's length (Java's `plusMonths`).
    func shifted(by offset: DateTimeOffset) -> DateTimeValue {
        var result = self
        let amount = Int64(offset.amount)
        switch offset.unit {
        case .seconds: result.civilSeconds += amount
        case .minutes: result.civilSeconds += amount * 60
        case .hours: result.civilSeconds += amount * 3600
        case .days: result.civilSeconds += amount * 86_400
        case .months, .years:
            let (year, month, day, second) = civil
            let months = Int64(year) * 12 + Int64(month - 1) + (offset.unit == .months ? amount : amount * 12)
            let newYear = Int(months >= 0 ? months / 12 : (months - 11) / 12)
            let newMonth = Int(months - Int64(newYear) * 12) + 1
            let newDay = min(day, Self.daysInMonth(year: newYear, month: newMonth))
            result = DateTimeValue(
                year: newYear, month: newMonth, day: newDay, seconds: second, nanos: nanos, offset: self.offset)
        }
        return result
    }

    /// The value truncated in its own offset, as WireMock's `DateTimeTruncation`.
    func truncated(_ truncation: DateTimeTruncation) -> DateTimeValue {
        let (year, month, day, second) = civil
        func at(_ y: Int, _ m: Int, _ d: Int, _ s: Int = 0) -> DateTimeValue {
            DateTimeValue(year: y, month: m, day: d, seconds: s, nanos: 0, offset: offset)
        }
        switch truncation {
        case .firstSecondOfMinute: return at(year, month, day, second / 60 * 60)
        case .firstMinuteOfHour: return at(year, month, day, second / 3600 * 3600)
        case .firstHourOfDay: return at(year, month, day)
        case .firstDayOfMonth: return at(year, month, 1)
        case .firstDayOfNextMonth: return month == 12 ? at(year + 1, 1, 1) : at(year, month + 1, 1)
        case .lastDayOfMonth: return at(year, month, Self.daysInMonth(year: year, month: month))
        case .firstDayOfYear: return at(year, 1, 1)
        case .firstDayOfNextYear: return at(year + 1, 1, 1)
        case .lastDayOfYear: return at(year, 12, 31)
        }
    }

    /// `2021-06-14T12:13:14Z`, `2021-06-14T12:13:14.5+02:00`, `2021-06-14T12:13:14` (local).
    var isoText: String {
        let (year, month, day, second) = civil
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text =
            "\(year)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))"
        if nanos > 0 {
            var fraction = String(nanos)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        guard let offset else { return text }
        if offset == 0 { return text + "Z" }
        let magnitude = abs(offset)
        return text + (offset < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude / 60 % 60)
    }
}
