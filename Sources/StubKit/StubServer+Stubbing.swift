#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stub added at run time. ``remove()`` takes it away again.
public struct StubHandle: Sendable, Hashable {
    /// The stub's id, as in `Matched-Stub-Id` and the admin API.
    public let id: String
    // `weak var`, not `weak let` (Swift 6.2): the handle stays buildable with Swift 6.1. Never reassigned.
    private weak var store: StubStore?
    /// For a stub added through the admin API of a server elsewhere (`StubServerClient`, in StubClient).
    private let remote: (any StubServerAdmin)?

    init(id: String, store: StubStore) {
        self.id = id
        self.store = store
        remote = nil
    }

    /// A stub added through `remote`'s admin API; ``remove()`` asks it to remove the stub.
    package init(id: String, remote: any StubServerAdmin) {
        self.id = id
        store = nil
        self.remote = remote
    }

    /// Removes the stub. Does nothing if it is already gone or the server was released.
    ///
    /// For a stub added through a `StubServerClient` this sends the removal without waiting for it;
    /// use `try await client.removeStub(id: handle.id)` to wait and see errors.
    public func remove() {
        if let store {
            store.remove(id: id)
        }
        if let remote {
            let id = id
            Task {
                do { try await remote.removeStub(id: id) } catch {
                    let message = "stubserver: removing stub \(id) from \(remote.baseURL.absoluteString): \(error)\n"
                    // 2: standard error
                    _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
                }
            }
        }
    }

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
    /// Reports name the stub `name`, or else its pattern and this call's place:
    /// `GET /users/octocat (ProfileTests.swift:42)`.
    /// - Returns: a handle that removes the stub.
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition,
        priority: Int = StubMapping.defaultPriority, name: String? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> StubHandle {
        let callSite = StubCallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        return add(
            StubMapping(
                request, resolvingBodyFile(response, stub: Self.title(request, name: name, at: callSite)),
                priority: priority, name: name),
            at: callSite)
    }

    /// Adds a stub given as WireMock mapping JSON (one mapping object).
    /// - Throws: ``StubsLoadError`` naming the field at fault.
    @discardableResult
    public func stub(mappingJSON: String) throws(StubsLoadError) -> StubHandle {
        let json: JSONValue
        do { json = try JSONParser.parse(Array(mappingJSON.utf8)) } catch { throw .invalidJSON(nil, error) }
        let (mapping, warnings) = try MappingDecoder(bodyFiles: bodyFiles, options: loadOptions)
            .decodeMapping(json, source: nil)
        for warning in warnings { log.write("stubserver: \(warning)") }
        return add(mapping)
    }

    /// Adds a fully built mapping.
    @discardableResult
    public func add(_ mapping: StubMapping) -> StubHandle {
        store.add(mapping)
        warnIfShadowed(mapping)
        return StubHandle(id: mapping.id, store: store)
    }

    /// Adds a mapping made by `stub(...)` at `callSite`.
    func add(_ mapping: StubMapping, at callSite: StubCallSite) -> StubHandle {
        var mapping = mapping
        mapping.callSite = callSite
        return add(mapping)
    }

    /// Removes the stub with `id` (runtime or file). Returns whether there was one.
    @discardableResult
    public func removeStub(id: String) -> Bool { store.remove(id: id) }

    /// Back to the stubs loaded from files: runtime stubs dropped, removed file stubs restored, journal cleared.
    public func reset() {
        store.reset()
        journal.removeAll()
        store.forgetUsage()
        contracts.reset()
    }

    /// The stubs that answered no request since the journal was last cleared (dead stubs), in the
    /// order they were added — what `GET /__admin/mappings/unmatched` lists.
    public var unusedStubs: [StubMapping] { store.unusedMappings }

    /// The stubs added at run time (`stub(...)`, the admin API) that answered no request since the
    /// journal was last cleared, in the order they were added: what `failOnUnusedStubs` reports.
    public var unusedRuntimeStubs: [StubMapping] {
        let runtime = Set(store.runtimeMappings.map(\.id))
        return store.unusedMappings.filter { runtime.contains($0.id) }
    }

    /// Server-wide settings, as `/__admin/settings` reads and replaces them: e.g. a global
    /// `fixedDelayMilliseconds` added to every stubbed response.
    public var settings: StubServerSettings {
        get { store.settings }
        set { store.settings = newValue }
    }

    /// Replaces the server-wide settings (the same as setting ``settings``).
    public func updateSettings(_ settings: StubServerSettings) { store.settings = settings }

    /// The stubserver version, as `GET /__admin/version` reports it.
    public static var version: String { AdminAPI.version }

    /// The stubs directory's `__files`, if the server has a stubs directory.
    var bodyFiles: BodyFiles? { Self.bodyFiles(in: stubsDirectory) }

    /// `directory/__files`, if there is a stubs directory.
    static func bodyFiles(in directory: URL?) -> BodyFiles? {
        directory.map { BodyFiles(directory: $0.appendingPathComponent("__files")) }
    }

    /// `response` with its `.file` body read from `__files` now, or a 500 saying why not (logged as a
    /// warning naming `stub`).
    func resolvingBodyFile(_ response: ResponseDefinition, stub: @autoclosure () -> String) -> ResponseDefinition {
        let resolved = BodyFileResolver(bodyFiles: bodyFiles, options: loadOptions).resolve(response, stub: stub())
        if let warning = resolved.warning { log.write(warning) }
        return resolved.response
    }

    /// How a warning names a stub added in Swift: its name, else its pattern and the place it was added.
    static func title(_ request: RequestPattern, name: String?, at callSite: StubCallSite? = nil) -> String {
        if let name { return Quoting.quote(name) }
        let summary = Quoting.truncate(request.summary, limit: StubMapping.summaryLimit)
        return callSite.map { "\(summary) (\($0))" } ?? summary
    }
}
