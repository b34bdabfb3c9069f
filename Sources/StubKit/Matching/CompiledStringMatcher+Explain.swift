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
        case .equalToXml, .matchesXPath:
            guard subject.isPresent else { return [] }
            return XMLMatching.explain(kind, subject).map { [$0] } ?? []
        default: break
        }
        if let reason = subject.jsonSkippedReason, isJSONMatcherOfAnyKind { return [reason] }
        guard let document = subject.json else { return [] }
        switch kind {
        case let .equalToJson(expected, order, extra):
            return JSONDiff.lines(
                expected: expected, actual: document, ignoreArrayOrder: order, ignoreExtraElements: extra)
        case let .matchesJsonPath(path?, nested):
            return Self.explain(
                path, nested, document, budget: JSONPathWork.budget(forLength: subject.text?.utf8.count ?? 0))
        default:
            return []
        }
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
        if path.isDefinite, let selected, case let .equalToJson(expected, order, extra) = nested.kind,
            path.expression.hasPrefix("$")
        {
            return JSONDiff.lines(
                expected: expected, actual: selected, ignoreArrayOrder: order,
                ignoreExtraElements: extra, root: name)
        }
        let wanted = Quoting.truncate(nested.source.description, limit: JSONDiff.valueLimit)
        let scope = path.isDefinite ? "" : " (any element)"
        return ["\(name): expected \(wanted)\(scope), got \(got)"]
    }
}

extension CompiledStringMatcher {
    /// `equalToJson` or `matchesJsonPath`: the matchers that need the body parsed as JSON.
    var isJSONMatcherOfAnyKind: Bool {
        switch kind {
        case .equalToJson, .matchesJsonPath: true
        default: false
        }
    }
}
