#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Time zones that need no time-zone database: `UTC`, `GMT`, `Z` and Java's custom ids `GMT+2`, `GMT-05:30`,
/// `UTC+0530`. FoundationEssentials alone (the `Slim` build) knows no named zone, not even `UTC`, so `now timezone=`
/// falls back to these; with ICU (the default build) named zones such as `Europe/Paris` load too.
enum FixedOffsetZone {
    /// The zone named `id`: from the system's database when there is one, else a fixed offset; `nil` if neither.
    static func named(_ id: String) -> TimeZone? {
        if let zone = TimeZone(identifier: id) { return zone }
        return offsetSeconds(id).flatMap(TimeZone.init(secondsFromGMT:))
    }

    /// Seconds east of UTC for `UTC`, `GMT`, `Z`, `Etc/UTC` or `GMT`/`UTC` followed by `±H`, `±HH`, `±HH:MM`, `±HHMM`.
    static func offsetSeconds(_ id: String) -> Int? {
        let upper = id.uppercased()
        if ["UTC", "GMT", "Z", "UT", "ETC/UTC", "ETC/GMT"].contains(upper) { return 0 }
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
        var rest = Substring(upper.dropFirst(3))
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let digits: [Int]
        if let colon = rest.firstIndex(of: ":") {
            let hours = rest[..<colon], minutes = rest[rest.index(after: colon)...]
            guard (1...2).contains(hours.count), minutes.count == 2, let h = Int(hours), let m = Int(minutes) else {
                return nil
            }
            digits = [h, m]
        } else {
            guard rest.allSatisfy(\.isASCII), let value = Int(rest) else { return nil }
            switch rest.count {
            case 1, 2: digits = [value, 0]
            case 4: digits = [value / 100, value % 100]
            default: return nil
            }
        }
        guard digits[0] <= 23, digits[1] <= 59 else { return nil }
        let seconds = digits[0] * 3600 + digits[1] * 60
        return sign == "-" ? -seconds : seconds
    }
}
