import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `/__admin/mappings`: listing, adding, replacing and removing stubs.
extension AdminAPI {
    /// `GET /__admin/mappings[?limit=N&offset=M]`: stubs in WireMock's order, by priority, then most recently
    /// added first; `meta.total` counts them all. Each carries WireMock's `insertionIndex` (its place in the order
    /// stubs were added, 0 the oldest; WireMock writes it only into saved files, and its clients read it), from
    /// which `StubServerClient.mappings` restores that order.
    func listMappings(page: (limit: Int?, offset: Int)) -> StreamedJSONObject {
        let mappings = store.mappings
        let order = Self.wireMockOrder(mappings)
        let shown = Array(order.dropFirst(page.offset).prefix(page.limit ?? mappings.count))
        return StreamedJSONObject(
            arrayKey: "mappings", count: shown.count, after: [("meta", ["total": JSONValue(mappings.count)])]
        ) { index in
            guard case .object(let members) = mappings[shown[index]].json else { return mappings[shown[index]].json }
            return .object(members + [("insertionIndex", JSONValue(shown[index]))])
        }
    }

    /// The positions of `mappings` (in the order they were added) as WireMock lists stubs: by priority, then
    /// most recently added first.
    static func wireMockOrder(_ mappings: [StubMapping]) -> [Int] {
        mappings.indices.sorted { a, b in
            mappings[a].priority != mappings[b].priority ? mappings[a].priority < mappings[b].priority : a > b
        }
    }

    /// `{"mappings": [...], "meta": {"total": N}}`, whole.
    static func mappingList(_ mappings: [StubMapping], total: Int? = nil) -> HTTPResponse {
        AdminResponse.json(mappingsDocument(mappings, total: total))
    }

    /// `{"mappings": [...], "meta": {"total": N}}`, serialized as it is sent.
    static func mappingsDocument(_ mappings: [StubMapping], total: Int? = nil) -> StreamedJSONObject {
        StreamedJSONObject(
            arrayKey: "mappings", count: mappings.count,
            after: [("meta", ["total": JSONValue(total ?? mappings.count)])]
        ) { mappings[$0].json }
    }

    /// The `limit` and `offset` query parameters.
    static func page(_ request: StubHTTPRequest) throws(AdminError) -> (limit: Int?, offset: Int) {
        (try queryInteger(request, "limit"), try queryInteger(request, "offset") ?? 0)
    }

    /// `POST /__admin/mappings`: adds the stub (a persistent one written to its file first); 201 with it (and
    /// its id).
    func createMapping(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let mapping = try keeping(decodeMapping(body))
        store.add(mapping)
        if let shadow = Shadowing.of(mapping, in: store.snapshot.table) {
            log.write("stubserver: warning: admin: \(shadow.warning)")
        }
        return AdminResponse.json(mapping.json, status: .created)
    }

    /// `GET /__admin/mappings/{id}`.
    func getMapping(_ id: String) throws(AdminError) -> HTTPResponse {
        guard let mapping = store.mappings.first(where: { $0.id == id }) else { throw Self.unknownMapping(id) }
        return AdminResponse.json(mapping.json)
    }

    /// `PUT /__admin/mappings/{id}`: replaces the stub in place; the id in the path wins over one in the body.
    func updateMapping(_ id: String, _ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        var mapping = try decodeMapping(body)
        mapping.id = id
        return AdminResponse.json(try replace(with: mapping).json)
    }

    /// `POST /__admin/mappings/edit` (WireMock 2's `editStub`): replaces the stub with the body's `id` in place,
    /// as `PUT /__admin/mappings/{id}` does. 204, as WireMock; 404 for an unknown id (WireMock: 500).
    func editMapping(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        _ = try replace(with: decodeMapping(body))
        return HTTPResponse(status: .noContent)
    }

    /// Replaces the stub with `mapping`'s id in place, the files of persistent stubs following (written over the
    /// replaced stub's own file when it has one); returns `mapping` as kept. 404 for an unknown id.
    private func replace(with mapping: StubMapping) throws(AdminError) -> StubMapping {
        guard let replaced = store.mappings.first(where: { $0.id == mapping.id }) else {
            throw Self.unknownMapping(mapping.id)
        }
        let kept = try keeping(mapping, replacing: replaced)
        guard store.replace(id: mapping.id, with: kept) else {
            deleteFiles(of: [kept])  // removed meanwhile
            throw Self.unknownMapping(mapping.id)
        }
        return kept
    }

    /// Removes `mappings` (every stub with one of their ids) with one new route table, and the files of the
    /// persistent ones; returns how many were removed.
    @discardableResult
    func remove(_ mappings: [StubMapping]) -> Int {
        let removed = store.remove(ids: Set(mappings.map(\.id)))
        deleteFiles(of: mappings)
        return removed
    }

    /// `POST /__admin/mappings/remove` (`removeStub` in WireMock's Java client, 2 and 3) with a stub mapping: removes
    /// the stub with its `id`, or, when there is none, every stub whose request pattern equals its `request`
    /// (as WireMock). `{}`, even when nothing was removed (WireMock: 200).
    func removeMatchingMapping(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let mapping = try decodeMapping(body)
        let mappings = store.mappings
        let byID = mappings.filter { $0.id == mapping.id }
        remove(byID.isEmpty ? mappings.filter { $0.request == mapping.request } : byID)
        return AdminResponse.empty
    }

    /// `DELETE /__admin/mappings/{id}`, deleting the file of a persistent stub.
    func deleteMapping(_ id: String) throws(AdminError) -> HTTPResponse {
        guard remove(store.mappings.filter { $0.id == id }) > 0 else { throw Self.unknownMapping(id) }
        return AdminResponse.empty
    }

    /// `DELETE /__admin/mappings`: removes every stub, and deletes the files of the persistent ones. The stubs
    /// loaded from files that are not persistent keep their files, and a reset brings them back (WireMock deletes
    /// every file it loaded).
    func deleteAllMappings() -> HTTPResponse {
        let mappings = store.mappings
        store.removeAll()
        deleteFiles(of: mappings)
        return AdminResponse.empty
    }

    /// `POST /__admin/mappings/reset`: the stub files read again (so files copied in after start are served, as
    /// WireMock's Testcontainers modules expect) and runtime stubs dropped; the journal stays.
    /// - Throws: 500 naming the file and field at fault when a stub file does not load; then nothing changed.
    func resetMappings() throws(AdminError) -> HTTPResponse {
        try store.reset(reloading: loadFiles())
        return AdminResponse.empty
    }

    /// `POST /__admin/mappings/import`: `{"mappings": [...], "importOptions": {"duplicatePolicy":
    /// "OVERWRITE" | "IGNORE", "deleteAllNotInImport": false}}`. A mapping whose id exists replaces it
    /// in place (OVERWRITE, the default) or is skipped (IGNORE); the others are added.
    func importMappings(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = try Self.parseBody(body)
        let options = try ImportOptions(json["importOptions"])
        var document = json
        if case .object(let members) = json {
            document = .object(members.filter { $0.key != "importOptions" })
        }
        let result: MappingDecoder.Result
        do {
            result = try MappingDecoder(bodyFiles: bodyFiles, options: store.loadOptions).decodeDocument(
                document, file: nil)
        } catch {
            throw .invalid(error, title: "Invalid stub mapping")
        }
        log(result.warnings)
        let current = store.mappings
        let mappings = try persistImported(result.mappings, among: current, options)
        // One new route table for the whole import, not one per mapping.
        store.importMappings(mappings, overwrite: options.overwrites, removingOthers: options.deleteAllNotInImport)
        // The files of persistent stubs the import removed, or replaced with stubs that are not persistent.
        var imported: [String: StubMapping] = [:]
        for mapping in mappings.reversed() { imported[mapping.id] = mapping }  // the first listed wins
        let replaces = options.overwrites || options.deleteAllNotInImport
        deleteFiles(
            of: current.filter { old in
                imported[old.id].map { replaces && !$0.persistent } ?? options.deleteAllNotInImport
            })
        return AdminResponse.empty
    }

    /// The imported `mappings`, the persistent ones written to their files first (over the file of the stub one
    /// replaces), in the order the import takes them (last first), skipping those the import skips.
    private func persistImported(
        _ mappings: [StubMapping], among current: [StubMapping], _ options: ImportOptions
    ) throws(AdminError) -> [StubMapping] {
        var mappings = mappings
        var written: [String: URL] = [:]
        for index in mappings.indices.reversed() where mappings[index].persistent {
            let id = mappings[index].id
            let existing = current.first { $0.id == id }
            if existing != nil, !options.overwrites, !options.deleteAllNotInImport { continue }
            let path = try write(mappings[index], over: written[id] ?? existing.flatMap(ownFile(of:)))
            written[id] = URL(fileURLWithPath: path)
            mappings[index].source = path
        }
        return mappings
    }

    private func decodeMapping(_ body: [UInt8]) throws(AdminError) -> StubMapping {
        let json = try Self.parseBody(body)
        do {
            let (mapping, warnings) = try MappingDecoder(bodyFiles: bodyFiles, options: store.loadOptions)
                .decodeMapping(json, source: nil)
            log(warnings)
            return mapping
        } catch {
            throw .invalid(error, title: "Invalid stub mapping")
        }
    }

    private func log(_ warnings: [MappingWarning]) {
        for warning in warnings { log.write("stubserver: admin: \(warning)") }
    }

    private static func unknownMapping(_ id: String) -> AdminError {
        .notFound("no stub mapping with id '\(id)'")
    }
}

/// The `importOptions` of `POST /__admin/mappings/import`.
private struct ImportOptions {
    var overwrites = true
    var deleteAllNotInImport = false

    init(_ json: JSONValue?) throws(AdminError) {
        guard let json else { return }
        guard case .object = json else {
            throw Self.invalid("/importOptions", "expected an object, found \(json.foundDescription)")
        }
        if let policy = json["duplicatePolicy"] {
            switch policy.stringValue {
            case "OVERWRITE": overwrites = true
            case "IGNORE": overwrites = false
            default:
                throw Self.invalid(
                    "/importOptions/duplicatePolicy",
                    "expected \"OVERWRITE\" or \"IGNORE\", found \(policy.foundDescription)")
            }
        }
        if let delete = json["deleteAllNotInImport"] {
            guard case .bool(let value) = delete else {
                throw Self.invalid(
                    "/importOptions/deleteAllNotInImport", "expected true or false, found \(delete.foundDescription)")
            }
            deleteAllNotInImport = value
        }
    }

    private static func invalid(_ pointer: String, _ detail: String) -> AdminError {
        AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid import options",
            detail: "\(pointer.dropFirst().replacing("/", with: ".")): \(detail)", pointer: pointer)
    }
}
