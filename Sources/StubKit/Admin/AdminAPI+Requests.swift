/// `/__admin/requests`: the request journal, most recent first (as WireMock).
extension AdminAPI {
    /// `GET /__admin/requests[?limit=N]`: serve events, most recent first.
    func listRequests(limit: Int?) -> HTTPResponse {
        let entries = journal.entries
        let stubs = stubsByID()
        let shown = entries.reversed().prefix(max(0, limit ?? entries.count))
        return AdminResponse.json(.object([
            ("requests", .array(shown.map { $0.serveEventJSON(mapping: stubs[$0.matchedStub?.id ?? ""]) })),
            ("meta", ["total": JSONValue(entries.count)]),
            ("requestJournalDisabled", false),
        ]))
    }

    /// `GET /__admin/requests/{id}`: one serve event.
    func getRequest(_ id: String) throws(AdminError) -> HTTPResponse {
        guard let number = LoggedRequest.sequenceNumber(fromAdminID: id),
              let entry = journal.entries.first(where: { $0.id == number }) else {
            throw .notFound("no request with id '\(id)' in the journal")
        }
        return AdminResponse.json(entry.serveEventJSON(mapping: stubsByID()[entry.matchedStub?.id ?? ""]))
    }

    /// `DELETE /__admin/requests`: clears the journal.
    func deleteRequests() -> HTTPResponse {
        journal.removeAll()
        return AdminResponse.empty
    }

    /// `POST /__admin/requests/count` with a request pattern: `{"count": N}`.
    func countRequests(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let pattern = try CompiledRequestPattern(decodePattern(body))
        let count = journal.entries.reduce(0) { $0 + (pattern.match($1.request).isMatch ? 1 : 0) }
        return AdminResponse.json(.object([("count", JSONValue(count)), ("requestJournalDisabled", false)]))
    }

    /// `POST /__admin/requests/find` with a request pattern: the matching requests, oldest first (as WireMock).
    func findRequests(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let pattern = try CompiledRequestPattern(decodePattern(body))
        let found = journal.entries.filter { pattern.match($0.request).isMatch }
        return Self.requestList(found)
    }

    /// `GET /__admin/requests/unmatched`: the requests no stub matched, most recent first (as WireMock).
    func unmatchedRequests() -> HTTPResponse {
        Self.requestList(journal.entries.reversed().filter { !$0.wasMatched })
    }

    /// `GET /__admin/requests/unmatched/near-misses`: for each unmatched request (most recent first),
    /// the closest stubs and how they differ.
    func unmatchedNearMisses() -> HTTPResponse {
        let table = store.snapshot.table
        var nearMisses: [JSONValue] = []
        for entry in journal.entries.reversed() where !entry.wasMatched {
            for miss in table.nearMisses(for: entry.request) {
                nearMisses.append(.object([
                    ("request", entry.requestJSON), ("stubMapping", miss.mapping.json), ("matchResult", miss.result.adminJSON),
                ]))
            }
        }
        return AdminResponse.json(["nearMisses": .array(nearMisses)])
    }

    /// `POST /__admin/near-misses/request-pattern`: the journaled requests closest to a pattern that
    /// do not match it, closest first (at most 3).
    func nearMisses(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let json = try Self.parseBody(body)
        let pattern = try Self.decodePattern(json)
        let compiled = CompiledRequestPattern(pattern)
        let misses = journal.entries.map { ($0, compiled.match($0.request)) }.filter { !$0.1.isMatch }
        let closest = misses.sorted { $0.1.distance < $1.1.distance }.prefix(3)
        return AdminResponse.json(["nearMisses": .array(closest.map { entry, result in
            .object([("request", entry.requestJSON), ("requestPattern", pattern.json), ("matchResult", result.adminJSON)])
        })])
    }

    private func decodePattern(_ body: [UInt8]) throws(AdminError) -> RequestPattern {
        try Self.decodePattern(Self.parseBody(body))
    }

    private static func decodePattern(_ json: JSONValue) throws(AdminError) -> RequestPattern {
        do {
            let (pattern, warnings) = try MappingDecoder().decodeRequestPattern(json)
            for warning in warnings { StandardError.write("stubserver: admin: \(warning)\n") }
            return pattern
        } catch {
            throw .invalid(error, title: "Invalid request pattern")
        }
    }

    private static func requestList(_ entries: [LoggedRequest]) -> HTTPResponse {
        AdminResponse.json(.object([
            ("requests", .array(entries.map(\.requestJSON))), ("requestJournalDisabled", false),
        ]))
    }

    private func stubsByID() -> [String: StubMapping] {
        var stubs: [String: StubMapping] = [:]
        for mapping in store.mappings where stubs[mapping.id] == nil { stubs[mapping.id] = mapping }
        return stubs
    }
}

extension MatchResult {
    /// WireMock's `{"distance": 0.19}`, plus what differed (a stubserver addition).
    var adminJSON: JSONValue {
        .object([
            ("distance", JSONValue(distance)),
            ("mismatches", .array(mismatches.map { mismatch in
                .object([
                    ("part", .string(mismatch.part.description)), ("expected", .string(mismatch.expected)),
                    ("actual", .array(mismatch.actual.map(JSONValue.string))), ("distance", JSONValue(mismatch.distance)),
                ])
            })),
        ])
    }
}
