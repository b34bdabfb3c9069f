import StubHTTP

extension StringMatcher: CustomStringConvertible {
    /// The matcher as people read it in mismatch reports: `equalTo "octocat"`,
    /// `equalTo "json" (case-insensitive)`, `contains "x"`, `matches "^/users/[a-z]+$"`, `absent`,
    /// `equalToJson {"a":1} (ignoring array order)`, `matchesJsonPath "$.a" equalTo "1"`,
    /// `and [contains "a", doesNotContain "b"]`, `not (equalTo "x")`.
    public var description: String {
        switch self {
        case let .equalTo(value, caseInsensitive):
            return "equalTo " + Quoting.quote(value) + (caseInsensitive ? " (case-insensitive)" : "")
        case let .contains(value): return "contains " + Quoting.quote(value)
        case let .matches(pattern): return "matches " + Quoting.quote(pattern)
        case let .doesNotMatch(pattern): return "doesNotMatch " + Quoting.quote(pattern)
        case .absent: return "absent"
        case let .equalToJson(json, order, extra):
            var flags: [String] = []
            if order { flags.append("array order") }
            if extra { flags.append("extra elements") }
            let suffix = flags.isEmpty ? "" : " (ignoring " + flags.joined(separator: ", ") + ")"
            return "equalToJson " + json.serialized() + suffix
        case let .matchesJsonPath(expression, nested):
            return "matchesJsonPath " + Quoting.quote(expression) + (nested.map { " " + $0.description } ?? "")
        case let .doesNotContain(value): return "doesNotContain " + Quoting.quote(value)
        case let .and(matchers): return "and [" + matchers.map(\.description).joined(separator: ", ") + "]"
        case let .or(matchers): return "or [" + matchers.map(\.description).joined(separator: ", ") + "]"
        case let .not(matcher): return "not (" + matcher.description + ")"
        case let .number(comparison, operand): return comparison.rawValue + " " + JavaNumber.text(operand)
        case let .dateTime(matcher): return matcher.description
        case let .binaryEqualTo(bytes):
            return "binaryEqualTo " + Quoting.quote(Base64.encode(bytes), limit: 64) + " (\(bytes.count) bytes)"
        case let .equalToXml(xml, options):
            var flags: [String] = []
            if options.enablePlaceholders { flags.append("placeholders") }
            if !options.exemptedComparisons.isEmpty {
                flags.append(
                    "exempting " + options.exemptedComparisons.map(\.rawValue).sorted().joined(separator: ", "))
            }
            return "equalToXml " + Quoting.quote(xml)
                + (flags.isEmpty ? "" : " (" + flags.joined(separator: "; ") + ")")
        case let .matchesJsonSchema(schema, version):
            return "matchesJsonSchema " + Quoting.quote(schema.serialized(), limit: 120)
                + (version == .v202012 ? "" : " (\(version.rawValue))")
        case let .matchesXPath(expression, _, nested):
            return "matchesXPath " + Quoting.quote(expression) + (nested.map { " " + $0.description } ?? "")
        }
    }
}

extension MultiValueMatcher: CustomStringConvertible {
    /// `equalTo "1"`, `hasExactly [equalTo "a", equalTo "b"]`, `includes [contains "x"]`.
    public var description: String {
        switch self {
        case let .single(matcher): matcher.description
        case let .hasExactly(matchers): "hasExactly [" + matchers.map(\.description).joined(separator: ", ") + "]"
        case let .includes(matchers): "includes [" + matchers.map(\.description).joined(separator: ", ") + "]"
        }
    }
}

extension URLMatcher: CustomStringConvertible {
    /// `url "/a?b=1"`, `urlPath "/a"`, `urlPattern "/a.*"`, `urlPathPattern "/a/.*"`, `urlPathTemplate "/u/{id}"`.
    public var description: String {
        switch self {
        case let .url(value): "url " + Quoting.quote(value)
        case let .urlPath(value): "urlPath " + Quoting.quote(value)
        case let .urlPattern(value): "urlPattern " + Quoting.quote(value)
        case let .urlPathPattern(value): "urlPathPattern " + Quoting.quote(value)
        case let .urlPathTemplate(value): "urlPathTemplate " + Quoting.quote(value)
        }
    }
}

extension DateTimeMatcher: CustomStringConvertible {
    /// `before "now +3 days"`, `after "2021-06-14T12:13:14Z" (truncateActual first day of month)`.
    public var description: String {
        var text = comparison.rawValue + " " + Quoting.quote(expected)
        var notes: [String] = []
        if let expectedOffset {
            notes.append("expectedOffset \(expectedOffset.amount) \(expectedOffset.unit.rawValue)")
        }
        if let truncateExpected { notes.append("truncateExpected " + truncateExpected.rawValue) }
        if let truncateActual { notes.append("truncateActual " + truncateActual.rawValue) }
        if let actualFormat { notes.append("actualFormat " + Quoting.quote(actualFormat, limit: 64)) }
        if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
        return text
    }
}
