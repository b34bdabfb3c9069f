#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The data store in Swift: collections declared, read and seeded with the app's own `Codable` types.
///
/// ```swift
/// try server.addDataCollection(DataCollection(name: "todos", basePath: "/api/todos"))
/// try await server.data("todos").replace(with: [Todo(id: 1, title: "Buy milk", done: false)])
/// // … the app adds one through POST /api/todos …
/// let todos = try await server.data("todos").items(as: Todo.self)
/// ```
extension StubServer {
    /// Declares `collection`, replacing the one of the same name: its endpoints answer from its seed at once (or
    /// from its saved file, with ``Configuration/dataDirectory``). ``reset()`` drops it.
    /// - Throws: ``DataCollectionError`` when its seed does not fit it or another collection has its base path.
    public func addDataCollection(_ collection: DataCollection) throws(DataCollectionError) {
        do {
            try store.data.declare(collection)
        } catch {
            throw DataCollectionError(error)
        }
    }

    /// Every data collection, in the order declared (those of the stubs directory first).
    public var dataCollections: [DataCollection] { store.data.collections.map(\.collection) }

    /// The items of the data collection `name`, in order.
    /// - Throws: ``DataCollectionError`` (404) when there is no such collection.
    public func dataItems(_ name: String) throws(DataCollectionError) -> [JSONValue] {
        try collection(name).all
    }

    /// Replaces the items of the data collection `name`, each checked as a posted item is.
    /// - Throws: ``DataCollectionError`` naming the item at fault; then nothing changed.
    public func replaceDataItems(_ name: String, with items: [JSONValue]) throws(DataCollectionError) {
        let collection = try collection(name)
        do {
            try collection.replaceAll(with: items)
        } catch {
            throw DataCollectionError(error)
        }
    }

    /// The data collection `name` back to its seed.
    public func resetDataCollection(_ name: String) throws(DataCollectionError) {
        try collection(name).reset()
    }

    private func collection(_ name: String) throws(DataCollectionError) -> DataCollectionStore {
        guard let collection = store.data.collection(named: name) else {
            throw DataCollectionError(status: 404, message: "no data collection named \(name)")
        }
        return collection
    }
}

extension StubServerAdmin {
    /// The data collection `name`, read and written with `Codable` values.
    public func data(_ name: String) -> StubDataCollection { StubDataCollection(name: name, server: self) }
}

/// A data collection of a server (in this process or behind its admin API), read and seeded with the app's own
/// `Codable` types. Made by ``StubServerAdmin/data(_:)``.
public struct StubDataCollection: Sendable {
    /// The collection's name.
    public let name: String
    /// The server it belongs to.
    public let server: any StubServerAdmin

    /// The items, in order, decoded as `Item`.
    public func items<Item: Decodable>(as type: Item.Type = Item.self, decoder: JSONDecoder = JSONDecoder())
        async throws -> [Item]
    {
        try await server.dataItems(name).map { try $0.decode(as: type, decoder: decoder) }
    }

    /// How many items it holds.
    public var count: Int { get async throws { try await server.dataItems(name).count } }

    /// Replaces the items with `items`, encoded with `encoder`.
    public func replace<Item: Encodable>(
        with items: [Item], encoder: JSONEncoder = JSONValue.sortedKeysEncoder()
    ) async throws {
        try await server.replaceDataItems(name, with: items.map { try JSONValue(encoding: $0, encoder: encoder) })
    }

    /// Back to the seed.
    public func reset() async throws { try await server.resetDataCollection(name) }
}

/// Why the data store refused a call made in Swift: the HTTP status its endpoints would answer and what is wrong.
public struct DataCollectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 404 (no such collection), 409 (a base path taken), 422 (an item that does not fit), 507 (past the bounds)…
    public let status: Int
    public let message: String

    public var description: String { message }

    init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    init(_ failure: DataFailure) {
        self.init(status: failure.status, message: "\(failure.title): \(failure.message)")
    }
}
