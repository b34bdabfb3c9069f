import StubModel

/// The stubs of the route table a new one replaces, by id: where a stub of the new table can take its
/// compiled pattern and prepared response from, instead of building them again, when the store does not
/// know how the stubs changed (a reload, an import).
///
/// An index of positions, not copies of the stubs: copying thousands of them is what a rebuild would spend.
package struct PreviousStubs {
    /// The first position of each id.
    private var positions: [String: Int] = [:]

    package init(_ mappings: [StubMapping]) {
        positions.reserveCapacity(mappings.count)
        for (index, mapping) in mappings.enumerated() where positions[mapping.id] == nil {
            positions[mapping.id] = index
        }
    }

    /// The position of the first previous stub with `id`, nil when none has it. Its parts are reused only
    /// once it is compared with the new stub.
    package func position(of id: String) -> Int? {
        positions[id]
    }
}
