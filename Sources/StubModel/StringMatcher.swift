import StubXML

/// How one string value (a header, a query parameter, a cookie, the URL or the body) is matched.
/// Mirrors WireMock's "string value patterns".
public enum StringMatcher: Sendable, Hashable {
    /// `{"equalTo": "x", "caseInsensitive": true}`
    case equalTo(String, caseInsensitive: Bool)
    /// `{"contains": "x"}`
    case contains(String)
    /// `{"matches": "regex"}` — the whole value must match the regular expression.
    case matches(String)
    /// `{"doesNotMatch": "regex"}`
    case doesNotMatch(String)
    /// `{"absent": true}` — the value must not be present at all.
    case absent
    /// `{"equalToJson": ..., "ignoreArrayOrder": true, "ignoreExtraElements": true}` (bodies).
    case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool)
    /// `{"matchesJsonPath": "$.a.b"}` or `{"matchesJsonPath": {"expression": "$.a", "equalTo": "x"}}` (bodies).
    indirect case matchesJsonPath(String, StringMatcher?)
    /// `{"doesNotContain": "x"}` — the value does not contain the text; an absent value passes.
    case doesNotContain(String)
    /// `{"and": [m1, m2]}` — every matcher is satisfied.
    indirect case and([StringMatcher])
    /// `{"or": [m1, m2]}` — at least one matcher is satisfied.
    indirect case or([StringMatcher])
    /// `{"not": m}` — the matcher is not satisfied (an absent value passes `not` of a matcher it fails).
    indirect case not(StringMatcher)
    /// `{"equalToNumber": 5}`, `{"greaterThanNumber": 5}`, … (WireMock 3): the value, read as a decimal number
    /// as Java's `Double.parseDouble` reads it, compared with the operand; a value that is not a number, or is
    /// absent, never matches.
    case number(NumberComparison, Double)
    /// `{"binaryEqualTo": "base64"}` (bodies only): the body's bytes are exactly these (an empty operand
    /// matches an empty body).
    case binaryEqualTo([UInt8])
    /// `{"before": "now +3 days"}`, `{"after": "2021-06-14T12:13:14Z"}`, `{"equalToDateTime": …}` with their
    /// modifiers: the value read as a date-time and compared.
    case dateTime(DateTimeMatcher)
    /// `{"equalToXml": "<a/>", "enablePlaceholders": true, "exemptedComparisons": [...]}` (bodies): XML
    /// equal as WireMock 2.35.1 compares it (whitespace, comments, attribute order and the order of
    /// differently named elements do not matter).
    case equalToXml(String, XMLComparisonOptions)
    /// `{"matchesXPath": "/a/b", "xPathNamespaces": {"p": "urn:x"}}` or
    /// `{"matchesXPath": {"expression": "/a/b", "equalTo": "x"}}` (bodies): the XPath 1.0 expression
    /// selects at least one node (and, with a matcher, one node's value satisfies it).
    indirect case matchesXPath(String, namespaces: [String: String], StringMatcher?)
    /// `{"matchesJsonSchema": "{\"type\": \"object\", …}", "schemaVersion": "V202012"}` (WireMock 3): the value,
    /// read as JSON (or as a JSON string when it is not JSON), is valid against the schema
    /// (`.matchesJsonSchema(["type": "object", "required": ["login"]])`). A stub file with an invalid schema fails
    /// to load; an invalid schema given in Swift matches nothing.
    case matchesJsonSchema(JSONValue, version: JSONSchemaVersion = .v202012)
}

/// How a numeric matcher compares the value it reads with its operand; the raw value is WireMock's name.
public enum NumberComparison: String, Sendable, Hashable, CaseIterable {
    /// `equalToNumber`: value == operand.
    case equalTo = "equalToNumber"
    /// `greaterThanNumber`: value > operand.
    case greaterThan = "greaterThanNumber"
    /// `greaterThanEqualNumber`: value >= operand.
    case greaterThanOrEqual = "greaterThanEqualNumber"
    /// `lessThanNumber`: value < operand.
    case lessThan = "lessThanNumber"
    /// `lessThanEqualNumber`: value <= operand.
    case lessThanOrEqual = "lessThanEqualNumber"

    /// Whether `actual` compares with `expected` as required (IEEE: `NaN` satisfies none).
    public func holds(_ actual: Double, _ expected: Double) -> Bool {
        switch self {
        case .equalTo: actual == expected
        case .greaterThan: actual > expected
        case .greaterThanOrEqual: actual >= expected
        case .lessThan: actual < expected
        case .lessThanOrEqual: actual <= expected
        }
    }
}

/// How a multi-valued field (query parameter or header that may repeat) is matched.
public enum MultiValueMatcher: Sendable, Hashable {
    /// The single-value form: WireMock matches if ANY value satisfies the matcher
    /// (`absent` means no value at all).
    case single(StringMatcher)
    /// `{"hasExactly": [m1, m2]}` — every value is matched by one matcher and vice versa, same count.
    case hasExactly([StringMatcher])
    /// `{"includes": [m1, m2]}` — each matcher matches at least one of the values.
    case includes([StringMatcher])
}
