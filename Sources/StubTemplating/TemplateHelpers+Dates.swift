import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// WireMock 2.35.1's `parseDate`, `truncateDate` and `date`, and Handlebars.java's `dateFormat`, over
/// ``TemplateValue/date(_:offsetSeconds:)`` values. A date written as text (`now`'s output) is read as
/// ISO 8601.
extension TemplateEvaluator {
    @inline(never)
    mutating func dateHelper(_ helper: DateHelper, _ arguments: [TemplateValue], _ call: TemplateCall)
        -> TemplateValue
    {
        func option(_ name: String) -> String? { call.option(name).map { evaluate($0).text } }
        let subject = arguments.first ?? .missing
        if case .missing = subject { return .missing }
        switch helper {
        case .parseDate:
            guard let (milliseconds, offset) = TemplateDateParsing.parse(subject.text, format: option("format")) else {
                return .missing
            }
            return .date(milliseconds, offsetSeconds: offset)
        case .dateFormat:
            // In UTC unless `tz=` (the offset a date was written with does not count, as in WireMock).
            guard let (milliseconds, _) = Self.instant(subject) else { return .missing }
            let pattern = arguments.count > 1 ? arguments[1].text : option("format") ?? "MMM d, yyyy"
            guard let format = try? JavaDateFormat(pattern) else {
                return fail("dateFormat: '\(pattern.prefix(60))' is not a date format stubserver knows")
            }
            let zone = option("tz").flatMap(FixedOffsetZone.named)
            return .string(format.format(milliseconds, zone: zone, zoneID: option("tz")))
        case .date:
            guard let (milliseconds, _) = Self.instant(subject) else { return .missing }
            guard
                let options = try? DateOptions(
                    format: option("format"), offset: option("offset"), timezone: option("timezone"))
            else { return fail("date: a format, offset or timezone stubserver does not know") }
            return .string(options.render(nowMilliseconds: milliseconds))
        case .truncateDate:
            guard let (milliseconds, offset) = Self.instant(subject) else {
                return .string("[ERROR: A date object must be passed to the truncateDate helper]")
            }
            let name = arguments.count > 1 ? arguments[1].text : ""
            // In the date's own offset, which the result keeps.
            let shift = Int64(offset ?? 0) * 1000
            guard let truncated = TemplateDates.truncate(milliseconds + shift, name).map({ $0 - shift }) else {
                return fail("truncateDate: No enum constant DateTimeTruncation.\(Self.enumName(name).prefix(60))")
            }
            return .date(truncated, offsetSeconds: offset)
        }
    }

    /// A date value, or text in ISO 8601 form (what `now` writes).
    private static func instant(_ value: TemplateValue) -> (Int64, Int?)? {
        if case let .date(milliseconds, offset) = value { return (milliseconds, offset) }
        return TemplateDateParsing.parse(value.text, format: nil)
    }

    private static func enumName(_ text: String) -> String {
        text.uppercased().split(separator: " ").joined(separator: "_")
    }
}

/// Rendering and truncating template dates.
enum TemplateDates {
    private static let isoUTC = (try? JavaDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'")) ?? JavaDateFormat.empty
    private static let isoWithOffset = (try? JavaDateFormat("yyyy-MM-dd'T'HH:mm:ssXXX")) ?? JavaDateFormat.empty

    /// WireMock's `ISO8601Utils.format(date, false, zone)`.
    static func iso(_ milliseconds: Int64, offsetSeconds: Int?) -> String {
        guard let offsetSeconds, offsetSeconds != 0, let zone = TimeZone(secondsFromGMT: offsetSeconds) else {
            return isoUTC.format(milliseconds, zone: nil)
        }
        return isoWithOffset.format(milliseconds, zone: zone)
    }

    /// WireMock's `DateTimeTruncation` (`first day of month`, …), in UTC; `nil` for an unknown name.
    static func truncate(_ milliseconds: Int64, _ name: String) -> Int64? {
        let days = milliseconds.floorDivided(by: 86_400_000)
        let date = CivilDate(daysSince1970: days)
        func start(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
            let total = year * 12 + (month - 1)
            let normalized = CivilDate(year: total / 12, month: total % 12 + 1, day: day)
            return normalized.daysSince1970 * 86_400_000
        }
        switch name.lowercased() {
        case "first minute of hour": return milliseconds.floorDivided(by: 3_600_000) * 3_600_000
        case "first hour of day": return days * 86_400_000
        case "first day of month": return start(date.year, date.month, 1)
        case "first day of next month": return start(date.year, date.month + 1, 1)
        case "last day of month":
            return start(date.year, date.month, CivilDate.daysIn(month: date.month, year: date.year))
        case "first day of year": return start(date.year, 1, 1)
        case "first day of next year": return start(date.year + 1, 1, 1)
        case "last day of year": return start(date.year, 12, 31)
        default: return nil
        }
    }
}

/// WireMock's date helpers (`date` is `now` over a given date) and Handlebars.java's `dateFormat`.
enum DateHelper: String, Sendable, CaseIterable, TemplateHelperFamily {
    case parseDate, dateFormat, truncateDate, date

    /// How many arguments the helper takes inline; used as a block, the body is the first one.
    var argumentCounts: ClosedRange<Int> {
        switch self {
        case .parseDate, .date: 1...2
        case .truncateDate: 2...2
        case .dateFormat: 1...3
        }
    }
}
