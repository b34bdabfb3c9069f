import StubModel

/// `matchesJsonPath`, with or without a nested matcher, as WireMock 2.35 evaluates it.
enum JSONPathMatching {
    /// 0 when the document satisfies the expression (and the nested matcher), else 1 or the nested
    /// matcher's best distance.
    ///
    /// Verified against WireMock 2.35.1:
    /// - without a nested matcher, a definite path must select a value that is not `null`, not `[]` and
    ///   not `{}` (`false` and `""` count); an indefinite path (`[*]`, `..`, filters) must select something;
    /// - with one, a missing path or `null` satisfies only `absent` (`doesNotMatch` fails too);
    ///   numbers are seen as Java prints them (`1.50` → `"1.5"`, `1e20` → `"1.0E20"`); an object is seen as
    ///   Jackson's pretty JSON; for an array (or an indefinite path) the matcher is tried on each element
    ///   and any match wins, except `equalToJson`, which sees the whole array; `absent` accepts `[]`. An
    ///   object element is seen as Java's `Map.toString` (`{x=1}`), an array element as compact JSON.
    ///
    /// An evaluation that takes more than `budget` steps (``JSONPathWork``) does not match.
    static func distance(
        _ path: JSONPathExpression, _ nested: CompiledStringMatcher?, _ document: JSONValue, budget: Int
    ) -> Double {
        guard let found = path.evaluate(document, budget: budget) else { return 1 }
        let selected: JSONValue? = path.isDefinite ? found.first : .array(found)
        guard let nested else {
            switch selected {
            case nil, .null?: return 1
            case let .array(items)?: return items.isEmpty ? 1 : 0
            case let .object(members)?: return members.isEmpty ? 1 : 0
            case .bool?, .number?, .string?: return 0
            }
        }
        guard let selected else { return nested.isAbsent ? 0 : 1 }
        var candidates: [MatchSubject] = []
        switch selected {
        case .null:
            return nested.isAbsent ? 0 : 1
        case .object:
            candidates = [MatchSubject(json: selected, text: JSONRendering.jacksonPretty(selected))]
        case let .array(items):
            if nested.isJSONMatcher {
                candidates = [MatchSubject(json: selected, text: JSONRendering.jacksonPretty(selected))]
            } else {
                if items.isEmpty, nested.isAbsent { return 0 }
                candidates = items.map { item in
                    if case .null = item { return MatchSubject(nil) }
                    return MatchSubject(json: item, text: JSONRendering.javaString(item))
                }
            }
        case .bool, .number, .string:
            candidates = [MatchSubject(json: selected, text: JSONRendering.javaString(selected))]
        }
        var best = 1.0
        for candidate in candidates {
            best = min(best, nested.distance(candidate))
            if best == 0 { break }
        }
        return best
    }
}
