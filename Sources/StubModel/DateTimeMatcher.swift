/// `{"before": …}`, `{"after": …}` or `{"equalToDateTime": …}`: the value read as a date-time and compared with
/// an ISO-8601 date-time, or with the time of the request shifted (`"now +3 days"`), as WireMock 2.35.1 does.
public struct DateTimeMatcher: Sendable, Hashable {
    /// How the value compares with the expected date-time; the raw value is WireMock's operator.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        /// `before`: strictly earlier.
        case before
        /// `after`: strictly later.
        case after
        /// `equalToDateTime`: the same instant (or local date-time).
        case equalToDateTime
    }

    /// The comparison.
    public var comparison: Comparison
    /// The operand as written: `"2021-06-14T12:13:14Z"`, `"2021-06-14T12:13:14"`, `"2021-06-14"`, `"now"`,
    /// `"now +3 days"`, `"-1 hours"`.
    public var expected: String
    /// `expectedOffset` / `expectedOffsetUnit`: a shift of `now` that replaces the one in ``expected``.
    public var expectedOffset: DateTimeOffset?
    /// `truncateExpected`: `now` truncated before it is shifted.
    public var truncateExpected: DateTimeTruncation?
    /// `truncateActual`: the value truncated (in its own offset) before it is compared.
    public var truncateActual: DateTimeTruncation?
    /// `actualFormat`: how the value is read, a `java.time` pattern such as `"dd/MM/yyyy"` or
    /// `"yyyy-MM-dd HH:mm:ss Z"`, or `"epoch"` (milliseconds) or `"unix"` (seconds); `nil` reads ISO 8601,
    /// RFC 1123, RFC 1036 and asctime.
    public var actualFormat: String?

    /// A matcher comparing with `expected`, without offset or truncation.
    public init(
        _ comparison: Comparison, _ expected: String, expectedOffset: DateTimeOffset? = nil,
        truncateExpected: DateTimeTruncation? = nil, truncateActual: DateTimeTruncation? = nil,
        actualFormat: String? = nil
    ) {
        self.comparison = comparison
        self.expected = expected
        self.expectedOffset = expectedOffset
        self.truncateExpected = truncateExpected
        self.truncateActual = truncateActual
        self.actualFormat = actualFormat
    }
}

/// An amount of a ``DateTimeUnit``: `"+3 days"`, `expectedOffset: -1, expectedOffsetUnit: "hours"`.
public struct DateTimeOffset: Sendable, Hashable {
    /// Negative to go back in time.
    public var amount: Int
    /// The unit of ``amount``.
    public var unit: DateTimeUnit

    /// `amount` `unit`s.
    public init(_ amount: Int, _ unit: DateTimeUnit) {
        self.amount = amount
        self.unit = unit
    }
}

/// WireMock's `DateTimeUnit`: the raw value is its name in stub files (any case).
public enum DateTimeUnit: String, Sendable, Hashable, CaseIterable {
    /// Seconds.
    case seconds
    /// Minutes.
    case minutes
    /// Hours.
    case hours
    /// Days.
    case days
    /// Calendar months (the day clamped to the month's last).
    case months
    /// Calendar years (29 February clamped to 28).
    case years
}

/// WireMock's `DateTimeTruncation`: the raw value is its name in stub files (any case, spaces or underscores).
public enum DateTimeTruncation: String, Sendable, Hashable, CaseIterable {
    /// The start of the minute.
    case firstSecondOfMinute = "first second of minute"
    /// The start of the hour.
    case firstMinuteOfHour = "first minute of hour"
    /// The start of the day.
    case firstHourOfDay = "first hour of day"
    /// The start of the month's first day.
    case firstDayOfMonth = "first day of month"
    /// The start of next month's first day.
    case firstDayOfNextMonth = "first day of next month"
    /// The start of the month's last day.
    case lastDayOfMonth = "last day of month"
    /// The start of 1 January.
    case firstDayOfYear = "first day of year"
    /// The start of next year's 1 January.
    case firstDayOfNextYear = "first day of next year"
    /// The start of 31 December.
    case lastDayOfYear = "last day of year"

    /// `"first day of month"`, `"FIRST_DAY_OF_MONTH"`, … as WireMock's `fromString` reads them; `nil` otherwise.
    public init?(name: String) {
        let normalised = name.uppercased().replacing(" ", with: "_")
        guard
            let found = Self.allCases.first(where: { $0.rawValue.uppercased().replacing(" ", with: "_") == normalised })
        else { return nil }
        self = found
    }
}

extension DateTimeMatcher {
    /// How `expected` reads: a shift of the request's time (`"now"`, `"now +3 days"`, `"-1 hours"`), or a
    /// literal date-time; `nil` for a `now` form whose amount or unit WireMock rejects.
    package static func nowOffset(in expected: String) -> DateTimeOffset?? {
        if expected.lowercased() == "now" { return .some(DateTimeOffset(0, .seconds)) }
        let words = expected.split(separator: " ", omittingEmptySubsequences: false)
        let isNowForm = words.count == 3 && words[0].lowercased() == "now" || words.count == 2
        guard isNowForm, let amountWord = words.dropLast().last, let unitWord = words.last else { return .none }
        let digits = amountWord.drop { $0 == "+" || $0 == "-" }
        guard amountWord.count - digits.count <= 1, !digits.isEmpty, digits.allSatisfy(\.isASCII),
            digits.allSatisfy(\.isNumber), !unitWord.isEmpty, unitWord.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return .none }
        // A now form with an amount past Int32 or a unit WireMock does not know: WireMock refuses the stub.
        guard let amount = Int32(amountWord), let unit = DateTimeUnit(rawValue: unitWord.lowercased()),
            unitWord.uppercased() == unit.rawValue.uppercased()
        else { return .some(nil) }
        return .some(DateTimeOffset(Int(amount), unit))
    }
}
