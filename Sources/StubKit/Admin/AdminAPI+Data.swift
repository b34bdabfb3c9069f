import StubHTTP

/// `/__admin/stubserver/data`: the data collections (``DataCollection``), declared, read, replaced and reset.
///
/// A collection is answered as its declaration without the seed, with `count` (items), `bytes` (their compact
/// JSON) and, for one collection, `items`.
extension AdminAPI {
    /// `GET /__admin/stubserver/data`: every collection, without items.
    func listDataCollections() -> HTTPResponse {
        AdminResponse.json(["collections": .array(store.data.collections.map { Self.summary($0, items: false) })])
    }

    /// `POST /__admin/stubserver/data`: declares a collection (the fields of a `collections/` file), replacing the
    /// one of the same name. 201 with the collection and its items.
    func declareDataCollection(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = try Self.parseBody(body)
        let collection: DataCollection
        do {
            collection = try DataCollection(json: json, file: nil, bodyFiles: bodyFiles)
        } catch {
            throw .invalid(error, title: "Invalid data collection")
        }
        do {
            let declared = try store.data.declare(collection)
            return AdminResponse.json(Self.summary(declared, items: true), status: .created)
        } catch {
            throw Self.adminError(error)
        }
    }

    /// `GET /__admin/stubserver/data/{name}`: the collection with its items.
    func getDataCollection(_ name: String) throws(AdminError) -> HTTPResponse {
        AdminResponse.json(Self.summary(try dataCollection(name), items: true))
    }

    /// `PUT /__admin/stubserver/data/{name}`: replaces the items with the body's (a JSON array, or
    /// `{"items": [...]}`), each checked as a posted item is. Nothing changes when one is refused.
    func replaceDataItems(_ name: String, _ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let collection = try dataCollection(name)
        let json = try Self.parseBody(body)
        guard case .array(let items) = json["items"] ?? json else {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid items",
                detail: "expected a JSON array of items, or {\"items\": [...]}", pointer: "/")
        }
        do {
            try collection.replaceAll(with: items)
        } catch {
            throw Self.adminError(error)
        }
        return AdminResponse.json(Self.summary(collection, items: true))
    }

    /// `DELETE /__admin/stubserver/data/{name}`: the collection back to its seed.
    func resetDataCollection(_ name: String) throws(AdminError) -> HTTPResponse {
        let collection = try dataCollection(name)
        collection.reset()
        return AdminResponse.json(Self.summary(collection, items: true))
    }

    private func dataCollection(_ name: String) throws(AdminError) -> DataCollectionStore {
        guard let collection = store.data.collection(named: name) else {
            let names = store.data.collections.map(\.collection.name)
            throw .notFound(
                "No data collection named \(name)"
                    + (names.isEmpty ? " (there is none)" : " (there are \(names.joined(separator: ", ")))"))
        }
        return collection
    }

    /// A collection as the admin API answers it.
    static func summary(_ store: DataCollectionStore, items: Bool) -> JSONValue {
        guard case .object(var members) = store.collection.json else { return .null }
        members.removeAll { $0.key == "seed" }
        if items {
            let contents = store.contents
            members += [
                ("count", .number(String(contents.count))), ("bytes", .number(String(contents.bytes))),
                ("items", .array(contents.items))
            ]
        } else {
            let size = store.size
            members += [("count", .number(String(size.count))), ("bytes", .number(String(size.bytes)))]
        }
        return .object(members)
    }

    private static func adminError(_ failure: DataFailure) -> AdminError {
        AdminError(
            status: StubHTTPStatus(code: failure.status), code: failure.status, title: failure.title,
            detail: failure.message, pointer: nil)
    }
}
