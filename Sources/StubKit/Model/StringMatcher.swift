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
    /// `{"equalToXml": "<a/>", "enablePlaceholders": true, "exemptedComparisons": [...]}` (bodies): XML
    /// equal as WireMock 2.35.1 compares it (whitespace, comments, attribute order and the order of
    /// differently named elements do not matter).
    case equalToXml(String, XMLComparisonOptions)
    /// `{"matchesXPath": "/a/b", "xPathNamespaces": {"p": "urn:x"}}` or
    /// `{"matchesXPath": {"expression": "/a/b", "equalTo": "x"}}` (bodies): the XPath 1.0 expression
    /// selects at least one node (and, with a matcher, one node's value satisfies it).
    indirect case matchesXPath(String, namespaces: [String: String], StringMatcher?)
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
