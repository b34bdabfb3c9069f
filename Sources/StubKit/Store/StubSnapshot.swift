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
    var isStateful: Bool { statefulCount > 0 }
    /// How many stubs have a scenario, a use limit or a sequence: kept across edits without a scan.
    private let statefulCount: Int

    /// - Parameters:
    ///   - loadOptions: the settings that change what a stub means (every response a template).
    ///   - previous: the snapshot this one replaces; the prepared responses (and parsed templates) of
    ///     stubs that did not change are reused, so a template is parsed once, not on every stub change.
    ///   - edit: how `mappings` differ from `previous`'s, when the store knows (stubs appended, removed or
    ///     replaced): the stubs it does not touch are reused by position without comparing them, and the
    ///     route table shares its indexes, so such a change costs little. `nil`: stubs are looked up by id
    ///     and compared.
    ///   - jsonBodyLimit: the route table's ``RouteTable/jsonBodyLimit``.
    ///   - regexWarnings: where the route table warns of URL patterns that run out of budget.
    ///   - compiled: the matchers the loader compiled, which the route table takes instead of compiling them again.
    init(
        _ mappings: [StubMapping], closures: [String: StubClosure] = [:],
        loadOptions: StubsLoadOptions = StubsLoadOptions(),
        previous: StubSnapshot? = nil, edit: StubEdit? = nil,
        jsonBodyLimit: Int = MatchSubject.defaultJSONByteLimit,
        regexWarnings: (@Sendable (_ key: String, _ line: String) -> Void)? = nil,
        reusing compiled: CompiledMatchers? = nil
    ) {
        self.mappings = mappings
        let edit = previous.flatMap { previous in
            edit.flatMap { $0.fits(previous: previous.mappings.count, count: mappings.count) ? $0 : nil }
        }
        let reusable = edit == nil ? previous.map { PreviousStubs($0.mappings) } : nil
        var table = RouteTable(
            mappings, regexWarnings: regexWarnings, previous: previous?.table, edit: edit,
            reusable: reusable, reusing: compiled)
        table.jsonBodyLimit = jsonBodyLimit
        self.table = table
        func prepare(_ mapping: StubMapping) -> StubResponse {
            StubResponse(mapping, loadOptions: loadOptions)
        }
        func prepareThen(_ mapping: StubMapping) -> [StubResponse]? {
            mapping.thenResponses.isEmpty
                ? nil
                : mapping.thenResponses.map {
                    StubResponse($0, stubID: mapping.id, stubName: mapping.name, loadOptions: loadOptions)
                }
        }
        var responses: [StubResponse]
        var thenResponses: [Int: [StubResponse]] = [:]
        var statefulCount = previous?.statefulCount ?? 0
        switch (previous, edit) {
        case let (previous?, .appended?):
            responses = previous.responses
            responses.reserveCapacity(mappings.count)
            thenResponses = previous.thenResponses
            for index in previous.mappings.count..<mappings.count {
                responses.append(prepare(mappings[index]))
                thenResponses[index] = prepareThen(mappings[index])
                if mappings[index].isStateful { statefulCount += 1 }
            }
        case let (previous?, .removed(positions)?):
            responses = positions.isEmpty ? previous.responses : previous.responses.removing(positions)
            // Few stubs have sequences: their keys move down past the removed positions.
            for (index, then) in previous.thenResponses where !positions.contains(index) {
                thenResponses[index - positions.count { $0 < index }] = then
            }
            statefulCount -= positions.count { previous.mappings[$0].isStateful }
        case let (previous?, .replaced(positions)?):
            responses = previous.responses
            thenResponses = previous.thenResponses
            for index in positions {
                let old = previous.mappings[index], new = mappings[index]
                if old != new {
                    responses[index] = prepare(new)
                    thenResponses[index] = prepareThen(new)
                }
                statefulCount += (new.isStateful ? 1 : 0) - (old.isStateful ? 1 : 0)
            }
        case (nil, _), (_?, nil):
            responses = []
            responses.reserveCapacity(mappings.count)
            for (index, mapping) in mappings.enumerated() {
                if let previous, let old = reusable?.position(of: mapping.id), previous.mappings[old] == mapping {
                    responses.append(previous.responses[old])
                    thenResponses[index] = previous.thenResponses[old]
                } else {
                    responses.append(prepare(mapping))
                    thenResponses[index] = prepareThen(mapping)
                }
            }
            statefulCount = mappings.count { $0.isStateful }
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
        self.statefulCount = statefulCount
    }

    /// The response of stub `index` for its use number `use` (0 for the first): the sequence's entry,
    /// the last one repeating.
    func response(at index: Int, use: Int) -> StubResponse {
        guard use > 0, let then = thenResponses[index] else { return responses[index] }
        return then[min(use, then.count) - 1]
    }
}
