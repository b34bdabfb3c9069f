import StubModel

/// JsonUnit's placeholders, which WireMock 2.35's `equalToJson` honours with no flag: an expected string
/// value that is exactly one of these matches more than itself.
///
/// ```json
/// {"equalToJson": {"id": "${json-unit.any-number}", "name": "${json-unit.regex}[A-Z][a-z]+",
///                  "etag": "${json-unit.ignore}"}}
/// ```
///
/// As WireMock 2.35.1 answers (checked against its jar): a placeholder is the whole string (`" ${…}"` and
/// `"x${…}"` are plain text); `ignore` accepts any value, `null` included, but the member must be there;
/// `regex` must match the whole string value; `${json-unit.matches:…}` (a matcher registered in Java code)
/// never matches; any other `${json-unit.…}` (`any-object`, `any-array`, newer than WireMock's JsonUnit) and
/// `#{json-unit.ignore-element}` are plain text.
enum JSONPlaceholder {
    case anyString
    case anyNumber
    case anyBoolean
    case ignore
    /// `${json-unit.regex}PATTERN`: a string whose whole value matches PATTERN (Java syntax).
    case regex(String)
    /// `${json-unit.matches:NAME}`: never matches here.
    case namedMatcher

    private static let prefix = "${json-unit."

    /// The placeholder `text` is, or `nil` for plain text.
    init?(_ text: String) {
        guard text.hasPrefix(Self.prefix) else { return nil }
        switch text {
        case "${json-unit.any-string}": self = .anyString
        case "${json-unit.any-number}": self = .anyNumber
        case "${json-unit.any-boolean}": self = .anyBoolean
        case "${json-unit.ignore}": self = .ignore
        default:
            if text.hasPrefix("${json-unit.regex}") {
                self = .regex(String(text.dropFirst("${json-unit.regex}".count)))
            } else if text.hasPrefix("${json-unit.matches:"), text.contains("}") {
                self = .namedMatcher
            } else {
                return nil
            }
        }
    }

    /// Whether `actual`, the value found where the placeholder is expected, satisfies it; a `regex` placeholder
    /// is looked up, compiled, in `placeholders` (one it lacks matches nothing).
    func accepts(_ actual: JSONValue, in placeholders: JSONPlaceholders) -> Bool {
        switch (self, actual) {
        case (.ignore, _), (.anyString, .string), (.anyNumber, .number), (.anyBoolean, .bool): true
        case let (.regex(pattern), .string(value)): placeholders.regex(pattern)?.matchesWhole(value) ?? false
        case (.anyString, _), (.anyNumber, _), (.anyBoolean, _), (.regex, _), (.namedMatcher, _): false
        }
    }
}

/// The placeholders of an `equalToJson` matcher's expected document, their regular expressions compiled once, when
/// the matcher is, and not on each comparison.
struct JSONPlaceholders: Sendable {
    private let regexes: [String: CompiledRegex]

    /// The `${json-unit.regex}` patterns found anywhere in `expected`, compiled (one that does not compile
    /// matches nothing).
    init(in expected: JSONValue) {
        var regexes: [String: CompiledRegex] = [:]
        var pending = [expected]
        while let value = pending.popLast() {
            switch value {
            case let .string(text):
                if case let .regex(pattern)? = JSONPlaceholder(text), regexes[pattern] == nil {
                    regexes[pattern] = CompiledRegex(pattern)
                }
            case let .array(items): pending.append(contentsOf: items)
            case let .object(members): pending.append(contentsOf: members.lazy.map(\.value))
            case .null, .bool, .number: break
            }
        }
        self.regexes = regexes
    }

    /// The compiled `pattern`, if `expected` had it.
    func regex(_ pattern: String) -> CompiledRegex? { regexes[pattern] }
}
