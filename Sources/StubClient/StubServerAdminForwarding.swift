import Foundation
import StubKit

/// A `StubServerAdmin` that hands every operation to another server, ``forwardee``: `StubServerProcess`
/// (to its ``StubServerClient``) and `AnyStubServer` (to the server it wraps). The operations are written
/// once, here, with ``StubServerClient``'s default arguments.
public protocol StubServerAdminForwarding: StubServerAdmin {
    /// The server every operation goes to.
    var forwardee: any StubServerAdmin { get }

    /// Called with the handle of each stub added through this server, before it is returned. Default: nothing.
    @_spi(StubTesting)
    func noteAdded(_ handle: StubHandle)
}

extension StubServerAdminForwarding {
    @_spi(StubTesting)
    public func noteAdded(_ handle: StubHandle) {}

    private func noting(_ handle: StubHandle) -> StubHandle {
        noteAdded(handle)
        return handle
    }

    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try noting(await forwardee.stub(request, response, priority: priority, name: name))
    }
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, times: Int,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try noting(await forwardee.stub(request, response, times: times, priority: priority, name: name))
    }
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, scenario: String,
        whenState: String? = nil, newState: String? = nil,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try noting(
            await forwardee.stub(
                request, response, scenario: scenario, whenState: whenState, newState: newState,
                priority: priority, name: name))
    }
    @discardableResult
    public func stubSequence(
        _ request: RequestPattern, _ responses: [ResponseDefinition],
        _ end: StubServer.SequenceEnd = .repeatLast,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try noting(await forwardee.stubSequence(request, responses, end, priority: priority, name: name))
    }
    @discardableResult
    public func stub(mappingJSON: String) async throws -> StubHandle {
        try noting(await forwardee.stub(mappingJSON: mappingJSON))
    }
    @discardableResult
    public func add(_ mapping: StubMapping) async throws -> StubHandle { try noting(await forwardee.add(mapping)) }
    @discardableResult
    public func removeStub(id: String) async throws -> Bool { try await forwardee.removeStub(id: id) }
    public var mappings: [StubMapping] { get async throws { try await forwardee.mappings } }
    public var unusedStubs: [StubMapping] { get async throws { try await forwardee.unusedStubs } }
    public var requests: [LoggedRequest] { get async throws { try await forwardee.requests } }
    public var unmatchedRequests: [LoggedRequest] { get async throws { try await forwardee.unmatchedRequests } }
    public func received(_ pattern: RequestPattern) async throws -> Int { try await forwardee.received(pattern) }
    public func requests(matching pattern: RequestPattern) async throws -> [LoggedRequest] {
        try await forwardee.requests(matching: pattern)
    }
    public func nearMisses(for pattern: RequestPattern, limit: Int = 3) async throws -> [(
        request: LoggedRequest, result: MatchResult
    )] {
        try await forwardee.nearMisses(for: pattern, limit: limit)
    }
    public func matchResults(for pattern: RequestPattern) async throws -> [(
        request: LoggedRequest, result: MatchResult
    )] {
        try await forwardee.matchResults(for: pattern)
    }
    public func awaitRequests(matching pattern: RequestPattern, count: Int = 1, timeout: Duration) async throws
        -> [LoggedRequest]
    {
        try await forwardee.awaitRequests(matching: pattern, count: count, timeout: timeout)
    }
    public func reset() async throws { try await forwardee.reset() }
    public func scenarioState(_ name: String) async throws -> String { try await forwardee.scenarioState(name) }
    public func setScenarioState(_ name: String, to state: String) async throws {
        try await forwardee.setScenarioState(name, to: state)
    }
    public func resetScenarios() async throws { try await forwardee.resetScenarios() }
    public var settings: StubServerSettings { get async throws { try await forwardee.settings } }
    public func updateSettings(_ settings: StubServerSettings) async throws {
        try await forwardee.updateSettings(settings)
    }
    public func addDataCollection(_ collection: DataCollection) async throws {
        try await forwardee.addDataCollection(collection)
    }
    public func dataItems(_ name: String) async throws -> [JSONValue] { try await forwardee.dataItems(name) }
    public func replaceDataItems(_ name: String, with items: [JSONValue]) async throws {
        try await forwardee.replaceDataItems(name, with: items)
    }
    public func resetDataCollection(_ name: String) async throws { try await forwardee.resetDataCollection(name) }
}
