import Foundation

/// A stub added at run time. ``remove()`` takes it away again.
public struct StubHandle: Sendable, Hashable {
    /// The stub's id, as in `Matched-Stub-Id` and the admin API.
    public let id: String
    private weak let store: StubStore?

    init(id: String, store: StubStore) {
        self.id = id
        self.store = store
    }

    /// Removes the stub. Does nothing if it is already gone or the server was released.
    public func remove() { store?.remove(id: id) }

    public static func == (lhs: StubHandle, rhs: StubHandle) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension StubServer {
    /// Adds a stub that wins over file stubs of the same priority, and over earlier runtime stubs.
    ///
    /// ```swift
    /// server.stub(.get("/users/octocat"), .json(["login": "octocat"]))
    /// let outage = server.stub(.any("/health"), .status(503), priority: 1)
    /// outage.remove()
    /// ```
    /// A `.file(name)` body is read from the stubs directory's `__files` now; if it cannot be read, the
    /// stub answers 500 with the reason (as WireMock does) and the reason is logged to stderr.
    /// - Returns: a handle that removes the stub.
    @discardableResult
    public func stub(_ request: RequestPattern, _ response: ResponseDefinition,
                     priority: Int = StubMapping.defaultPriority, name: String? = nil) -> StubHandle {
        add(StubMapping(request, resolvingBodyFile(response), priority: priority, name: name))
    }

    /// Adds a stub given as WireMock mapping JSON (one mapping object).
    /// - Throws: ``StubsLoadError`` naming the field at fault.
    @discardableResult
    public func stub(mappingJSON: String) throws(StubsLoadError) -> StubHandle {
        let json: JSONValue
        do { json = try JSONParser.parse(Array(mappingJSON.utf8)) } catch { throw .invalidJSON(nil, error) }
        let (mapping, warnings) = try MappingDecoder(bodyFiles: bodyFiles).decodeMapping(json, source: nil)
        for warning in warnings { StandardError.write("stubserver: \(warning)\n") }
        return add(mapping)
    }

    /// Adds a fully built mapping.
    @discardableResult
    public func add(_ mapping: StubMapping) -> StubHandle {
        store.add(mapping)
        return StubHandle(id: mapping.id, store: store)
    }

    /// Removes the stub with `id` (runtime or file). Returns whether there was one.
    @discardableResult
    public func removeStub(id: String) -> Bool { store.remove(id: id) }

    /// Back to the stubs loaded from files: runtime stubs dropped, removed file stubs restored, journal cleared.
    public func reset() {
        store.reset()
        journal.removeAll()
    }

    /// The stubs directory's `__files`, if the server has a stubs directory.
    var bodyFiles: BodyFiles? { Self.bodyFiles(in: stubsDirectory) }

    /// `directory/__files`, if there is a stubs directory.
    static func bodyFiles(in directory: URL?) -> BodyFiles? {
        directory.map { BodyFiles(directory: $0.appendingPathComponent("__files")) }
    }

    private func resolvingBodyFile(_ response: ResponseDefinition) -> ResponseDefinition {
        guard let name = response.bodyFileToLoad else { return response }
        guard let bodyFiles else {
            return Self.failure(response, "body file '\(name)' needs a stubs directory; start the server with stubs:")
        }
        do {
            return try response.loadingBodyFile(bodyFiles.read)
        } catch {
            return Self.failure(response, "\(error)")
        }
    }

    private static func failure(_ response: ResponseDefinition, _ reason: String) -> ResponseDefinition {
        StandardError.write("stubserver: \(reason)\n")
        return ResponseDefinition(status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                  body: .text("stubserver: \(reason)\n"))
    }
}
