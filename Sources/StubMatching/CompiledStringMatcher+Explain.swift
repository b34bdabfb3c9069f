import StubModel

extension CompiledStringMatcher {
    /// Why a JSON body does not satisfy an `equalToJson` or `matchesJsonPath` matcher, field by field
    /// (see ``JSONDiff``); empty for the other matchers and for a body that is not JSON, whose text the
    /// report shows instead.
    ///
    /// ```text
    /// $.private: expected false, got true                 (equalToJson)
    /// $.name: expected equalTo "stubserver", got "stub"   (matchesJsonPath "$.name" equalTo "stubserver")
    /// $.topics: expected a value, got absent              (matchesJsonPath "$.topics")
    /// ```
    func explain(_ subject: MatchSubject) -> [String] {
        switch kind {
        case let .equalToXml(comparison):
            guard subject.isPresent else { return [] }
            return XMLMatching.explain(comparison, subject).map { [$0] } ?? []
        case let .matchesXPath(expression, nested):
            guard subject.isPresent else { return [] }
            return XMLMatching.explain(expression, nested, subject).map { [$0] } ?? []
        case .equalToJson, .matchesJsonPath, .matchesJsonSchema, .and, .or, .not:
            if let reason = subject.jsonSkippedReason, isJSONMatcherOfAnyKind { return [reason] }
        case .equalTo, .contains, .matches, .doesNotMatch, .absent, .doesNotContain, .number, .binaryEqualTo,
            .dateTime, .invalid:
            break
        }
        switch kind {
        case .and, .or, .not: return explainLogical(subject)
        case let .number(comparison, operand): return NumberDistance.explain(comparison, operand, subject.text)
        case let .binaryEqualTo(expected): return Self.explainBytes(expected, subject.bytes)
        case let .dateTime(matcher): return matcher.explain(subject.text)
        case let .matchesJsonSchema(schema):
            return Self.schemaInstance(subject).map { schema.violations(of: $0, limit: 4) } ?? []
        case let .equalToJson(expected, order, extra, placeholders):
            guard let document = subject.json else { return [] }
            return JSONDiff.lines(
                expected: expected, actual: document, ignoreArrayOrder: order, ignoreExtraElements: extra,
                placeholders: placeholders)
        case let .matchesJsonPath(path, nested):
            guard let document = subject.json else { return [] }
            return Self.explain(
                path, nested, document, budget: JSONPathWork.budget(forLength: subject.text?.utf8.count ?? 0))
        case .equalTo, .contains, .matches, .doesNotMatch, .absent, .doesNotContain, .equalToXml, .matchesXPath,
            .invalid:
            return []
        }
    }

    /// `expected 3 bytes, got 4; they differ first at byte 2`; empty when they are equal.
    private static func explainBytes(_ expected: [UInt8], _ actual: [UInt8]) -> [String] {
        guard expected != actual else { return [] }
        let same = zip(expected, actual).prefix { $0 == $1 }.count
        let sizes = expected.count == actual.count ? "" : "expected \(expected.count) bytes, got \(actual.count); "
        return [sizes + "they differ first at byte \(same)"]
    }

    private static func explain(
        _ path: JSONPathExpression, _ nested: CompiledStringMatcher?, _ document: JSONValue,
        budget: Int
    ) -> [String] {
        let name = Quoting.truncate(path.expression, limit: JSONDiff.valueLimit)
        guard let found = path.evaluate(document, budget: budget) else {
            return [
                "\(name): gave up after \(budget) steps (filters and deep scans nested in each other), not matching"
            ]
        }
        let selected: JSONValue? = path.isDefinite ? found.first : .array(found)
        let got = selected.map(JSONDiff.render) ?? "absent"
        guard let nested else { return ["\(name): expected a value, got \(got)"] }
        // A definite path to a value that nested equalToJson compares: the diff, rooted at the path.
        if path.isDefinite, let selected, case let .equalToJson(expected, order, extra, placeholders) = nested.kind,
            path.expression.hasPrefix("$")
        {
            return JSONDiff.lines(
                expected: expected, actual: selected, ignoreArrayOrder: order,
                ignoreExtraElements: extra, placeholders: placeholders, root: name)
        }
        let wanted = Quoting.truncate(nested.source.description, limit: JSONDiff.valueLimit)
        let scope = path.isDefinite ? "" : " (any element)"
        return ["\(name): expected \(wanted)\(scope), got \(got)"]
    }
}

extension CompiledStringMatcher {
    /// `equalToJson` or `matchesJsonPath`, or `and`, `or`, `not` holding one: the matchers that need the body
    /// parsed as JSON.
    var isJSONMatcherOfAnyKind: Bool {
        switch kind {
        case .equalToJson, .matchesJsonPath, .matchesJsonSchema: true
        case let .and(matchers), let .or(matchers): matchers.contains { $0.isJSONMatcherOfAnyKind }
        case let .not(matcher): matcher.isJSONMatcherOfAnyKind
        case .equalTo, .contains, .matches, .doesNotMatch, .absent, .doesNotContain, .number, .binaryEqualTo,
            .dateTime, .equalToXml, .matchesXPath, .invalid:
            false
        }
    }

    /// Which operands of `and` / `or` fail, or what `not` found, each failing operand followed by its own
    /// details, indented:
    ///
    /// ```text
    /// fails contains "b"                            (and [contains "a", contains "b"])
    /// none of the 2 matchers is satisfied           (or [contains "x", equalToJson {"a":1}])
    /// satisfies contains "x", which 'not' excludes  (not (contains "x"))
    /// ```
    private func explainLogical(_ subject: MatchSubject) -> [String] {
        func failing(_ matchers: [CompiledStringMatcher]) -> [String] {
            matchers.filter { !$0.isSatisfied(by: subject) }.flatMap { matcher in
                ["fails " + Quoting.truncate(matcher.source.description, limit: JSONDiff.valueLimit)]
                    + matcher.explain(subject).map { "  " + $0 }
            }
        }
        switch kind {
        case let .and(matchers): return failing(matchers)
        case let .or(matchers):
            return ["none of the \(matchers.count) matchers is satisfied"] + failing(matchers)
        case let .not(matcher):
            let wanted = Quoting.truncate(matcher.source.description, limit: JSONDiff.valueLimit)
            return ["satisfies \(wanted), which 'not' excludes"]
        case .equalTo, .contains, .matches, .doesNotMatch, .absent, .equalToJson, .matchesJsonPath, .doesNotContain,
            .number, .binaryEqualTo, .dateTime, .equalToXml, .matchesXPath, .matchesJsonSchema, .invalid:
            return []
        }
    }
}
