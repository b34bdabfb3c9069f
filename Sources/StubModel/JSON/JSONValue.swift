/// A JSON document as parsed from a stub file: object keys keep their order, numbers keep their
/// source text so `1.0` and `1` stay as written.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, kept as its literal text (e.g. `"200"`, `"1.5e3"`).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// An object; keys in source order. Duplicate keys are rejected by the parser.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.null, _), (.bool, _), (.number, _), (.string, _), (.array, _), (.object, _): false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case let .bool(b): hasher.combine(b)
        case let .number(n): hasher.combine(n)
        case let .string(s): hasher.combine(s)
        case let .array(a): hasher.combine(a)
        case let .object(o):
            hasher.combine(o.count)
            for (k, v) in o { hasher.combine(k); hasher.combine(v) }
        }
    }

    /// The value for `key` if this is an object containing it.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The numeric value of a `.number`, if representable as a Double.
    public var doubleValue: Double? {
        guard case let .number(text) = self else { return nil }
        return Double(text)
    }
}

/// String interpolation in JSON literals: `"Hello, \(name)"` is a JSON string.
///
/// ```swift
/// server.stub(.get("/greeting"), .json(["message": "Hello, \(login)", "avatar": "\(base)/u/\(id)"]))
/// ```
extension JSONValue: ExpressibleByStringInterpolation {
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .string(String(stringInterpolation: stringInterpolation))
    }
}
