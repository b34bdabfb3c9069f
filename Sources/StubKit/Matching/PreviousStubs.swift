/// The stubs of the route table a new one replaces, by id: where a stub of the new table can take its
/// compiled pattern and prepared response from, instead of building them again.
///
/// An index of positions, not copies of the stubs: copying thousands of them is what a rebuild would spend.
struct PreviousStubs {
    /// The first position of each id, from `prefix` on.
    private var positions: [String: Int] = [:]
    /// Ids held by more than one previous stub: never reused unchecked.
    private var repeated: Set<String> = []
    private let changedIDs: Set<String>?

    /// - Parameters:
    ///   - mappings: the previous stubs; those before `prefix` are reused by position, not looked up.
    ///   - changedIDs: when known, the only ids whose stubs may have changed (see ``find(_:)``).
    init(_ mappings: [StubMapping], from prefix: Int, changedIDs: Set<String>?) {
        self.changedIDs = changedIDs
        guard prefix < mappings.count else { return }
        positions.reserveCapacity(mappings.count - prefix)
        for index in prefix..<mappings.count {
            let id = mappings[index].id
            if positions[id] == nil { positions[id] = index } else { repeated.insert(id) }
        }
    }

    /// The previous position of the stub with `id`, and whether it is known unchanged (its id is not among
    /// the changed ones, and no other previous stub has it); nil when no previous stub has it. A stub not
    /// known unchanged must be compared before its parts are reused.
    func find(_ id: String) -> (position: Int, unchanged: Bool)? {
        guard let position = positions[id] else { return nil }
        let unchanged = changedIDs.map { !$0.contains(id) && !repeated.contains(id) } ?? false
        return (position, unchanged)
    }
}
