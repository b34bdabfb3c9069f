/// `eq`/`neq` and `gt`/`gte`/`lt`/`lte`.
///
/// As Handlebars.java: numbers compare as numbers, strings as strings, and a string never equals a
/// number (`eq '1' 1` is false). Unlike WireMock 2.35.1, a request field (`request.query.n`) is its
/// first value as a string, so `eq request.query.n '1'` can be true (WireMock compares the list object
/// and is never equal), and `gt request.query.n 0` reads a numeric string as a number (WireMock: 500).
enum TemplateComparison {
    private enum Scalar {
        case missing, bool(Bool), number(Double), string(String)
    }

    private static func scalar(_ value: TemplateValue) -> Scalar {
        switch value {
        case .missing, .json(.null): .missing
        case let .bool(b), let .json(.bool(b)): .bool(b)
        case let .integer(i): .number(Double(i))
        case let .double(d): .number(d)
        case let .json(.number(text)): Double(text).map(Scalar.number) ?? .string(text)
        case .string, .json, .values, .list, .date, .map, .xml, .root, .request, .path, .fields, .body:
            .string(value.text)
        }
    }

    static func equal(_ lhs: TemplateValue, _ rhs: TemplateValue) -> Bool {
        switch (scalar(lhs), scalar(rhs)) {
        case (.missing, .missing): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case (.missing, _), (.bool, _), (.number, _), (.string, _): false
        }
    }

    /// Negative, zero or positive; nil when the two cannot be ordered (then every comparison is false).
    static func compare(_ lhs: TemplateValue, _ rhs: TemplateValue) -> Int? {
        switch (scalar(lhs), scalar(rhs)) {
        case let (.number(a), .number(b)): return a < b ? -1 : a > b ? 1 : 0
        case let (.string(a), .string(b)): return a < b ? -1 : a > b ? 1 : 0
        case let (.string(a), .number(b)): return Double(a).map { $0 < b ? -1 : $0 > b ? 1 : 0 }
        case let (.number(a), .string(b)): return Double(b).map { a < $0 ? -1 : a > $0 ? 1 : 0 }
        case let (.bool(a), .bool(b)): return a == b ? 0 : (a ? 1 : -1)
        case (.missing, _), (.bool, _), (.number, _), (.string, _): return nil
        }
    }
}
