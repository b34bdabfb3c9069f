import Foundation
import StubKit

/// ``StubServer``'s operations over the admin API.
extension StubServerClient {
    /// Adds a stub (`POST /__admin/mappings`). A `.file(name)` body is read by the server from its `__files`.
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try await add(StubMapping(request, response, priority: priority, name: name))
    }

    /// Adds a stub that answers at most `times` times (`metadata.stubserver.times`).
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, times: Int,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try await add(.limited(request, response, times: times, priority: priority, name: name))
    }

    /// Adds a step of a WireMock scenario (`scenarioName`, `requiredScenarioState`, `newScenarioState`).
    @discardableResult
    public func stub(
        _ request: RequestPattern, _ response: ResponseDefinition, scenario: String,
        whenState: String? = nil, newState: String? = nil,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try await add(
            .scenarioStep(
                request, response, scenario: scenario, whenState: whenState, newState: newState,
                priority: priority, name: name))
    }

    /// Adds a stub answering each request with the next of `responses` (`metadata.stubserver.then`, and
    /// `times` for `.thenNotFound`).
    @discardableResult
    public func stubSequence(
        _ request: RequestPattern, _ responses: [ResponseDefinition],
        _ end: StubServer.SequenceEnd = .repeatLast,
        priority: Int = StubMapping.defaultPriority, name: String? = nil
    ) async throws -> StubHandle {
        try await add(.sequence(request, responses, thenNotFound: end == .thenNotFound, priority: priority, name: name))
    }

    /// Adds a stub given as WireMock mapping JSON; the server validates it (422 → ``StubServerClientError``).
    @discardableResult
    public func stub(mappingJSON: String) async throws -> StubHandle {
        let answer = try await send(.addMapping, rawBody: Array(mappingJSON.utf8))
        guard let id = try answer.json()["id"]?.stringValue else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "no 'id' in the answer")
        }
        return StubHandle(id: id, remote: self)
    }

    /// Adds a fully built mapping; its id is kept.
    @discardableResult
    public func add(_ mapping: StubMapping) async throws -> StubHandle {
        _ = try await send(.addMapping, body: mapping.json)
        return StubHandle(id: mapping.id, remote: self)
    }

    /// Removes the stub with `id` (`DELETE /__admin/mappings/{id}`); `false` if there is none.
    @discardableResult
    public func removeStub(id: String) async throws -> Bool {
        // No stub has an empty id, and `DELETE /__admin/mappings/` would be the call that removes them all.
        guard !id.isEmpty else { return false }
        return try await send(.removeMapping, id, accepting: [404]).status != 404
    }

    /// Every stub, in the order they were added. File bodies keep only their name.
    public var mappings: [StubMapping] {
        get async throws {
            let answer = try await send(.listMappings)
            let mappings = try Self.decodeMappings(answer)
            // The listing is in WireMock's order (by priority, then newest first); `insertionIndex` gives back the
            // order they were added. Without it (a WireMock server), the listing reversed.
            guard case .array(let items)? = try answer.json()["mappings"],
                case let indexes = items.compactMap({ $0["insertionIndex"]?.intValue }),
                indexes.count == mappings.count
            else { return mappings.reversed() }
            return zip(indexes, mappings).sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The stubs no request used since the journal was last cleared (`GET /__admin/mappings/unmatched`).
    public var unusedStubs: [StubMapping] {
        get async throws { try await Self.decodeMappings(send(.unusedMappings)) }
    }

    /// Every request received, oldest first.
    public var requests: [LoggedRequest] {
        get async throws {
            try await Self.decodeRequests(send(.listRequests, detailed: true), key: "requests").reversed()
        }
    }

    /// Every request received, oldest first, waiting for the answer (see ``resetAndWait()``): for XCTest's synchronous
    /// teardown, which attaches the journal of a failed test.
    @_spi(StubTesting)
    public func requestsAndWait() throws -> [LoggedRequest] {
        try Self.decodeRequests(sendAndWait(AdminCall(.listRequests), body: nil), key: "requests").reversed()
    }

    /// The requests no stub matched, oldest first, with the response each got (the near-miss report):
    /// the serve events of `GET /__admin/requests` that did not match (`/requests/unmatched` lists bare
    /// requests, without their response).
    public var unmatchedRequests: [LoggedRequest] {
        get async throws { try await requests.filter { !$0.wasMatched } }
    }

    /// How many received requests match `pattern` (`POST /__admin/requests/count`).
    public func received(_ pattern: RequestPattern) async throws -> Int {
        let answer = try await send(.countRequests, body: pattern.json)
        guard let count = try answer.json()["count"]?.intValue else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "no 'count'")
        }
        return count
    }

    /// The received requests matching `pattern`, oldest first (`POST /__admin/requests/find`).
    public func requests(matching pattern: RequestPattern) async throws -> [LoggedRequest] {
        try await Self.decodeRequests(send(.findRequests, body: pattern.json), key: "requests")
    }

    /// The received requests closest to `pattern` that miss it (`POST /__admin/near-misses/request-pattern`).
    public func nearMisses(for pattern: RequestPattern, limit: Int = 3) async throws -> [(
        request: LoggedRequest, result: MatchResult
    )] {
        let answer = try await send(.nearMisses, body: pattern.json, detailed: true)
        guard case .array(let items)? = try answer.json()["nearMisses"] else { return [] }
        var misses: [(request: LoggedRequest, result: MatchResult)] = []
        for (position, item) in items.prefix(max(0, limit)).enumerated() {
            let request = try Self.decode(item["request"] ?? .null, position: position + 1, call: answer.call)
            misses.append((request, MatchResult(adminJSON: item["matchResult"] ?? .object([]))))
        }
        return misses
    }

    /// Every request received, oldest first, with how it matches `pattern`: the journal is fetched
    /// once and matched here with the server's own matcher code.
    public func matchResults(for pattern: RequestPattern) async throws -> [(
        request: LoggedRequest, result: MatchResult
    )] {
        let compiled = CompiledRequestPattern(pattern)
        return try await requests.map { (request: $0, result: compiled.match($0.request)) }
    }

    /// Back to the stubs loaded from files, journal cleared (`POST /__admin/reset`).
    public func reset() async throws {
        _ = try await send(.reset)
    }

    /// The scenario's current state (`GET /__admin/scenarios`); `Started` if the server does not list it.
    public func scenarioState(_ name: String) async throws -> String {
        let answer = try await send(.listScenarios)
        guard case .array(let scenarios)? = try answer.json()["scenarios"] else { return Scenario.started }
        let scenario = scenarios.first { ($0["name"] ?? $0["id"])?.stringValue == name }
        return scenario?["state"]?.stringValue ?? Scenario.started
    }

    /// Moves a scenario to `state` (`PUT /__admin/scenarios/{name}/state`).
    public func setScenarioState(_ name: String, to state: String) async throws {
        _ = try await send(.setScenarioState, name, body: ["state": .string(state)])
    }

    /// Every scenario back to `Started` (`POST /__admin/scenarios/reset`).
    public func resetScenarios() async throws {
        _ = try await send(.resetScenarios)
    }

    /// Server-wide settings (`GET /__admin/settings`).
    public var settings: StubServerSettings {
        get async throws {
            let answer = try await send(.getSettings)
            do { return try StubServerSettings(json: answer.json()["settings"] ?? .object([])) } catch {
                throw StubServerClientError(
                    kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "\(error)")
            }
        }
    }

    /// Replaces the server-wide settings (`POST /__admin/settings`).
    public func updateSettings(_ settings: StubServerSettings) async throws {
        _ = try await send(.updateSettings, body: settings.json)
    }

    /// The server's version (`GET /__admin/version`).
    public func version() async throws -> String {
        let answer = try await send(.version)
        return try answer.json()["version"]?.stringValue ?? ""
    }

    /// Every port the server listens on (`GET /__admin/hosts`): the primary one first (`StubServerHost.name`
    /// `nil`), then each virtual host's (`--host-alias`).
    ///
    /// ```swift
    /// let auth = try await client.hosts().first { $0.name == "auth.example.com" }?.baseURL
    /// ```
    public func hosts() async throws -> [StubServerHost] {
        let answer = try await send(.hosts)
        guard case .array(let items)? = try answer.json()["hosts"] else {
            throw StubServerClientError(
                kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "no \"hosts\" array")
        }
        return try items.map { item in
            guard let host = StubServerHost(json: item) else {
                throw StubServerClientError(
                    kind: .unexpectedAnswer, call: answer.call, status: answer.status,
                    detail: "a host: expected {\"name\", \"port\", \"baseUrl\"}, found \(item.serialized())")
            }
            return host
        }
    }

    /// Asks the server to stop (`POST /__admin/shutdown`); the CLI then exits 0.
    public func shutdown() async throws {
        _ = try await send(.shutdown)
    }

    // MARK: - Decoding

    static func decodeMappings(_ answer: Answer) throws -> [StubMapping] {
        guard case .array(let items)? = try answer.json()["mappings"] else { return [] }
        var mappings: [StubMapping] = []
        for item in items {
            // A file body is the server's business: keep its name, without reading it here.
            var json = item
            var bodyFileName: String?
            if case .object(var members) = item,
                let responseIndex = members.firstIndex(where: { $0.key == "response" }),
                case .object(let response) = members[responseIndex].value
            {
                bodyFileName = item["response"]?["bodyFileName"]?.stringValue
                members[responseIndex].value = .object(response.filter { $0.key != "bodyFileName" })
                json = .object(members)
            }
            do {
                var (mapping, _) = try MappingDecoder().decodeMapping(json, source: nil)
                if let bodyFileName { mapping.response.body = .file(name: bodyFileName, bytes: []) }
                mappings.append(mapping)
            } catch {
                throw StubServerClientError(
                    kind: .unexpectedAnswer, call: answer.call, status: answer.status, detail: "\(error)")
            }
        }
        return mappings
    }

    private static func decodeRequests(_ answer: Answer, key: String) throws -> [LoggedRequest] {
        guard case .array(let items)? = try answer.json()[key] else { return [] }
        return try items.enumerated().map { position, item in
            try decode(item, position: items.count - position, call: answer.call)
        }
    }

    private static func decode(_ json: JSONValue, position: Int, call: String) throws(StubServerClientError)
        -> LoggedRequest
    {
        do { return try LoggedRequest(adminJSON: json, position: position) } catch {
            throw StubServerClientError(kind: .unexpectedAnswer, call: call, status: 200, detail: "a request: \(error)")
        }
    }
}
