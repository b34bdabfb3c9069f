import StubModel
import StubRegex
import StubXML

/// A ``StringMatcher`` with its regular expression, JSONPath, XML document, XPath or schema compiled, ready to be
/// applied many times. A class, so trying it borrows it instead of copying it.
///
/// ``compile(_:reusing:)`` is the one place a matcher is compiled: the loader compiles a stub file's matchers
/// through ``CompiledMatchers`` and refuses one that does not compile (its message is the ``compileFailure``), the
/// route table's ``init(_:reusing:)`` takes the loader's compiled operands instead of compiling them again and
/// keeps the same error in a matcher that never matches (a matcher given in Swift is not checked before).
package final class CompiledStringMatcher: Sendable {
    let source: StringMatcher
    let kind: Kind

    /// What evaluation switches on: each ``StringMatcher`` case with its operands compiled (a regex, a JSONPath, an
    /// XML comparison, an XPath, a schema, nested matchers), built by the one switch in ``compileKind(_:)``. Not a
    /// mirror to keep in step: its payloads are the compiled forms ``StringMatcher`` (in `StubModel`, which does not
    /// know the compilers) cannot hold, and a new matcher fails to compile here until it has its case.
    enum Kind: Sendable {
        case equalTo(String, caseInsensitive: Bool)
        case contains(String)
        case matches(CompiledRegex)
        case doesNotMatch(CompiledRegex)
        case absent
        case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool, JSONPlaceholders)
        case matchesJsonPath(JSONPathExpression, CompiledStringMatcher?)
        case doesNotContain(String)
        case and([CompiledStringMatcher])
        case or([CompiledStringMatcher])
        case not(CompiledStringMatcher)
        case number(NumberComparison, Double)
        case binaryEqualTo([UInt8])
        case dateTime(CompiledDateTimeMatcher)
        case equalToXml(XMLComparison)
        case matchesXPath(StubXML.XPathExpression, CompiledStringMatcher?)
        case matchesJsonSchema(JSONSchema)
        /// A part of the matcher (this one or one nested in it) does not compile: nothing matches, not even
        /// under `not`.
        case invalid(MatcherCompileError)
    }

    private init(_ source: StringMatcher, kind: Kind) {
        self.source = source
        self.kind = kind
    }

    /// The matcher compiled, or one that never matches when a part of it does not compile (``compileError``
    /// says why).
    package convenience init(_ source: StringMatcher) {
        self.init(source, reusing: nil)
    }

    /// ``init(_:)``, taking the operands `compiled` holds (the loader's) instead of compiling them again.
    package convenience init(_ source: StringMatcher, reusing compiled: CompiledMatchers?) {
        let kind: Kind
        do {
            kind = try Self.compileKind(source, compiled)
        } catch {
            kind = .invalid(error)
        }
        self.init(source, kind: kind)
    }

    /// The matcher compiled, or why a part of it does not compile: the regex, JSONPath, XML document, XPath or
    /// schema that fails first.
    /// - Parameter compiled: operands already compiled (by the loader), taken instead of compiling them again.
    package static func compile(_ source: StringMatcher, reusing compiled: CompiledMatchers? = nil)
        throws(MatcherCompileError) -> CompiledStringMatcher
    {
        CompiledStringMatcher(source, kind: try compileKind(source, compiled))
    }

    /// Why the matcher never matches: the ``compile(_:reusing:)`` error its part gave, or `nil`. How the loader
    /// words a stub file's matcher that does not compile.
    package var compileFailure: MatcherCompileError? {
        if case let .invalid(error) = kind { return error }
        return nil
    }

    private static func compileKind(_ source: StringMatcher, _ known: CompiledMatchers?) throws(MatcherCompileError)
        -> Kind
    {
        func nested(_ matcher: StringMatcher?) throws(MatcherCompileError) -> CompiledStringMatcher? {
            guard let matcher else { return nil }
            return try compile(matcher, reusing: known)
        }
        func all(_ matchers: [StringMatcher]) throws(MatcherCompileError) -> [CompiledStringMatcher] {
            var compiled: [CompiledStringMatcher] = []
            compiled.reserveCapacity(matchers.count)
            for matcher in matchers { compiled.append(try compile(matcher, reusing: known)) }
            return compiled
        }
        func regex(_ pattern: String) throws(MatcherCompileError) -> CompiledRegex {
            if let regex = known?.regex(pattern) { return regex }
            return try CompiledRegex(compiling: pattern)
        }
        switch source {
        case let .equalTo(value, caseInsensitive):
            return .equalTo(caseInsensitive ? value.lowercased() : value, caseInsensitive: caseInsensitive)
        case let .contains(value): return .contains(value)
        case let .matches(pattern): return .matches(try regex(pattern))
        case let .doesNotMatch(pattern): return .doesNotMatch(try regex(pattern))
        case .absent: return .absent
        case let .equalToJson(json, order, extra):
            return .equalToJson(json, ignoreArrayOrder: order, ignoreExtraElements: extra, JSONPlaceholders(in: json))
        case let .matchesJsonPath(expression, matcher):
            if let path = known?.jsonPath(expression) { return .matchesJsonPath(path, try nested(matcher)) }
            let compiled: JSONPathExpression
            do {
                compiled = try JSONPathExpression(expression)
            } catch {
                throw .jsonPath(error)
            }
            return .matchesJsonPath(compiled, try nested(matcher))
        case let .doesNotContain(value): return .doesNotContain(value)
        case let .and(matchers): return .and(try all(matchers))
        case let .or(matchers): return .or(try all(matchers))
        case let .not(matcher): return .not(try compile(matcher, reusing: known))
        case let .number(comparison, operand): return .number(comparison, operand)
        case let .binaryEqualTo(bytes): return .binaryEqualTo(bytes)
        case let .dateTime(matcher): return .dateTime(CompiledDateTimeMatcher(matcher, reusing: known))
        case let .equalToXml(xml, options):
            if let kind = known?.kind(of: source) { return kind }
            return .equalToXml(try XMLMatching.comparison(xml, options))
        case let .matchesXPath(expression, namespaces, matcher):
            if let path = known?.xPath(expression, namespaces: namespaces) {
                return .matchesXPath(path, try nested(matcher))
            }
            let compiled: StubXML.XPathExpression
            do {
                compiled = try StubXML.XPathExpression(expression, namespaces: namespaces)
            } catch {
                throw .xPath(error)
            }
            return .matchesXPath(compiled, try nested(matcher))
        case let .matchesJsonSchema(schema, version):
            if let kind = known?.kind(of: source) { return kind }
            do {
                return .matchesJsonSchema(try JSONSchema(schema, version: version))
            } catch {
                throw .jsonSchema(error)
            }
        }
    }

    var isAbsent: Bool {
        if case .absent = kind { return true }
        return false
    }

    /// Why the matcher can never work (a regex or JSONPath that does not compile), or `nil`.
    var compileError: String? {
        compileFailure?.description
    }

    /// 0 when `subject` satisfies the matcher, else a distance in (0, 1].
    ///
    /// An absent value (`nil` text) satisfies only `absent` and `doesNotMatch` — verified against
    /// WireMock 2.35.1, where a missing header or query parameter passes `doesNotMatch`.
    func distance(_ subject: MatchSubject) -> Double {
        switch kind {
        case let .equalTo(expected, caseInsensitive):
            guard let text = subject.text else { return 1 }
            return StringDistance.normalisedLevenshtein(expected, caseInsensitive ? text.lowercased() : text)
        case let .contains(part):
            guard let text = subject.text else { return 1 }
            return text.contains(part) || part.isEmpty ? 0 : 1
        case let .matches(regex):
            guard let text = subject.text else { return 1 }
            return regex.matchesWhole(text) ? 0 : 1
        case let .doesNotMatch(regex):
            guard let text = subject.text else { return 0 }
            return regex.doesNotMatchWhole(text) ? 0 : 1
        case .absent:
            return subject.text == nil ? 0 : 1
        case let .equalToJson(expected, order, extra, placeholders):
            guard let actual = subject.json else { return 1 }
            return JSONEquivalence.distance(
                expected, actual, ignoreArrayOrder: order, ignoreExtraElements: extra, placeholders: placeholders)
        case let .matchesJsonPath(path, nested):
            guard let document = subject.json else { return 1 }
            return JSONPathMatching.distance(
                path, nested, document,
                budget: JSONPathWork.budget(forLength: subject.text?.utf8.count ?? 0))
        case let .doesNotContain(part):
            guard let text = subject.text else { return 0 }
            return part.isEmpty || text.contains(part) ? 1 : 0
        case let .and(matchers):
            // WireMock's MatchResult.aggregate: the mean distance, 0 only when every matcher is satisfied.
            return matchers.reduce(0) { $0 + $1.distance(subject) } / Double(max(matchers.count, 1))
        case let .or(matchers):
            return matchers.reduce(1) { best, matcher in best == 0 ? 0 : min(best, matcher.distance(subject)) }
        case let .not(matcher):
            return Self.negationHolds(matcher, subject) ? 0 : 1
        case let .number(comparison, operand):
            return NumberDistance.distance(comparison, operand, subject.text)
        case let .binaryEqualTo(expected):
            return subject.bytes == expected ? 0 : 1
        case let .dateTime(matcher):
            return matcher.distance(subject.text)
        case let .equalToXml(comparison):
            guard let document = subject.xml else { return 1 }
            return comparison.distance(to: document)
        case let .matchesXPath(expression, nested):
            guard let document = subject.xml else { return 1 }
            return XMLMatching.xPathMatches(expression, nested, document) ? 0 : 1
        case let .matchesJsonSchema(schema):
            guard let instance = Self.schemaInstance(subject) else { return 1 }
            // WireMock 3: the share of the schema's keywords that are violated.
            let violations = schema.violations(of: instance, limit: .max).count
            return violations == 0 ? 0 : min(1, Double(violations) / Double(schema.keywordCount))
        case .invalid:
            return 1
        }
    }

    /// What a JSON Schema validates: the value as JSON, or as a JSON string when it is not JSON (as in WireMock);
    /// `nil` when absent or too large to parse.
    static func schemaInstance(_ subject: MatchSubject) -> JSONValue? {
        guard let text = subject.text, subject.jsonSkippedReason == nil else { return nil }
        return subject.json ?? .string(text)
    }

    /// Whether a present or absent value satisfies the matcher.
    package func matches(_ text: String?) -> Bool { isSatisfied(byText: text) }

    /// Whether `text` (`nil` when absent) satisfies the matcher: `distance == 0`, without computing a
    /// distance or allocating (except for the JSON matchers, which parse `text`).
    func isSatisfied(byText text: String?) -> Bool {
        switch kind {
        case let .equalTo(expected, caseInsensitive):
            guard let text else { return false }
            return expected == (caseInsensitive ? text.lowercased() : text)
        case let .contains(part):
            guard let text else { return false }
            return part.isEmpty || text.contains(part)
        case let .matches(regex):
            guard let text else { return false }
            return regex.matchesWhole(text)
        case let .doesNotMatch(regex):
            guard let text else { return true }
            return regex.doesNotMatchWhole(text)
        case .absent:
            return text == nil
        case let .doesNotContain(part):
            guard let text else { return true }
            return !(part.isEmpty || text.contains(part))
        case let .number(comparison, operand):
            guard let text, let actual = JavaNumber.parse(text) else { return false }
            return comparison.holds(actual, operand)
        case let .dateTime(matcher):
            return matcher.isSatisfied(by: text)
        case .equalToJson, .matchesJsonPath, .and, .or, .not, .binaryEqualTo, .equalToXml, .matchesXPath,
            .matchesJsonSchema:
            return isSatisfied(by: MatchSubject(text))
        case .invalid:
            return false
        }
    }

    /// `distance(subject) == 0`, computing no distance for the text matchers.
    func isSatisfied(by subject: MatchSubject) -> Bool {
        switch kind {
        // An absent value has no JSON (nor XML): those matchers fail without looking further.
        case let .and(matchers): matchers.allSatisfy { $0.isSatisfied(by: subject) }
        case let .or(matchers): matchers.contains { $0.isSatisfied(by: subject) }
        case let .not(matcher): Self.negationHolds(matcher, subject)
        case let .binaryEqualTo(expected): subject.bytes == expected
        case .equalToJson, .matchesJsonPath, .equalToXml, .matchesXPath: subject.isPresent && distance(subject) == 0
        case let .matchesJsonSchema(schema):
            if let instance = Self.schemaInstance(subject) { schema.accepts(instance) } else { false }
        case .equalTo, .contains, .matches, .doesNotMatch, .absent, .doesNotContain, .number, .dateTime:
            isSatisfied(byText: subject.text)
        case .invalid: false
        }
    }

    /// `not matcher`: the matcher fails, and not merely because the body was too large to parse as JSON
    /// (`not equalToJson` never matches a body that was not compared).
    private static func negationHolds(_ matcher: CompiledStringMatcher, _ subject: MatchSubject) -> Bool {
        if matcher.isJSONMatcherOfAnyKind, subject.jsonSkippedReason != nil { return false }
        return !matcher.isSatisfied(by: subject)
    }

    var isJSONMatcher: Bool {
        if case .equalToJson = kind { return true }
        return false
    }
}

extension StringMatcher {
    /// Whether `value` (`nil` when absent) satisfies this matcher, as WireMock 2.35 decides it.
    ///
    /// Compiles the regular expression or JSONPath on every call; matching many requests goes through
    /// ``RouteTable`` or ``CompiledRequestPattern``, which compile once.
    public func matches(_ value: String?) -> Bool {
        CompiledStringMatcher(self).matches(value)
    }
}

/// Why a ``StringMatcher`` does not compile: the first operand that fails, with its compiler's error. The loader
/// words a stub file's error from it, and ``CompiledStringMatcher/compileError`` is its ``description``.
package enum MatcherCompileError: Error, Sendable, CustomStringConvertible {
    /// A `matches` or `doesNotMatch` pattern.
    case regex(RegexSyntaxError)
    /// A `matchesJsonPath` expression.
    case jsonPath(JSONPathError)
    /// An `equalToXml` document that is not well-formed.
    case xmlDocument(XMLParseError)
    /// An `equalToXml` placeholder delimiter or option that does not compile.
    case xmlOptions(XMLOptionError)
    /// A `matchesXPath` expression.
    case xPath(XPathError)
    /// A `matchesJsonSchema` schema.
    case jsonSchema(JSONSchemaError)

    /// `invalid regular expression "a(": …`, `the expected document is not well-formed XML: …`, or the compiler's
    /// own message.
    package var description: String {
        switch self {
        case let .regex(error): CompiledRegex.describe(error)
        case let .jsonPath(error): error.description
        case let .xmlDocument(error): "the expected document is not well-formed XML: \(error.description)"
        case let .xmlOptions(error): error.description
        case let .xPath(error): error.description
        case let .jsonSchema(error): error.description
        }
    }
}
