import StubMatching
import StubModel

/// Decoding of `before`, `after` and `equalToDateTime` with their modifiers.
extension MappingDecoder.Run {
    static let dateTimeModifiers = ["expectedOffset", "expectedOffsetUnit", "truncateExpected", "truncateActual"]

    /// `{"before": "now +3 days", "truncateActual": "first day of month"}` and friends; `nil` (recorded as
    /// unsupported: the stub never matches) with an `actualFormat` pattern letter stubserver does not read.
    mutating func decodeDateTime(
        _ comparison: DateTimeMatcher.Comparison, _ value: JSONValue, in json: JSONValue,
        ignoring ignored: [String], at path: MappingPath
    ) throws(StubsLoadError) -> StringMatcher? {
        let operandPath = path.key(comparison.rawValue)
        guard case .object(let members) = json else { return nil }
        try checkFields(
            members, at: path, supported: [comparison.rawValue, "actualFormat"] + Self.dateTimeModifiers,
            silent: Set(ignored).union(Self.matcherModifiers.map(\.key)))
        guard case .string(let expected) = value else {
            throw failure(
                operandPath,
                "expected a date-time string such as \"now +3 days\" or \"2021-06-14T12:13:14Z\", "
                    + "found \(value.foundDescription)")
        }
        var matcher = DateTimeMatcher(comparison, expected)
        if let format = json["actualFormat"] {
            guard let actualFormat = try decodeActualFormat(format, at: path) else { return nil }
            matcher.actualFormat = actualFormat
        }
        switch DateTimeMatcher.nowOffset(in: expected) {
        case .some(nil):
            throw failure(
                operandPath,
                "expected \"now\", \"now +3 days\" or \"-1 hours\" (units: "
                    + DateTimeUnit.allCases.map(\.rawValue).joined(separator: ", ") + "), found \"\(expected)\"")
        case .some:
            matcher.expectedOffset = try decodeOffset(json, at: path)
        case .none:
            guard DateTimeValue.parse(expected) != nil else {
                throw failure(
                    operandPath,
                    "expected an ISO-8601 date-time such as \"2021-06-14T12:13:14Z\", \"2021-06-14T12:13:14\", "
                        + "\"2021-06-14\" or \"2021-06-14T12:13:14+02:00[Europe/Paris]\" (a zone the system knows), "
                        + "or \"now +3 days\", found \"\(expected)\"")
            }
        }
        matcher.truncateExpected = try truncation(json, "truncateExpected", at: path)
        matcher.truncateActual = try truncation(json, "truncateActual", at: path)
        return .dateTime(matcher)
    }

    /// `actualFormat`: `epoch`, `unix` or a `java.time` pattern; a pattern Java refuses is an error, one with a
    /// letter stubserver does not read is unsupported (`nil`: the stub never matches).
    private mutating func decodeActualFormat(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError)
        -> String?
    {
        let format = try string(json, at: path.key("actualFormat"))
        // The matcher's own reading of the format (``ActualDateFormat``), so what it cannot read is refused here;
        // the route table takes this reading (``CompiledMatchers``).
        guard case .unreadable(let problem) = compiled.actualFormat(format) else { return format }
        switch problem {
        case .invalid(let reason):
            throw failure(path.key("actualFormat"), "\(reason) in \"\(format)\"")
        case .unsupported(let letter):
            try unsupported(
                "actualFormat", at: path,
                alternatives: [
                    "a pattern of the letters y u M L d E a H k K h m s S X x Z z ('\(letter)' is not read)",
                    "\"epoch\"", "\"unix\""
                ])
            return nil
        }
    }

    /// `expectedOffset` with `expectedOffsetUnit`: both, or neither (WireMock uses them only together).
    private func decodeOffset(_ json: JSONValue, at path: MappingPath) throws(StubsLoadError) -> DateTimeOffset? {
        guard let amountJSON = json["expectedOffset"], let unitJSON = json["expectedOffsetUnit"] else { return nil }
        guard case .number(let text) = amountJSON, let amount = Int32(text) else {
            throw failure(path.key("expectedOffset"), "expected an integer, found \(amountJSON.foundDescription)")
        }
        let unitText = try string(unitJSON, at: path.key("expectedOffsetUnit"))
        guard let unit = DateTimeUnit(rawValue: unitText.lowercased()) else {
            throw failure(
                path.key("expectedOffsetUnit"),
                "expected one of " + DateTimeUnit.allCases.map(\.rawValue).joined(separator: ", ")
                    + ", found \"\(unitText)\"")
        }
        return DateTimeOffset(Int(amount), unit)
    }

    private func truncation(_ json: JSONValue, _ key: String, at path: MappingPath) throws(StubsLoadError)
        -> DateTimeTruncation?
    {
        guard let value = json[key] else { return nil }
        let text = try string(value, at: path.key(key))
        guard let truncation = DateTimeTruncation(name: text) else {
            throw failure(
                path.key(key),
                "expected one of " + DateTimeTruncation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    + ", found \"\(text)\"")
        }
        return truncation
    }
}
