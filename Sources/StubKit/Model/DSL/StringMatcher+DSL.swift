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
