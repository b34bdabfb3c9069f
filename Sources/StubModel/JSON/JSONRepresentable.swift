/// A Swift value that stands for a JSON value, so variables can go straight into the JSON literals of
/// ``ResponseDefinition/json(_:status:)-(KeyValuePairs<String,JSONRepresentable>,_)`` and
/// ``RequestPattern/withJSONBody(_:ignoreArrayOrder:ignoreExtraElements:)-(JSONValue,_,_)``:
///
/// ```swift
/// let login = "octocat", followers = 20
/// server.stub(.get("/users/\(login)"), .json(["login": login, "followers": followers, "site_admin": false]))
/// ```
///
/// `String`, `Substring`, `Bool`, the integer and floating-point types, ``JSONValue``, and arrays,
/// `[String: …]` dictionaries and optionals of those conform (`nil` becomes `null`; a dictionary's
/// keys are written sorted, since it has no order of its own). A literal made only of literals is a
/// ``JSONValue``; one with variables uses this protocol, so a nested literal mixing types needs
/// `as JSONValue` when it holds only literals (`"owner": ["login": "x", "id": 1] as JSONValue`) and
/// `JSONValue([...])` when it holds variables
/// (`"owner": JSONValue(["login": login, "id": id])`); `null` is `JSONValue.null`.
public protocol JSONRepresentable {
    /// The value as JSON.
    var jsonValue: JSONValue { get }
}

extension JSONValue: JSONRepresentable {
    public var jsonValue: JSONValue { self }
}

extension String: JSONRepresentable {
    public var jsonValue: JSONValue { .string(self) }
}

extension Substring: JSONRepresentable {
    public var jsonValue: JSONValue { .string(String(self)) }
}

extension Bool: JSONRepresentable {
    public var jsonValue: JSONValue { .bool(self) }
}

extension JSONRepresentable where Self: BinaryInteger {
    /// The integer as a JSON number.
    public var jsonValue: JSONValue { JSONValue(self) }
}

extension Int: JSONRepresentable {}

extension Int64: JSONRepresentable {}

extension Int32: JSONRepresentable {}

extension UInt: JSONRepresentable {}

extension UInt64: JSONRepresentable {}

extension Double: JSONRepresentable {
    /// `null` if the value is NaN or infinite, which JSON cannot represent.
    public var jsonValue: JSONValue { JSONValue(self) }
}

extension Float: JSONRepresentable {
    /// `null` if the value is NaN or infinite, which JSON cannot represent.
    public var jsonValue: JSONValue { isFinite ? .number(String(self)) : .null }
}

extension Optional: JSONRepresentable where Wrapped: JSONRepresentable {
    /// The wrapped value, or `null`.
    public var jsonValue: JSONValue { self?.jsonValue ?? .null }
}

extension Array: JSONRepresentable where Element: JSONRepresentable {
    public var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

extension Dictionary: JSONRepresentable where Key == String, Value: JSONRepresentable {
    /// An object with the keys sorted, so the output does not change from run to run.
    public var jsonValue: JSONValue {
        .object(sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.jsonValue) })
    }
}

extension JSONValue {
    /// An object from `members` in their order, values given as Swift values or ``JSONValue``s:
    ///
    /// ```swift
    /// let body = JSONValue(["login": login, "followers": followers])
    /// ```
    /// A repeated key replaces the earlier value in place.
    public init(_ members: KeyValuePairs<String, any JSONRepresentable>) {
        self.init(orderedMembers: members.map { ($0.key, $0.value.jsonValue) })
    }

    /// An array of Swift values or ``JSONValue``s.
    public init(_ elements: [any JSONRepresentable]) {
        self = .array(elements.map(\.jsonValue))
    }
}
