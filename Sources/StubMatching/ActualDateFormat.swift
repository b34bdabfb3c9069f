/// How a date matcher's `actualFormat` reads the value: milliseconds (`epoch`), seconds (`unix`), or a
/// ``DateTimePattern``; a pattern that cannot be compiled reads nothing (the loader refuses it, from the same
/// ``unreadable(_:)`` error).
package enum ActualDateFormat: Sendable {
    case epochMilliseconds
    case unixSeconds
    case pattern(DateTimePattern)
    /// The pattern does not compile, or uses a letter stubserver does not read: no value reads.
    case unreadable(DateTimePattern.Failure)

    /// `"epoch"` and `"unix"` in any case, as WireMock's `DateTimeParser.forFormat`; else a pattern.
    package init(_ format: String) {
        switch format.lowercased() {
        case "epoch": self = .epochMilliseconds
        case "unix": self = .unixSeconds
        default:
            do {
                self = .pattern(try DateTimePattern(format))
            } catch {
                self = .unreadable(error)
            }
        }
    }

    /// The value read, in UTC for `epoch` and `unix`; `nil` when it does not read (WireMock answers 500 to a
    /// non-number under `epoch`/`unix`, for every stub; here that value just does not match).
    func parse(_ text: String) -> DateTimeValue? {
        switch self {
        case .epochMilliseconds: return Int64(text).map(Self.utc(milliseconds:))
        case .unixSeconds:
            guard let seconds = Int64(text) else { return nil }
            let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
            return overflow ? nil : Self.utc(milliseconds: milliseconds)
        case .pattern(let pattern): return pattern.parse(text)
        case .unreadable: return nil
        }
    }

    private static func utc(milliseconds: Int64) -> DateTimeValue {
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let nanos = Int(milliseconds - seconds * 1000) * 1_000_000
        return DateTimeValue(civilSeconds: seconds, nanos: nanos, offset: 0)
    }
}
