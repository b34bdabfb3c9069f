import StubModel

/// What response templates read of the server's data store (`{{data 'todos' 'count'}}`).
package protocol TemplateDataSource: Sendable {
    /// The items of collection `name`, in the collection's order; `nil` when there is no such collection.
    func templateItems(of name: String) -> [JSONValue]?
    /// The item of collection `name` whose id is `id` (the id as text: `42`, `a1b2`); `nil` when the
    /// collection or the item does not exist.
    func templateItem(_ id: String, of name: String) -> JSONValue?
}
