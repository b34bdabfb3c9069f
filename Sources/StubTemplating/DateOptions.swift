#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options of `{{now}}`: a Java `SimpleDateFormat` pattern (or `epoch` / `unix`), an offset such as
/// `3 days` or `-2 hours`, and a time zone id. Checked when the template loads.
struct DateOptions: Sendable {
    struct Failure: Error { let message: String }

    enum Output: Sendable {
        /// No format: ISO 8601, `2026-12-01T10:15:30Z`.
        case iso
        /// Milliseconds since 1970.
        case epoch
        /// Seconds since 1970.
        case unix
        case pattern(JavaDateFormat)
    }

    enum OffsetUnit: String, Sendable {
        case seconds, minutes, hours, days, weeks, months, years
    }

    let output: Output
    let offset: (amount: Int, unit: OffsetUnit)?
    let timeZone: TimeZone?
    /// The time zone id as written (Foundation may report `UTC` as `GMT`).
    let timeZoneID: String?

    init(format: String?, offset: String?, timezone: String?) throws(Failure) {
        switch format {
        case nil: output = .iso
        case "epoch": output = .epoch
        case "unix": output = .unix
        case let pattern?: output = .pattern(try JavaDateFormat(pattern))
        }
        if let offset {
            let words = offset.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count == 2, let amount = Int(words[0]) else {
                throw Failure(message: "offset '\(offset)' is not 'N unit' (e.g. '3 days', '-2 hours')")
            }
            var unitName = words[1].lowercased()
            if !unitName.hasSuffix("s") { unitName += "s" }
            guard let unit = OffsetUnit(rawValue: unitName) else {
                throw Failure(
                    message:
                        "offset unit '\(words[1])' is not one of seconds, minutes, hours, days, weeks, months, years")
            }
            self.offset = (amount, unit)
        } else {
            self.offset = nil
        }
        timeZoneID = timezone
        if let timezone {
            guard let zone = FixedOffsetZone.named(timezone) else {
                #if Slim
                    throw Failure(
                        message:
                            "unknown time zone '\(timezone)' (this build, without ICU, knows UTC and offsets such as GMT+02:00 only; the default build knows every named zone)"
                    )
                #else
                    throw Failure(message: "unknown time zone '\(timezone)'")
                #endif
            }
            timeZone = zone
        } else {
            timeZone = nil
        }
    }

    /// `now` (milliseconds since 1970) shifted by the offset and written out.
    func render(nowMilliseconds: Int64) -> String {
        let shifted = applyOffset(nowMilliseconds)
        switch output {
        case .epoch: return String(shifted)
        case .unix: return String(shifted.floorDivided(by: 1000))
        case .iso:
            if let timeZone, timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(shifted) / 1000)) != 0 {
                return Self.isoWithOffset.format(shifted, zone: timeZone)
            }
            return Self.isoUTC.format(shifted, zone: nil)
        case let .pattern(format):
            return format.format(shifted, zone: timeZone, zoneID: timeZoneID)
        }
    }

    private static let isoUTC = (try? JavaDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'")) ?? JavaDateFormat.empty
    private static let isoWithOffset = (try? JavaDateFormat("yyyy-MM-dd'T'HH:mm:ssXXX")) ?? JavaDateFormat.empty

    private func applyOffset(_ milliseconds: Int64) -> Int64 {
        guard let (count, unit) = offset else { return milliseconds }
        let amount = Int64(count)
        switch unit {
        case .seconds: return milliseconds + amount * 1000
        case .minutes: return milliseconds + amount * 60_000
        case .hours: return milliseconds + amount * 3_600_000
        case .days: return milliseconds + amount * 86_400_000
        case .weeks: return milliseconds + amount * 7 * 86_400_000
        case .months, .years:
            // Calendar months in UTC, the day clamped to the new month's length (as java.util.Calendar).
            let days = milliseconds.floorDivided(by: 86_400_000)
            let timeOfDay = milliseconds - days * 86_400_000
            var date = CivilDate(daysSince1970: days)
            let months = unit == .years ? amount * 12 : amount
            let total = Int64(date.year) * 12 + Int64(date.month - 1) + months
            date.year = Int(total.floorDivided(by: 12))
            date.month = Int(total - Int64(date.year) * 12) + 1
            date.day = min(date.day, CivilDate.daysIn(month: date.month, year: date.year))
            return date.daysSince1970 * 86_400_000 + timeOfDay
        }
    }
}

extension Int64 {
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// A proleptic Gregorian date (Howard Hinnant's `civil_from_days` / `days_from_civil`).
struct CivilDate {
    var year: Int
    var month: Int
    var day: Int

    init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        month = Int(mp < 10 ? mp + 3 : mp - 9)
        year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    }

    var daysSince1970: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
