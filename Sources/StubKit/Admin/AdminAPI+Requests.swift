import StubHTTP

/// `/__admin/requests`: the request journal, most recent first (as WireMock).
extension AdminAPI {
    /// `GET /__admin/requests[?limit=N][&since=ISO-8601][&unmatched=true][&matchingStub=ID]`: serve events, most
    /// recent first. `unmatched=true` keeps those no stub answered, `matchingStub` those the stub with that id
    /// answered (as WireMock's `ServeEventQuery`), and `meta.total` counts what they keep; `since` then keeps
    /// those received after that instant, and `limit` the first ones.
    /// The document is built from a snapshot of the journal (value types) and serialized as it is sent.
    func listRequests(_ request: StubHTTPRequest) throws(AdminError) -> StreamedJSONObject {
        let limit = try Self.queryInteger(request, "limit")
        let since = try Self.queryDate(request, "since")
        let onlyUnmatched = request.queryValues("unmatched").contains("true")
        let stubID = request.queryValues("matchingStub").first
        let detail = Self.wantsDetail(request)
        let queried = journal.entries.reversed().filter { entry in
            (!onlyUnmatched || !entry.wasMatched)
                && (stubID.map { entry.wasMatched && entry.matchedStub?.id == $0 } ?? true)
        }
        let stubs = stubsByID()
        let recent = queried.filter { entry in since.map { entry.receivedAt > $0 } ?? true }
        let shown = Array(recent.prefix(limit ?? recent.count))
        return StreamedJSONObject(
            arrayKey: "requests", count: shown.count,
            after: [
                ("meta", ["total": JSONValue(queried.count)]),
                ("requestJournalDisabled", .bool(!journal.isEnabled))
            ]
        ) { index in
            shown[index].serveEventJSON(mapping: stubs[shown[index].matchedStub?.id ?? ""], detail: detail)
        }
    }

    /// `GET /__admin/requests/{id}`: one serve event.
    func getRequest(_ id: String, _ request: StubHTTPRequest) throws(AdminError) -> HTTPResponse {
        guard let number = LoggedRequest.sequenceNumber(fromAdminID: id),
            let entry = journal.entries.first(where: { $0.id == number })
        else {
            throw .notFound("no request with id '\(id)' in the journal")
        }
        return AdminResponse.json(
            entry.serveEventJSON(
                mapping: stubsByID()[entry.matchedStub?.id ?? ""], detail: Self.wantsDetail(request)))
    }

    /// `DELETE /__admin/requests` and `POST /__admin/requests/reset`: clears the journal (and which
    /// stubs were used, for `/__admin/mappings/unmatched`).
    func deleteRequests() -> HTTPResponse {
        journal.removeAll()
        store.forgetUsage()
        return AdminResponse.empty
    }

    /// `POST /__admin/requests/count` with a request pattern: `{"count": N}` (`-1` with the journal
    /// disabled, as WireMock).
    func countRequests(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let pattern = try CompiledRequestPattern(decodePattern(body))
        let count =
            journal.isEnabled ? journal.entries.reduce(0) { $0 + (pattern.match($1.request).isMatch ? 1 : 0) } : -1
        return AdminResponse.json(
            .object([("count", JSONValue(count)), ("requestJournalDisabled", .bool(!journal.isEnabled))]))
    }

    /// `POST /__admin/requests/find` with a request pattern: the matching requests, oldest first (as WireMock).
    func findRequests(_ body: [UInt8]) throws(AdminError) -> StreamedJSONObject {
        let pattern = try CompiledRequestPattern(decodePattern(body))
        let found = journal.entries.filter { pattern.match($0.request).isMatch }
        return requestList(found)
    }

    /// `GET /__admin/requests/unmatched`: the requests no stub matched, most recent first (as WireMock).
    func unmatchedRequests() -> StreamedJSONObject {
        requestList(journal.entries.reversed().filter { !$0.wasMatched })
    }

    /// `GET /__admin/requests/unmatched/near-misses`: for each unmatched request (most recent first),
    /// the closest stubs, and how they differ with ``AdminCall/detailQuery``.
    func unmatchedNearMisses(_ request: StubHTTPRequest) -> HTTPResponse {
        let detail = Self.wantsDetail(request)
        let table = store.snapshot.table
        var nearMisses: [JSONValue] = []
        for entry in journal.entries.reversed() where !entry.wasMatched {
            for miss in table.nearMisses(for: entry.request) {
                nearMisses.append(
                    .object([
                        ("request", entry.requestJSON), ("stubMapping", miss.mapping.json),
                        ("matchResult", miss.result.adminJSON(detail: detail))
                    ]))
            }
        }
        return AdminResponse.json(["nearMisses": .array(nearMisses)])
    }

    /// `POST /__admin/near-misses/request-pattern`: the journaled requests closest to a pattern that
    /// do not match it, closest first (at most 3).
    func nearMisses(_ request: StubHTTPRequest) throws(AdminError) -> HTTPResponse {
        let detail = Self.wantsDetail(request)
        let json = try Self.parseBody(request.body)
        let pattern = try decodePattern(json)
        let compiled = CompiledRequestPattern(pattern)
        let misses = journal.entries.map { ($0, compiled.match($0.request)) }.filter { !$0.1.isMatch }
        let closest = misses.sorted { $0.1.distance < $1.1.distance }.prefix(3)
        return AdminResponse.json([
            "nearMisses": .array(
                closest.map { entry, result in
                    .object([
                        ("request", entry.requestJSON), ("requestPattern", pattern.json),
                        ("matchResult", result.adminJSON(detail: detail))
                    ])
                })
        ])
    }

    private func decodePattern(_ body: [UInt8]) throws(AdminError) -> RequestPattern {
        try decodePattern(Self.parseBody(body))
    }

    /// A request pattern posted as JSON; warnings about ignored fields go to the log.
    func decodePattern(_ json: JSONValue) throws(AdminError) -> RequestPattern {
        try Self.decodePattern(json, log: log)
    }

    static func decodePattern(_ json: JSONValue, log: LogSink) throws(AdminError) -> RequestPattern {
        do {
            let (pattern, warnings) = try MappingDecoder().decodeRequestPattern(json)
            for warning in warnings { log.write("stubserver: admin: \(warning)") }
            return pattern
        } catch {
            throw .invalid(error, title: "Invalid request pattern")
        }
    }

    /// `{"requests": [...], "requestJournalDisabled": false}`.
    private func requestList(_ entries: [LoggedRequest]) -> StreamedJSONObject {
        StreamedJSONObject(
            arrayKey: "requests", count: entries.count,
            after: [("requestJournalDisabled", .bool(!journal.isEnabled))]
        ) { entries[$0].requestJSON }
    }

    func stubsByID() -> [String: StubMapping] {
        var stubs: [String: StubMapping] = [:]
        for mapping in store.mappings where stubs[mapping.id] == nil { stubs[mapping.id] = mapping }
        return stubs
    }
}

extension MatchResult {
    /// WireMock's `{"distance": 0.19}`; with `detail` (``AdminCall/detailQuery``), also what differed, which
    /// WireMock's Java client cannot read (its `MatchResult` knows `distance` alone).
    func adminJSON(detail: Bool) -> JSONValue {
        guard detail else { return .object([("distance", JSONValue(distance))]) }
        return .object([
            ("distance", JSONValue(distance)),
            (
                "mismatches",
                .array(
                    mismatches.map { mismatch in
                        var members: [(key: String, value: JSONValue)] = [
                            ("part", .string(mismatch.part.description)), ("expected", .string(mismatch.expected)),
                            ("actual", .array(mismatch.actual.map(JSONValue.string))),
                            ("distance", JSONValue(mismatch.distance))
                        ]
                        if !mismatch.details.isEmpty {
                            members.append(("details", .array(mismatch.details.map(JSONValue.string))))
                        }
                        return .object(members)
                    })
            )
        ])
    }
}
