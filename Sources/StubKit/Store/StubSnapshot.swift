/// An immutable route table with every stub's response prepared: what a request is matched against.
///
/// Built whenever the stubs change; requests read the current one without waiting on writers.
final class StubSnapshot: Sendable {
    let table: RouteTable
    /// Aligned with the mappings' insertion order in ``table``.
    let responses: [StubResponse]
    let mappings: [StubMapping]

    init(_ mappings: [StubMapping]) {
        self.mappings = mappings
        table = RouteTable(mappings)
        responses = mappings.map(StubResponse.init)
    }
}
