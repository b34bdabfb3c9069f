/// An immutable route table with every stub's response prepared: what a request is matched against.
///
/// Built whenever the stubs change; requests read the current one without waiting on writers.
final class StubSnapshot: Sendable {
    let table: RouteTable
    /// Aligned with the mappings' insertion order in ``table``.
    let responses: [StubResponse]
    let mappings: [StubMapping]
    /// The responses after the first of each stub with ``StubMapping/thenResponses``, by mapping index.
    let thenResponses: [Int: [StubResponse]]
    /// The Swift closures answering in place of a stub's response, by mapping index.
    let closures: [Int: StubClosure]
    /// Whether any stub has a scenario, a use limit or a sequence: matching must then go through
    /// ``StubStates`` so that reading and changing state is one atomic step.
    let isStateful: Bool

    /// - Parameters:
    ///   - globalResponseTemplating: every response is a template (`--global-response-templating`).
    ///   - previous: the snapshot this one replaces; the prepared responses (and parsed templates) of
    ///     stubs that did not change are reused, so a template is parsed once, not on every stub change.
    ///   - unchangedPrefix: how many leading stubs are known to be those of `previous`, unchanged (the store
    ///     appended the others): theirs are reused without comparing them, so adding a stub costs little.
    ///   - changedIDs: when known, the only ids whose stubs may differ from `previous`'s (a removal or a
    ///     replacement): the other stubs are reused without comparing them, unless their id is not unique.
    ///   - jsonBodyLimit: the route table's ``RouteTable/jsonBodyLimit``.
    ///   - regexWarnings: where the route table warns of URL patterns that run out of budget.
    init(_ mappings: [StubMapping], closures: [String: StubClosure] = [:], globalResponseTemplating: Bool = false,
         previous: StubSnapshot? = nil, unchangedPrefix: Int = 0, changedIDs: Set<String>? = nil,
         jsonBodyLimit: Int = MatchSubject.defaultJSONByteLimit,
         regexWarnings: (@Sendable (_ key: String, _ line: String) -> Void)? = nil) {
        self.mappings = mappings
        let prefix = previous.map { min(unchangedPrefix, $0.mappings.count, mappings.count) } ?? 0
        var table = RouteTable(mappings, regexWarnings: regexWarnings, previous: previous?.table, unchangedPrefix: prefix,
                               changedIDs: changedIDs)
        table.jsonBodyLimit = jsonBodyLimit
        self.table = table
        let reusable = previous.map { PreviousStubs($0.mappings, from: prefix, changedIDs: changedIDs) }
        var responses = previous.map { Array($0.responses[..<prefix]) } ?? []
        responses.reserveCapacity(mappings.count)
        var thenResponses: [Int: [StubResponse]] = [:]
        if let previous {
            for (index, then) in previous.thenResponses where index < prefix { thenResponses[index] = then }
        }
        for index in prefix..<mappings.count {
            let mapping = mappings[index]
            if let previous, let reusable, let (old, unchanged) = reusable.find(mapping.id),
               unchanged || previous.mappings[old] == mapping {
                responses.append(previous.responses[old])
                thenResponses[index] = previous.thenResponses[old]
            } else {
                responses.append(StubResponse(mapping, globalResponseTemplating: globalResponseTemplating))
                if !mapping.thenResponses.isEmpty {
                    thenResponses[index] = mapping.thenResponses.map {
                        StubResponse($0, stubID: mapping.id, stubName: mapping.name, globalResponseTemplating: globalResponseTemplating)
                    }
                }
            }
        }
        self.responses = responses
        var byIndex: [Int: StubClosure] = [:]
        if !closures.isEmpty {
            for (index, mapping) in mappings.enumerated() {
                if let closure = closures[mapping.id] { byIndex[index] = closure }
            }
        }
        self.thenResponses = thenResponses
        self.closures = byIndex
        isStateful = mappings.contains(where: \.isStateful)
    }

    /// The response of stub `index` for its use number `use` (0 for the first): the sequence's entry,
    /// the last one repeating.
    func response(at index: Int, use: Int) -> StubResponse {
        guard use > 0, let then = thenResponses[index] else { return responses[index] }
        return then[min(use, then.count) - 1]
    }
}
