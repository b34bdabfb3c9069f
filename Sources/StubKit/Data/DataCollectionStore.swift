import StubHTTP

/// One collection of the data store: its declaration, its items behind a lock, and its REST endpoints.
///
/// Each request is one step under the lock (read, check, change), so parallel writes never lose an item and
/// a refused write changes nothing. Parsing the body and checking it against the schema happen before the
/// lock is taken.
final class DataCollectionStore: Sendable {
    let collection: DataCollection
    /// The compiled ``DataCollection/schema``.
    private let validator: JSONSchema?
    private let items: LockedValue<DataItems>
    /// Told after every change (the store's persistence); not under the lock.
    private let changed: @Sendable (DataCollectionStore) -> Void

    /// - Parameters:
    ///   - items: the items to start with (the seed, or a saved file's), checked as ``replaceAll(with:)`` checks.
    ///   - changed: told after every change.
    /// - Throws: ``DataFailure`` naming the item at fault.
    init(
        _ collection: DataCollection, items: [JSONValue],
        changed: @escaping @Sendable (DataCollectionStore) -> Void
    ) throws(DataFailure) {
        self.collection = collection
        let validator = collection.schema.flatMap { try? JSONSchema($0) }
        self.validator = validator
        self.items = LockedValue(try Self.checked(items, collection, validator))
        self.changed = changed
    }

    /// How the journal names the collection as what answered a request (`data:todos`).
    var matchedStub: LoggedRequest.MatchedStub {
        LoggedRequest.MatchedStub(
            id: "data:" + collection.name, name: collection.name, displayName: "data collection " + collection.name)
    }

    /// How many items it holds, and their bytes as compact JSON.
    var size: (count: Int, bytes: Int) { items.withLock { ($0.count, $0.byteCount) } }

    /// Every item, in order.
    var all: [JSONValue] { items.withLock { $0.all.map(\.item) } }

    /// The number of items, their bytes and the items, read at one moment.
    var contents: (count: Int, bytes: Int, items: [JSONValue]) {
        items.withLock { ($0.count, $0.byteCount, $0.all.map(\.item)) }
    }

    /// Every item as one JSON array (from the stored bytes).
    var jsonArray: [UInt8] { DataItems.jsonArray(items.withLock { $0.all }) }

    /// The item with id `key`.
    func item(_ key: String) -> JSONValue? { items.withLock { $0.slot(key)?.item } }

    /// Replaces every item with `newItems`, checked as a seed is (objects, distinct ids, the schema, the bounds).
    /// - Throws: ``DataFailure`` naming the item at fault; then nothing changed.
    func replaceAll(with newItems: [JSONValue]) throws(DataFailure) {
        let checked = try Self.checked(newItems, collection, validator)
        items.withLock { $0 = checked }
        changed(self)
    }

    /// `newItems` as the collection's items, each checked as a posted one is.
    private static func checked(
        _ newItems: [JSONValue], _ collection: DataCollection, _ validator: JSONSchema?
    ) throws(DataFailure) -> DataItems {
        var checked = DataItems(collection, items: [])
        for (index, item) in newItems.enumerated() {
            do {
                _ = try checked.insert(try checkedItem(item, collection, validator))
            } catch {
                var failure = error
                failure.detail = "item \(index): \(error.message)"
                failure.violations = []
                throw failure
            }
        }
        return checked
    }

    /// Back to the seed.
    func reset() {
        // The seed was checked when the collection was declared.
        let seed = (try? Self.checked(collection.seed, collection, validator)) ?? DataItems(collection, items: [])
        items.withLock { $0 = seed }
        changed(self)
    }

    // MARK: - REST

    /// Answers `request` for the collection (`key == nil`) or the item with id `key`.
    func serve(_ request: StubHTTPRequest, key: String?) -> HTTPResponse {
        do {
            return try answer(request, key: key)
        } catch {
            return error.response
        }
    }

    private func answer(_ request: StubHTTPRequest, key: String?) throws(DataFailure) -> HTTPResponse {
        let method = request.method.rawValue
        guard let key else {
            switch method {
            case "GET", "HEAD": return try list(request)
            case "POST": return try create(request.body)
            default: throw .method(method, allow: "GET, HEAD, POST")
            }
        }
        switch method {
        case "GET", "HEAD":
            guard let slot = items.withLock({ $0.slot(key) }) else { throw .noItem(collection.name, key) }
            return Self.json(slot.bytes)
        case "PUT":
            let item = try checkedItem(try Self.parse(request.body))
            let slot = try items.withLock { items throws(DataFailure) in try items.replace(key, with: item) }
            changed(self)
            return Self.json(slot.bytes)
        case "PATCH":
            let patch = try Self.parse(request.body)
            let slot = try items.withLock { items throws(DataFailure) -> DataItems.Slot in
                guard let current = items.slot(key) else { throw .noItem(collection.name, key) }
                let patched = Self.mergePatch(current.item, patch)
                guard DataCollection.idKey(patched[collection.idField]) == key else {
                    throw .idChanged(collection.idField, key)
                }
                // Checked under the lock: the item patched is the one stored now.
                return try items.replace(key, with: try checkedItem(patched))
            }
            changed(self)
            return Self.json(slot.bytes)
        case "DELETE":
            guard items.withLock({ $0.remove(key) }) else { throw .noItem(collection.name, key) }
            changed(self)
            return HTTPResponse(status: .noContent)
        default:
            throw .method(method, allow: "GET, HEAD, PUT, PATCH, DELETE")
        }
    }

    private func create(_ body: [UInt8]) throws(DataFailure) -> HTTPResponse {
        let item = try checkedItem(try Self.parse(body))
        let slot = try items.withLock { items throws(DataFailure) in try items.insert(item) }
        changed(self)
        var response = Self.json(slot.bytes)
        response.status = .created
        response.headers.add(name: "Location", value: collection.basePath + "/" + PercentEncoding.pathSegment(slot.key))
        return response
    }

    /// `item` if it is an object that fits the schema.
    private func checkedItem(_ item: JSONValue) throws(DataFailure) -> JSONValue {
        try Self.checkedItem(item, collection, validator)
    }

    private static func checkedItem(
        _ item: JSONValue, _ collection: DataCollection, _ validator: JSONSchema?
    ) throws(DataFailure) -> JSONValue {
        guard case .object = item else { throw .notObject(collection.name) }
        if let validator {
            let violations = validator.violations(of: item)
            guard violations.isEmpty else { throw .schema(collection.name, violations) }
        }
        return item
    }

    /// `GET basePath`: filtered by `?field=value`, sorted by `sort`, a page of `limit`/`offset` or
    /// `page`/`per_page`; the number of items that passed the filter in `X-Total-Count`.
    private func list(_ request: StubHTTPRequest) throws(DataFailure) -> HTTPResponse {
        let query = try DataQuery(request.queryItems)
        let (page, total): ([DataItems.Slot], Int) = items.withLock { items in
            guard query.filters.isEmpty, query.sort.isEmpty else {
                let selected = query.sorted(items.all.filter { query.accepts($0.item) })
                let start = min(query.offset, selected.count)
                return (
                    Array(selected[start..<min(selected.count, start + min(query.limit, selected.count))]),
                    selected.count
                )
            }
            return (items.page(offset: query.offset, limit: query.limit), items.count)
        }
        var response = Self.json(DataItems.jsonArray(page))
        response.headers.add(name: "X-Total-Count", value: String(total))
        return response
    }

    // MARK: - Helpers

    static func json(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: bytes)
    }

    static func parse(_ body: [UInt8]) throws(DataFailure) -> JSONValue {
        guard !body.isEmpty else { throw .notJSON("the body is empty: send the item as JSON") }
        do {
            return try JSONParser.parse(body)
        } catch {
            throw .notJSON(error.description)
        }
    }

    /// `target` with `patch` applied as a JSON merge patch (RFC 7396): `null` removes a member, an object merges,
    /// anything else replaces.
    static func mergePatch(_ target: JSONValue, _ patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [(key: String, value: JSONValue)]
        if case .object(let current) = target { members = current } else { members = [] }
        for (name, value) in changes {
            let position = members.firstIndex { $0.key == name }
            if value == .null {
                if let position { members.remove(at: position) }
            } else if let position {
                members[position].value = mergePatch(members[position].value, value)
            } else {
                members.append((name, mergePatch(.null, value)))
            }
        }
        return .object(members)
    }
}
