import StubHTTP

/// The stubs a server answers with: those loaded from files, then those added at run time.
///
/// Changes happen under a lock and publish a new ``StubSnapshot``; matching reads the current
/// snapshot. Runtime stubs come after file stubs, so they win over file stubs of the same priority.
/// Persistent stubs (``StubMapping/persistent``, with their file as ``StubMapping/source``) keep their place
/// and survive ``reset()``; removing one forgets it for good (the admin API deletes its file).
final class StubStore: Sendable {
    private struct State {
        /// As last loaded from files; what ``reset()`` returns to.
        var loadedFileMappings: [StubMapping]
        var fileMappings: [StubMapping]
        var runtimeMappings: [StubMapping] = []
        /// Swift closures answering for runtime stubs, by stub id.
        var closures: [String: StubClosure] = [:]
        var snapshot: StubSnapshot
        /// How many snapshots were built after the first.
        var builds = 0
    }

    private let state: LockedValue<State>
    /// Ids of the stubs that answered a request since the last reset (only ids of current stubs are
    /// kept, so it is bounded by the stubs themselves).
    private let used = LockedValue(Usage())
    private let currentSettings = LockedValue(StubServerSettings())
    /// What every request asks, kept apart from what it is derived from so stub traffic reads two plain values.
    private struct Flags {
        /// The settings' global delay (``StubServerSettings/fixedDelay``).
        var fixedDelay: Duration?
        /// Whether the ``Recorder`` may be recording (see ``refreshRecording(_:)``).
        var isRecording = false
        /// Where the data collections answer; `nil` when there is none.
        var dataRoutes: DataRoutes?
    }
    private let flags: LockedValue<Flags>
    /// The data collections, answering below their base paths where no stub of their priority or better matches.
    let data: DataStore
    /// Scenario states and use counts of stateful stubs.
    let states = StubStates()
    /// The settings that change what a stub means, for every snapshot and every stub added.
    let loadOptions: StubsLoadOptions

    /// The largest request body route tables parse as JSON (``RouteTable/jsonBodyLimit``).
    let jsonBodyLimit: Int

    /// Where route tables warn of stubs whose URL pattern ran out of its matching budget.
    private let regexWarnings: (@Sendable (_ key: String, _ line: String) -> Void)?

    /// - Parameter regexWarnings: where to warn, once per stub, that its URL pattern ran out of its
    ///   matching budget on some request.
    ///   - jsonBodyLimit: the largest request body parsed as JSON for JSON matchers.
    ///   - compiled: the matchers the loader compiled (``StubsLoadResult/compiled``), not compiled again.
    ///   - dataPersistence: where the data collections are saved (`--data-dir`); `nil`: memory only.
    init(
        fileMappings: [StubMapping], compiled: CompiledMatchers? = nil,
        loadOptions: StubsLoadOptions = StubsLoadOptions(),
        jsonBodyLimit: Int = MatchSubject.defaultJSONByteLimit, regexWarnings: (@Sendable (String) -> Void)? = nil,
        dataPersistence: DataPersistence? = nil
    ) {
        self.loadOptions = loadOptions
        self.jsonBodyLimit = jsonBodyLimit
        let flags = LockedValue(Flags())
        self.flags = flags
        data = DataStore(persistence: dataPersistence) { routes in flags.withLock { $0.dataRoutes = routes } }
        // Once per stub and pattern for the server's life, not once per route table (rebuilt on every change).
        if let log = regexWarnings {
            let warned = LockedValue(Set<String>())
            self.regexWarnings = { @Sendable (key: String, line: String) in
                let first = warned.withLock { $0.insert(key).inserted }
                if first { log(line) }
            }
        } else {
            self.regexWarnings = nil
        }
        let regexWarnings = self.regexWarnings
        state = LockedValue(
            State(
                loadedFileMappings: fileMappings, fileMappings: fileMappings,
                snapshot: StubSnapshot(
                    fileMappings, loadOptions: loadOptions,
                    jsonBodyLimit: jsonBodyLimit, regexWarnings: regexWarnings, reusing: compiled)))
    }

    /// How many times the stubs changed and a new snapshot was built: one per change, and one per import.
    var snapshotBuilds: Int { state.withLock { $0.builds } }

    /// The current route table.
    var snapshot: StubSnapshot { state.withLock { $0.snapshot } }

    /// Every stub, file stubs first, in insertion order.
    var mappings: [StubMapping] { snapshot.mappings }

    /// Server-wide settings (`/__admin/settings`): read once per request.
    var settings: StubServerSettings {
        get { currentSettings.withLock { $0 } }
        set {
            // Under the settings' lock: concurrent setters leave the flag as the last one's settings say.
            currentSettings.withLock { settings in
                settings = newValue
                flags.withLock { $0.fixedDelay = newValue.fixedDelay }
            }
        }
    }

    /// The settings' global delay: read once per stubbed response, without copying the settings.
    var fixedDelay: Duration? { flags.withLock { $0.fixedDelay } }

    /// Whether a recording may be in progress: `false` means none is, and stub traffic need not ask the
    /// ``Recorder``; `true` means ask it (it may have stopped since).
    var isRecording: Bool { flags.withLock { $0.isRecording } }

    /// What stub traffic reads before matching, under one lock: whether a recording may be on (as
    /// ``isRecording``), and where the data collections answer.
    var traffic: (isRecording: Bool, dataRoutes: DataRoutes?) {
        flags.withLock { ($0.isRecording, $0.dataRoutes) }
    }

    /// Sets ``isRecording`` to what `isRecording` says now. Call after every start and stop of the
    /// recorder: asked under the flag's lock, the last call sets what the recorder said last.
    func refreshRecording(_ isRecording: () -> Bool) {
        flags.withLock { $0.isRecording = isRecording() }
    }

    /// The stubs added at run time (not loaded from files), in insertion order.
    var runtimeMappings: [StubMapping] { state.withLock { $0.runtimeMappings } }

    /// How many requests each stub answered: by id, and, for the snapshot being served, by mapping index.
    private struct Usage {
        /// Uses counted in snapshots before ``seenIn``, by stub id.
        var earlier: [String: Int] = [:]
        /// The snapshot ``counts`` is for (kept alive until another one is marked in, or usage is forgotten).
        var seenIn: StubSnapshot?
        /// By mapping index of ``seenIn``: the uses of that stub in it.
        var counts: [Int] = []

        /// Forgets the counts of the stubs whose id `isKept` refuses.
        mutating func keep(_ isKept: (String) -> Bool) {
            earlier = earlier.filter { isKept($0.key) }
            guard let seenIn else { return }
            for index in counts.indices where counts[index] > 0 && !isKept(seenIn.mappings[index].id) {
                counts[index] = 0
            }
        }

        /// Every count, by stub id.
        var byID: [String: Int] {
            var all = earlier
            if let seenIn {
                for (index, count) in counts.enumerated() where count > 0 {
                    all[seenIn.mappings[index].id, default: 0] += count
                }
            }
            return all
        }
    }

    /// Records that the stub `match` found in `snapshot` answered a request: an array increment, without
    /// hashing its id (the counts are folded by id when another snapshot starts being served; a removed
    /// stub's are dropped then).
    func markUsed(_ match: RouteMatch, in snapshot: StubSnapshot) {
        used.withLock { usage in
            if usage.seenIn !== snapshot {
                // Only stubs still served keep their counts, so removed ones do not pile up.
                let served = Set(snapshot.mappings.lazy.map(\.id))
                usage.earlier = usage.byID.filter { served.contains($0.key) }
                usage.seenIn = snapshot
                usage.counts = Array(repeating: 0, count: snapshot.mappings.count)
            }
            usage.counts[match.index] += 1
        }
    }

    /// The stubs no request has used since the last reset (``forgetUsage()``), in insertion order.
    var unusedMappings: [StubMapping] {
        let used = useCounts
        return mappings.filter { used[$0.id] == nil }
    }

    /// How many requests each stub answered since the last reset, by id; a stub never used is absent.
    var useCounts: [String: Int] { used.withLock { $0.byID } }

    /// Forgets which stubs were used (a journal or full reset).
    func forgetUsage() { used.withLock { $0 = Usage() } }

    /// Replaces the stubs loaded from files (e.g. after a reload); runtime stubs are kept, but for the
    /// persistent ones, whose files the reload read.
    /// - Parameter compiled: the matchers the loader compiled (``StubsLoadResult/compiled``), not compiled again.
    func replaceFileMappings(_ mappings: [StubMapping], compiled: CompiledMatchers? = nil) {
        update(reusing: compiled) { state in
            state.loadedFileMappings = mappings
            state.fileMappings = mappings
            state.runtimeMappings.removeAll(where: Self.hasFile)
        }
    }

    /// Whether `mapping` is persistent and written to its file: a reset keeps it.
    private static func hasFile(_ mapping: StubMapping) -> Bool { mapping.persistent && mapping.source != nil }

    /// Adds a stub after all others.
    func add(_ mapping: StubMapping) {
        update(appending: true) { $0.runtimeMappings.append(mapping) }
    }

    /// Adds stubs after all others, in order, with one new route table.
    func add(_ mappings: [StubMapping]) {
        update(appending: true) { $0.runtimeMappings += mappings }
    }

    /// Imports `mappings` with one new route table, last first (as WireMock), so that of two equal stubs the
    /// first listed is the newer and answers: a mapping whose id exists replaces the first stub with that id in
    /// place when `overwrite`, and is skipped otherwise; the others are added after all others.
    /// - Parameter removingOthers: remove every stub first, file stubs too (`deleteAllNotInImport`).
    func importMappings(_ mappings: [StubMapping], overwrite: Bool, removingOthers: Bool) {
        var changed: [String] = []
        update { state in
            if removingOthers {
                state.fileMappings.removeAll()
                state.runtimeMappings.removeAll()
                state.closures.removeAll()
                state.loadedFileMappings.removeAll { $0.persistent }
            }
            var fileIndex: [String: Int] = [:], runtimeIndex: [String: Int] = [:]
            for (i, m) in state.fileMappings.enumerated() where fileIndex[m.id] == nil { fileIndex[m.id] = i }
            for (i, m) in state.runtimeMappings.enumerated() where runtimeIndex[m.id] == nil { runtimeIndex[m.id] = i }
            for mapping in mappings.reversed() {
                if let i = fileIndex[mapping.id] {
                    guard overwrite else { continue }
                    state.fileMappings[i] = mapping
                    Self.replaceLoaded(mapping, in: &state)
                } else if let i = runtimeIndex[mapping.id] {
                    guard overwrite else { continue }
                    state.runtimeMappings[i] = mapping
                } else {
                    runtimeIndex[mapping.id] = state.runtimeMappings.count
                    state.runtimeMappings.append(mapping)
                    continue
                }
                state.closures[mapping.id] = nil
                changed.append(mapping.id)
            }
        }
        for id in changed { states.forgetUses(of: id) }
    }

    /// Adds a stub answered by `closure` after all others.
    func add(_ mapping: StubMapping, closure: StubClosure) {
        update(appending: true) { state in
            state.runtimeMappings.append(mapping)
            state.closures[mapping.id] = closure
        }
    }

    /// Removes the runtime or file stub with `id`. Returns whether one was removed.
    @discardableResult
    func remove(id: String) -> Bool {
        var removed = false
        publish(touching: [id], removing: true) { state -> StubEdit? in
            let positions = Self.remove(in: &state) { $0.id == id }
            removed = !positions.isEmpty
            state.closures[id] = nil
            return .removed(positions)
        }
        states.forgetUses(of: id)
        return removed
    }

    /// Removes every runtime or file stub whose id is in `ids`, with one new route table (none if no
    /// stub has one of them). Returns how many were removed.
    @discardableResult
    func remove(ids: Set<String>) -> Int {
        guard !ids.isEmpty else { return 0 }
        var removed = 0
        let present = state.withLock { state in
            state.fileMappings.contains { ids.contains($0.id) }
                || state.runtimeMappings.contains { ids.contains($0.id) }
        }
        guard present else { return 0 }
        publish(touching: ids, removing: true) { state -> StubEdit? in
            let positions = Self.remove(in: &state) { ids.contains($0.id) }
            removed = positions.count
            for id in ids { state.closures[id] = nil }
            return .removed(positions)
        }
        for id in ids { states.forgetUses(of: id) }
        return removed
    }

    /// Replaces the first stub with `id` in place (same position, so ties in priority resolve as
    /// before). Returns whether there was one.
    @discardableResult
    func replace(id: String, with mapping: StubMapping) -> Bool {
        var replaced = false
        publish(touching: [id, mapping.id]) { state -> StubEdit? in
            var position: Int?
            if let index = state.fileMappings.firstIndex(where: { $0.id == id }) {
                state.fileMappings[index] = mapping
                position = index
                Self.replaceLoaded(mapping, in: &state)
            } else if let index = state.runtimeMappings.firstIndex(where: { $0.id == id }) {
                state.runtimeMappings[index] = mapping
                position = state.fileMappings.count + index
            }
            replaced = position != nil
            if replaced { state.closures[id] = nil }
            return .replaced(position.map { [$0] } ?? [])
        }
        states.forgetUses(of: id)
        return replaced
    }

    /// What a reset returns to when the file stub `mapping` replaced one: `mapping` when it is persistent (its
    /// file was written); nothing when the stub it replaced was (its file was deleted); else what was loaded
    /// (the file is as it was).
    private static func replaceLoaded(_ mapping: StubMapping, in state: inout State) {
        guard let index = state.loadedFileMappings.firstIndex(where: { $0.id == mapping.id }) else { return }
        if hasFile(mapping) {
            state.loadedFileMappings[index] = mapping
        } else if state.loadedFileMappings[index].persistent {
            state.loadedFileMappings.remove(at: index)
        }
    }

    /// Removes the file and runtime stubs `matching`; returns their positions (ascending) among the stubs,
    /// file stubs first, as the current snapshot has them. Each stub is asked once. A reset no longer brings
    /// back persistent file stubs among them.
    private static func remove(in state: inout State, where matching: (StubMapping) -> Bool) -> [Int] {
        state.loadedFileMappings.removeAll { $0.persistent && matching($0) }
        var files: [Int] = [], runtime: [Int] = []
        for (index, mapping) in state.fileMappings.enumerated() where matching(mapping) { files.append(index) }
        for (index, mapping) in state.runtimeMappings.enumerated() where matching(mapping) { runtime.append(index) }
        state.fileMappings.remove(at: files)
        state.runtimeMappings.remove(at: runtime)
        let offset = state.fileMappings.count + files.count
        return files + runtime.map { offset + $0 }
    }

    /// Makes the runtime stubs in `sources` (id → file) file stubs, as if loaded from those files: they
    /// keep their place and survive ``reset()``. Used after `POST /__admin/mappings/save`.
    func adoptAsFileMappings(_ sources: [String: String]) {
        update { state in
            let adopted = state.runtimeMappings.filter { sources[$0.id] != nil }.map { mapping in
                var mapping = mapping
                mapping.source = sources[mapping.id]
                return mapping
            }
            state.runtimeMappings.removeAll { sources[$0.id] != nil }
            state.fileMappings += adopted
            state.loadedFileMappings += adopted
        }
    }

    /// Makes the stubs in `files` (id → the file written for it) persistent, in place. Used after
    /// `POST /__admin/mappings/save`.
    func markPersisted(_ files: [String: String]) {
        guard !files.isEmpty else { return }
        update { state in
            func mark(_ mapping: inout StubMapping) {
                guard let file = files[mapping.id] else { return }
                mapping.persistent = true
                mapping.source = file
            }
            for index in state.runtimeMappings.indices { mark(&state.runtimeMappings[index]) }
            for index in state.fileMappings.indices { mark(&state.fileMappings[index]) }
        }
    }

    /// Removes every stub, file stubs included; ``reset()`` brings back the file stubs that are not persistent.
    func removeAll() {
        update { state in
            state.fileMappings.removeAll()
            state.runtimeMappings.removeAll()
            state.closures.removeAll()
            state.loadedFileMappings.removeAll { $0.persistent }
        }
    }

    /// Back to the stubs last loaded from files and the persistent ones: other runtime stubs are dropped, removed
    /// file stubs that are not persistent return. The data collections go back to their seeds; those declared at
    /// run time are dropped.
    /// - Parameter reloaded: the stub files read again, which become the stubs loaded from files (persistent
    ///   stubs are among them, read from their files); `nil` keeps those last loaded.
    func reset(reloading reloaded: StubsLoadResult? = nil) {
        update(reusing: reloaded?.compiled) { state in
            if let reloaded {
                state.loadedFileMappings = reloaded.mappings
                state.runtimeMappings.removeAll()
            } else {
                state.runtimeMappings.removeAll { !Self.hasFile($0) }
            }
            state.closures.removeAll()
            state.fileMappings = state.loadedFileMappings
        }
        states.reset()
        data.reset(reloading: reloaded?.collections)
    }

    /// Changes the stubs and publishes a new snapshot.
    /// - Parameters:
    ///   - appending: `change` only appends runtime stubs, so every current stub keeps its place and
    ///     its prepared response and compiled pattern are reused unchecked.
    ///   - touching: the ids of the stubs `change` removes or replaces (and of the replacements): only those
    ///     ids are forgotten as used. `nil`: any change.
    ///   - removing: whether `change` removes the stubs `touching` names (rather than replacing them).
    ///   - compiled: matchers the loader compiled, which the new route table takes instead of compiling them.
    private func update(
        appending: Bool = false, touching ids: Set<String>? = nil, removing: Bool = false,
        reusing compiled: CompiledMatchers? = nil, _ change: (inout State) -> Void
    ) {
        publish(touching: ids, removing: removing, reusing: compiled) { state -> StubEdit? in
            change(&state)
            return appending ? .appended : nil
        }
    }

    /// ``update(appending:touching:removing:_:)`` for a `change` that says how it changed the stubs: every
    /// stub it did not touch keeps its compiled pattern and prepared response by position, without being
    /// compared, and the route table shares its indexes. `nil`: any change, stubs compared by id.
    private func publish(
        touching ids: Set<String>? = nil, removing: Bool = false, reusing compiled: CompiledMatchers? = nil,
        _ change: (inout State) -> StubEdit?
    ) {
        let edit = state.withLock { state -> StubEdit? in
            let edit = change(&state)
            state.snapshot = StubSnapshot(
                state.fileMappings + state.runtimeMappings, closures: state.closures,
                loadOptions: loadOptions,
                previous: state.snapshot, edit: edit,
                jsonBodyLimit: jsonBodyLimit,
                regexWarnings: regexWarnings, reusing: compiled)
            state.builds += 1
            return edit
        }
        if edit == .appended { return }  // no stub left: nothing to forget
        if let ids {
            if removing { used.withLock { $0.keep { !ids.contains($0) } } }
            return
        }
        let ids = Set(mappings.map(\.id))
        used.withLock { $0.keep { ids.contains($0) } }
    }
}

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
                    StubResponse(
                        $0, stubID: mapping.id, stubName: mapping.name, displayName: mapping.displayName,
                        loadOptions: loadOptions)
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
