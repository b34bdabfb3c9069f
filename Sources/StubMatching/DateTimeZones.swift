#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Zone names in date-times (`GMT`, `UTC`, `CEST`, `Europe/Paris`), read with the system's time zone data.
enum DateTimeZones {
    /// The zone `name` names: `UTC`, `GMT`, `UT` and `Z` are UTC; then a region id, then an abbreviation.
    static func zone(_ name: String) -> TimeZone? {
        switch name {
        case "UTC", "GMT", "UT", "Z": return TimeZone(secondsFromGMT: 0)
        default: return TimeZone(identifier: name) ?? TimeZone(abbreviation: name)
        }
    }

    /// A local date-time read in the zone `name`, with the offset the zone has then; `nil` for an unknown zone.
    static func value(_ local: DateTimeValue, inZone name: String) -> DateTimeValue? {
        guard let zone = zone(name) else { return nil }
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local.civilSeconds)))
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local.civilSeconds - Int64(guess))))
        return DateTimeValue(civilSeconds: local.civilSeconds, nanos: local.nanos, offset: offset)
    }

    /// The same instant as `zoned`, seen in the region `name` (`…+02:00[Europe/Paris]`); `nil` for an unknown one.
    static func value(_ zoned: DateTimeValue, atRegion name: String) -> DateTimeValue? {
        guard let zone = zone(name) else { return nil }
        let instant = zoned.instantSeconds
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        return DateTimeValue(civilSeconds: instant + Int64(offset), nanos: zoned.nanos, offset: offset)
    }
}
