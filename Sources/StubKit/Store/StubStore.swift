/// The stubs a server answers with: those loaded from files, then those added at run time.
///
/// Changes happen under a lock and publish a new ``StubSnapshot``; matching reads the current
/// snapshot. Runtime stubs come after file stubs, so they win over file stubs of the same priority.
final class StubStore: Sendable {
    private struct State {
        /// As last loaded from files; what ``reset()`` returns to.
        var loadedFileMappings: [StubMapping]
        var fileMappings: [StubMapping]
        var runtimeMappings: [StubMapping] = []
        var snapshot: StubSnapshot
    }

    private let state: LockedValue<State>

    init(fileMappings: [StubMapping]) {
        state = LockedValue(State(loadedFileMappings: fileMappings, fileMappings: fileMappings,
                             snapshot: StubSnapshot(fileMappings)))
    }

    /// The current route table.
    var snapshot: StubSnapshot { state.withLock { $0.snapshot } }

    /// Every stub, file stubs first, in insertion order.
    var mappings: [StubMapping] { snapshot.mappings }

    /// Replaces the stubs loaded from files (e.g. after a reload); runtime stubs are kept.
    func replaceFileMappings(_ mappings: [StubMapping]) {
        update { state in
            state.loadedFileMappings = mappings
            state.fileMappings = mappings
        }
    }

    /// Adds a stub after all others.
    func add(_ mapping: StubMapping) {
        update { $0.runtimeMappings.append(mapping) }
    }

    /// Removes the runtime or file stub with `id`. Returns whether one was removed.
    @discardableResult
    func remove(id: String) -> Bool {
        var removed = false
        update { state in
            let before = state.runtimeMappings.count + state.fileMappings.count
            state.runtimeMappings.removeAll { $0.id == id }
            state.fileMappings.removeAll { $0.id == id }
            removed = state.runtimeMappings.count + state.fileMappings.count != before
        }
        return removed
    }

    /// Replaces the first stub with `id` in place (same position, so ties in priority resolve as
    /// before). Returns whether there was one.
    @discardableResult
    func replace(id: String, with mapping: StubMapping) -> Bool {
        var replaced = false
        update { state in
            if let position = state.fileMappings.firstIndex(where: { $0.id == id }) {
                state.fileMappings[position] = mapping
                replaced = true
            } else if let position = state.runtimeMappings.firstIndex(where: { $0.id == id }) {
                state.runtimeMappings[position] = mapping
                replaced = true
            }
        }
        return replaced
    }

    /// Removes every stub, file stubs included; ``reset()`` brings the file stubs back.
    func removeAll() {
        update { state in
            state.fileMappings.removeAll()
            state.runtimeMappings.removeAll()
        }
    }

    /// Back to the stubs last loaded from files: runtime stubs are dropped, removed file stubs return.
    func reset() {
        update { state in
            state.runtimeMappings.removeAll()
            state.fileMappings = state.loadedFileMappings
        }
    }

    private func update(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            state.snapshot = StubSnapshot(state.fileMappings + state.runtimeMappings)
        }
    }
}
