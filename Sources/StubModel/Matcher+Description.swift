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
