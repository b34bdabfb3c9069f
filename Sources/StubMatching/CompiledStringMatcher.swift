import StubModel
import StubXML

/// A ``StringMatcher`` with its regular expression or JSONPath compiled, ready to be applied many times.
/// A class, so trying it borrows it instead of copying it.
package final class CompiledStringMatcher: Sendable {
    let source: StringMatcher
    let kind: Kind

    enum Kind: Sendable {
        case equalTo(String, caseInsensitive: Bool)
        case contains(String)
        case matches(CompiledRegex)
        case doesNotMatch(CompiledRegex)
        case absent
        case equalToJson(JSONValue, ignoreArrayOrder: Bool, ignoreExtraElements: Bool)
        /// `nil` path: the expression does not parse, so nothing matches.
        case matchesJsonPath(JSONPathExpression?, CompiledStringMatcher?)
        case doesNotContain(String)
        case and([CompiledStringMatcher])
        case or([CompiledStringMatcher])
        case not(CompiledStringMatcher)
        case number(NumberComparison, Double)
        case binaryEqualTo([UInt8])
        case dateTime(CompiledDateTimeMatcher)
        /// `nil`: the expected document or an option does not compile, so nothing matches.
        case equalToXml(XMLComparison?)
        /// `nil` expression: it does not parse, so nothing matches.
        case matchesXPath(StubXML.XPathExpression?, CompiledStringMatcher?)
        /// `nil`: the schema is not valid, so nothing matches.
        case matchesJsonSchema(JSONSchema?)
    }

    package init(_ source: StringMatcher) {
        self.source = source
        switch source {
        case let .equalTo(value, caseInsensitive):
            kind = .equalTo(caseInsensitive ? value.lowercased() : value, caseInsensitive: caseInsensitive)
        case let .contains(value): kind = .contains(value)
        case let .matches(pattern): kind = .matches(CompiledRegex(pattern))
        case let .doesNotMatch(pattern): kind = .doesNotMatch(CompiledRegex(pattern))
        case .absent: kind = .absent
        case let .equalToJson(json, order, extra):
            kind = .equalToJson(json, ignoreArrayOrder: order, ignoreExtraElements: extra)
        case let .matchesJsonPath(expression, nested):
            kind = .matchesJsonPath(try? JSONPathExpression(expression), nested.map(CompiledStringMatcher.init))
        case let .doesNotContain(value): kind = .doesNotContain(value)
        case let .and(matchers): kind = .and(matchers.map(CompiledStringMatcher.init))
        case let .or(matchers): kind = .or(matchers.map(CompiledStringMatcher.init))
        case let .not(matcher): kind = .not(CompiledStringMatcher(matcher))
        case let .number(comparison, operand): kind = .number(comparison, operand)
        case let .binaryEqualTo(bytes): kind = .binaryEqualTo(bytes)
        case let .dateTime(matcher): kind = .dateTime(CompiledDateTimeMatcher(matcher))
        case let .equalToXml(xml, options):
            kind = .equalToXml(XMLMatching.comparison(xml, options).value)
        case let .matchesXPath(expression, namespaces, nested):
            kind = .matchesXPath(
                try? StubXML.XPathExpression(expression, namespaces: namespaces), nested.map(CompiledStringMatcher.init)
            )
        case let .matchesJsonSchema(schema, version):
            kind = .matchesJsonSchema(try? JSONSchema(schema, version: version))
        }
    }

    var isAbsent: Bool {
        if case .absent = kind { return true }
        return false
    }

    /// Why the matcher can never work (a regex or JSONPath that does not compile), or `nil`.
    var compileError: String? {
        switch kind {
        case let .matches(regex), let .doesNotMatch(regex): return regex.compileError
        case let .matchesJsonPath(path, nested):
            if path == nil, case let .matchesJsonPath(expression, _) = source {
                do { _ = try JSONPathExpression(expression) } catch { return error.description }
            }
            return nested?.compileError
        case let .and(matchers), let .or(matchers): return matchers.lazy.compactMap(\.compileError).first
        case let .not(matcher): return matcher.compileError
        case .equalToXml(nil):
            if case let .equalToXml(xml, options) = source { return XMLMatching.comparison(xml, options).error }
            return nil
        case let .matchesXPath(expression, nested):
            if expression == nil, case let .matchesXPath(source, namespaces, _) = source {
                do { _ = try StubXML.XPathExpression(source, namespaces: namespaces) } catch {
                    return error.description
                }
            }
            return nested?.compileError
        case .matchesJsonSchema(nil):
            guard case let .matchesJsonSchema(schema, version) = source else { return nil }
            do { _ = try JSONSchema(schema, version: version) } catch { return error.description }
            return nil
        default: return nil
        }
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
        case let .equalToJson(expected, order, extra):
            guard let actual = subject.json else { return 1 }
            return JSONEquivalence.distance(expected, actual, ignoreArrayOrder: order, ignoreExtraElements: extra)
        case let .matchesJsonPath(path, nested):
            guard let path, let document = subject.json else { return 1 }
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
            guard let comparison, let document = subject.xml else { return 1 }
            return comparison.distance(to: document)
        case let .matchesXPath(expression, nested):
            guard let expression, let document = subject.xml else { return 1 }
            return XMLMatching.xPathMatches(expression, nested, document) ? 0 : 1
        case let .matchesJsonSchema(schema):
            guard let schema, let instance = Self.schemaInstance(subject) else { return 1 }
            // WireMock 3: the share of the schema's keywords that are violated.
            let violations = schema.violations(of: instance, limit: .max).count
            return violations == 0 ? 0 : min(1, Double(violations) / Double(schema.keywordCount))
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
            if let schema, let instance = Self.schemaInstance(subject) { schema.accepts(instance) } else { false }
        default: isSatisfied(byText: subject.text)
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
