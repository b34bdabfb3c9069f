import StubModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``DateTimeMatcher`` with its literal parsed once; a `now` form is worked out on each request, in UTC.
struct CompiledDateTimeMatcher: Sendable {
    let source: DateTimeMatcher
    private let literal: DateTimeValue?
    private let nowOffset: DateTimeOffset?
    private let format: ActualDateFormat?

    /// - Parameter compiled: the date formats the loader read, taken instead of reading them again.
    init(_ source: DateTimeMatcher, reusing compiled: CompiledMatchers? = nil) {
        self.source = source
        format = source.actualFormat.map { compiled?.actualFormat($0) ?? ActualDateFormat($0) }
        switch DateTimeMatcher.nowOffset(in: source.expected) {
        case .some(let offset):
            // A now form WireMock refuses never gets here from a stub file; from Swift it matches nothing.
            nowOffset = offset.map { source.expectedOffset ?? $0 }
            literal = nil
        case .none:
            nowOffset = nil
            literal = DateTimeValue.parse(source.expected)
        }
    }

    /// The date-time the value is compared with, now; `nil` if the operand is not one.
    func expected(now: Date = Date()) -> DateTimeValue? {
        if let literal { return literal }
        guard let nowOffset else { return nil }
        let seconds = now.timeIntervalSince1970.rounded(.down)
        let nanos = Int(((now.timeIntervalSince1970 - seconds) * 1e9).rounded(.down))
        var value = DateTimeValue(civilSeconds: Int64(seconds), nanos: max(0, min(nanos, 999_999_999)), offset: 0)
        if let truncation = source.truncateExpected { value = value.truncated(truncation) }
        return value.shifted(by: nowOffset)
    }

    /// The value read as a date-time, truncated as asked when it is zoned (WireMock truncates only those).
    func actual(_ text: String?) -> DateTimeValue? {
        guard let text else { return nil }
        let parsed = format.map { $0.parse(text) } ?? DateTimeValue.parse(text)
        guard let value = parsed else { return nil }
        guard value.offset != nil, let truncation = source.truncateActual else { return value }
        return value.truncated(truncation)
    }

    /// Whether `text` satisfies the matcher: a zoned expected value compares instants (a local value read as
    /// UTC), a local one compares wall-clock times (a zoned value at its own offset).
    func isSatisfied(by text: String?, now: Date = Date()) -> Bool {
        guard let actual = actual(text), let expected = expected(now: now) else { return false }
        return Self.holds(source.comparison, actual, expected)
    }

    static func holds(_ comparison: DateTimeMatcher.Comparison, _ actual: DateTimeValue, _ expected: DateTimeValue)
        -> Bool
    {
        let zoned = expected.offset != nil
        let a = (zoned ? actual.instantSeconds : actual.civilSeconds, actual.nanos)
        let e = (zoned ? expected.instantSeconds : expected.civilSeconds, expected.nanos)
        switch comparison {
        case .before: return a < e
        case .after: return a > e
        case .equalToDateTime: return a == e
        }
    }

    /// 0 when satisfied; 1 when the value is absent or not a date-time; else the years between the two over
    /// 100 (WireMock's distance), at least 0.01.
    func distance(_ text: String?, now: Date = Date()) -> Double {
        guard let actual = actual(text), let expected = expected(now: now) else { return 1 }
        if Self.holds(source.comparison, actual, expected) { return 0 }
        let years = Double(abs(actual.instantSeconds - expected.instantSeconds)) / (365.2425 * 86_400)
        return max(0.01, min(1, years.rounded(.down) / 100))
    }

    /// `"x" is not a date-time` or `2021-06-14T12:13:14Z is not before 2020-01-01T00:00:00Z`.
    func explain(_ text: String?, now: Date = Date()) -> [String] {
        guard let text else { return [] }
        guard let actual = actual(text) else {
            let format = source.actualFormat.map { " in the format " + Quoting.quote($0, limit: 64) } ?? ""
            return [Quoting.quote(text, limit: 64) + " is not a date-time" + format]
        }
        guard let expected = expected(now: now) else {
            return [Quoting.quote(source.expected, limit: 64) + " is not a date-time, so nothing matches"]
        }
        if Self.holds(source.comparison, actual, expected) { return [] }
        let relation =
            switch source.comparison {
            case .before: "before"
            case .after: "after"
            case .equalToDateTime: "equal to"
            }
        return ["\(actual.isoText) is not \(relation) \(expected.isoText)"]
    }
}
