import StubHTTP
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
