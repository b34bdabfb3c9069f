/// Shorthands for the common matchers, so a stub reads like the WireMock JSON it stands for.
///
/// The enum cases stay available (`.contains`, `.matches`, `.doesNotMatch`, `.absent`); these add
/// the forms whose defaults the cases cannot carry.
///
/// ```swift
/// .get("/users").withHeader("Accept", .contains("json")).withQuery("sort", .equalToIgnoringCase("Name"))
/// ```
extension StringMatcher {
    /// `{"equalTo": value}`: the value, exactly (case-sensitive).
    public static func equalTo(_ value: String) -> StringMatcher {
        .equalTo(value, caseInsensitive: false)
    }

    /// `{"equalTo": value, "caseInsensitive": true}`: the value, ignoring case.
    public static func equalToIgnoringCase(_ value: String) -> StringMatcher {
        .equalTo(value, caseInsensitive: true)
    }

    /// `{"equalToJson": json}`: semantically equal JSON, array order and extra members significant.
    public static func equalToJson(_ json: JSONValue) -> StringMatcher {
        .equalToJson(json, ignoreArrayOrder: false, ignoreExtraElements: false)
    }

    /// `{"matchesJsonPath": expression}`: the JSONPath expression selects something in the body.
    public static func matchesJsonPath(_ expression: String) -> StringMatcher {
        .matchesJsonPath(expression, nil)
    }

    /// `{"and": [m1, m2, …]}`: every matcher is satisfied.
    public static func allOf(_ matchers: StringMatcher...) -> StringMatcher {
        .and(matchers)
    }

    /// `{"or": [m1, m2, …]}`: at least one matcher is satisfied.
    public static func anyOf(_ matchers: StringMatcher...) -> StringMatcher {
        .or(matchers)
    }

    /// `{"equalToNumber": value}`: the value, read as a number, equals `value` (`"5.0"` and `"0005"` equal 5).
    public static func equalToNumber(_ value: Double) -> StringMatcher {
        .number(.equalTo, value)
    }

    /// `{"greaterThanNumber": value}`: the value, read as a number, is greater than `value`.
    public static func greaterThanNumber(_ value: Double) -> StringMatcher {
        .number(.greaterThan, value)
    }

    /// `{"greaterThanEqualNumber": value}`: the value, read as a number, is `value` or greater.
    public static func greaterThanEqualNumber(_ value: Double) -> StringMatcher {
        .number(.greaterThanOrEqual, value)
    }

    /// `{"lessThanNumber": value}`: the value, read as a number, is less than `value`.
    public static func lessThanNumber(_ value: Double) -> StringMatcher {
        .number(.lessThan, value)
    }

    /// `{"lessThanEqualNumber": value}`: the value, read as a number, is `value` or less.
    public static func lessThanEqualNumber(_ value: Double) -> StringMatcher {
        .number(.lessThanOrEqual, value)
    }

    /// `{"equalToXml": xml}`: XML equal as WireMock compares it; `placeholders: true` turns
    /// `${xmlunit.ignore}` and `${xmlunit.isNumber}` in `xml` into placeholders (`enablePlaceholders`).
    public static func equalToXml(_ xml: String, placeholders: Bool = false) -> StringMatcher {
        .equalToXml(xml, XMLComparisonOptions(enablePlaceholders: placeholders))
    }

    /// `{"matchesXPath": expression, "xPathNamespaces": namespaces}`: the XPath 1.0 expression selects
    /// at least one node of the XML body. `.matchesXPath(expression, namespaces:, matcher)` adds a
    /// matcher one selected node's value must satisfy (an element's value is the element written out as
    /// indented XML, as in WireMock).
    public static func matchesXPath(_ expression: String, namespaces: [String: String] = [:]) -> StringMatcher {
        .matchesXPath(expression, namespaces: namespaces, nil)
    }
}
