import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The server's data collections (``DataCollection``): those declared in the stubs directory's `collections/`
/// folder, then those declared at run time (`POST /__admin/stubserver/data`, ``StubServer/addDataCollection(_:)``).
///
/// A reset drops the run-time ones and puts the others back to their seed. With a data directory
/// (`--data-dir`), a collection starts from its saved file when there is one, and every change is written back
/// (``DataPersistence``).
final class DataStore: Sendable {
    private struct State {
        /// As declared in files; what a reset returns to.
        var fromFiles: [DataCollection] = []
        /// Every collection, in the order declared.
        var stores: [DataCollectionStore] = []
    }

    private let state = LockedValue(State())
    let persistence: DataPersistence?
    /// Hears the routes after every change, under the store's lock (so the last one heard is the current one).
    private let publish: @Sendable (DataRoutes?) -> Void

    /// - Parameters:
    ///   - persistence: where collections are saved; `nil` keeps them in memory only.
    ///   - publish: told the routes (`nil`: no collection) after every declaration and reset.
    init(persistence: DataPersistence?, publish: @escaping @Sendable (DataRoutes?) -> Void) {
        self.persistence = persistence
        self.publish = publish
    }

    /// Every collection, in the order declared.
    var collections: [DataCollectionStore] { state.withLock { $0.stores } }

    /// The collection named `name`.
    func collection(named name: String) -> DataCollectionStore? {
        state.withLock { $0.stores.first { $0.collection.name == name } }
    }

    /// Declares the collections of the stub files (at start, and again on a reset), dropping every other.
    /// - Throws: ``DataFailure`` when a saved file in the data directory does not fit its collection.
    func load(fromFiles collections: [DataCollection]) throws(DataFailure) {
        let stores = try collections.map { collection throws(DataFailure) in try makeStore(collection, seedOnly: false)
        }
        state.withLock { state in
            state.fromFiles = collections
            state.stores = stores
            publish(Self.routes(stores))
        }
    }

    /// Declares `collection` at run time, replacing the one of the same name (if any).
    /// - Throws: ``DataFailure`` 409 when another collection has its base path; when its saved file does not fit it.
    @discardableResult
    func declare(_ collection: DataCollection) throws(DataFailure) -> DataCollectionStore {
        let store = try makeStore(collection, seedOnly: false)
        return try state.withLock { state throws(DataFailure) in
            if let other = state.stores.first(where: {
                $0.collection.basePath == collection.basePath && $0.collection.name != collection.name
            }) {
                throw DataFailure(
                    status: 409, title: "The base path is taken",
                    detail: "collection \(other.collection.name) is at \(collection.basePath)")
            }
            if let index = state.stores.firstIndex(where: { $0.collection.name == collection.name }) {
                state.stores[index] = store
            } else {
                state.stores.append(store)
            }
            publish(Self.routes(state.stores))
            return store
        }
    }

    /// Run-time collections dropped, the files' back to their seed (`reloaded` when the files were read again).
    func reset(reloading reloaded: [DataCollection]? = nil) {
        state.withLock { state in
            if let reloaded { state.fromFiles = reloaded }
            // Their seeds were checked when they were declared.
            state.stores = state.fromFiles.compactMap { try? makeStore($0, seedOnly: true) }
            publish(Self.routes(state.stores))
        }
        for store in collections { persistence?.changed(store) }
    }

    /// Writes every pending change (at stop).
    func flush() { persistence?.flush() }

    /// A store for `collection`: its saved items when there is a data directory with a file for it (unless
    /// `seedOnly`), else its seed.
    private func makeStore(_ collection: DataCollection, seedOnly: Bool) throws(DataFailure) -> DataCollectionStore {
        let changed: @Sendable (DataCollectionStore) -> Void = { [persistence] store in persistence?.changed(store) }
        guard !seedOnly, let persistence, let saved = try persistence.saved(collection) else {
            return try DataCollectionStore(collection, items: collection.seed, changed: changed)
        }
        do {
            return try DataCollectionStore(collection, items: saved, changed: changed)
        } catch {
            throw DataFailure(
                status: 500, title: "A saved collection does not fit its declaration",
                detail:
                    "\(persistence.file(for: collection).path): \(error.message) (declared in \(collection.source ?? "Swift"))"
            )
        }
    }

    private static func routes(_ stores: [DataCollectionStore]) -> DataRoutes? {
        stores.isEmpty ? nil : DataRoutes(stores)
    }
}

/// Which collection a request's path is for: `basePath` (the list) or `basePath/{id}` (one item).
final class DataRoutes: Sendable {
    /// Longest base path first, so `/api/todos/archived` wins over `/api/todos`.
    private let stores: [DataCollectionStore]

    init(_ stores: [DataCollectionStore]) {
        self.stores = stores.sorted { $0.collection.basePath.utf8.count > $1.collection.basePath.utf8.count }
    }

    /// The collection `rawPath` (not percent-decoded) is for, and the item's id (decoded; `nil` for the list).
    func route(_ rawPath: Substring) -> DataRoute? {
        for store in stores {
            let base = store.collection.basePath
            guard rawPath.hasPrefix(base) else { continue }
            let rest = rawPath.dropFirst(base.count)
            if rest.isEmpty || rest == "/" { return DataRoute(store: store, key: nil) }
            guard rest.first == "/" else { continue }
            let segment = rest.dropFirst()
            guard !segment.contains("/") else { continue }
            return DataRoute(store: store, key: PercentDecoding.decode(segment, plusAsSpace: false))
        }
        return nil
    }
}

/// A request's collection and item (``DataRoutes/route(_:)``).
struct DataRoute: Sendable {
    let store: DataCollectionStore
    /// The item's id; `nil` for the list.
    let key: String?

    /// The collections this large are listed off the event loop: a list (filtered, sorted) walks every item.
    static let largeCollection = 1_024

    /// Whether `method` lists a collection of more than ``largeCollection`` items.
    func listsLarge(_ method: HTTPMethod) -> Bool {
        key == nil && (method.rawValue == "GET" || method.rawValue == "HEAD") && store.size.count > Self.largeCollection
    }
}

/// Response templates read the collections: `{{data 'todos' 'count'}}`, `{{data 'todos' 'items'}}`,
/// `{{data 'todos' 'item' request.path.id}}`.
extension DataStore: TemplateDataSource {
    func templateItems(of name: String) -> [JSONValue]? { collection(named: name)?.all }

    func templateItem(_ id: String, of name: String) -> JSONValue? { collection(named: name)?.item(id) }
}
