/// Literal conformances so Swift code can write JSON directly:
///
/// ```swift
/// let user: JSONValue = ["login": "octocat", "followers": 20, "site_admin": false, "bio": nil]
/// ```
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(floatLiteral value: Double) { self.init(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }

    /// An object in the literal's order. A repeated key replaces the earlier value in place, so the
    /// result never holds duplicate keys.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(orderedMembers: elements)
    }
}

extension JSONValue {
    /// A string value.
    public init(_ value: String) { self = .string(value) }
    /// An integer number.
    public init<Integer: BinaryInteger>(_ value: Integer) { self = .number(String(value)) }
    /// A floating-point number; `null` if `value` is NaN or infinite, which JSON cannot represent.
    public init(_ value: Double) { self = value.isFinite ? .number(String(value)) : .null }
    /// A boolean.
    public init(_ value: Bool) { self = .bool(value) }
    /// An array.
    public init(_ elements: [JSONValue]) { self = .array(elements) }

    /// An object from ordered `(key, value)` pairs; a repeated key replaces the earlier value in place.
    public init(orderedMembers pairs: some Sequence<(String, JSONValue)>) {
        var members: [(key: String, value: JSONValue)] = []
        var positions: [String: Int] = [:]
        for (key, value) in pairs {
            if let position = positions[key] {
                members[position].value = value
            } else {
                positions[key] = members.count
                members.append((key, value))
            }
        }
        self = .object(members)
    }

    /// The string of a `.string`, else `nil`.
    public var stringValue: String? {
        guard case let .string(text) = self else { return nil }
        return text
    }

    /// The integer of a `.number` written as an integer literal (`200`, not `200.0`), else `nil`.
    public var intValue: Int? {
        guard case let .number(text) = self else { return nil }
        return Int(text)
    }
}
