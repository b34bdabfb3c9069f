import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Removing journal entries, and near misses for a request given as JSON.
extension AdminAPI {
    /// `DELETE /__admin/requests/{id}`: removes one serve event; 404 for an unknown id.
    func deleteRequest(_ id: String) throws(AdminError) -> HTTPResponse {
        guard let number = LoggedRequest.sequenceNumber(fromAdminID: id),
            journal.removeEntries(where: { $0.id == number }) > 0
        else {
            throw .notFound("no request with id '\(id)' in the journal")
        }
        return AdminResponse.empty
    }

    /// `POST /__admin/requests/remove` with a request pattern: removes the matching serve events and
    /// returns them, oldest first: `{"serveEvents": [...]}` (as WireMock).
    func removeRequests(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let pattern = try CompiledRequestPattern(decodePattern(Self.parseBody(body)))
        var removed: [LoggedRequest] = []
        journal.removeEntries { entry in
            guard pattern.match(entry.request).isMatch else { return false }
            removed.append(entry)
            return true
        }
        let stubs = stubsByID()
        return AdminResponse.json([
            "serveEvents": .array(
                removed.map {
                    $0.serveEventJSON(mapping: stubs[$0.matchedStub?.id ?? ""], detail: false)
                })
        ])
    }

    /// `POST /__admin/near-misses/request` with a logged request (`{"url": "/x", "method": "GET",
    /// "headers": {...}, "body": "..."}`): the stubs closest to it, closest first (at most 3).
    func nearMissesForRequest(_ adminRequest: StubHTTPRequest) throws(AdminError) -> HTTPResponse {
        let detail = Self.wantsDetail(adminRequest)
        let json = try Self.parseBody(adminRequest.body)
        let request: StubHTTPRequest
        do {
            request = try StubHTTPRequest(loggedRequestJSON: json)
        } catch {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid request",
                detail: error.description, pointer: "/" + error.field)
        }
        let misses = store.snapshot.table.nearMisses(for: request)
        return AdminResponse.json([
            "nearMisses": .array(
                misses.map { miss in
                    .object([
                        ("request", json), ("stubMapping", miss.mapping.json),
                        ("matchResult", miss.result.adminJSON(detail: detail))
                    ])
                })
        ])
    }

    /// Whether the call asked, with `?stubserver=true` (``AdminCall/detailQuery``), for what WireMock's Java
    /// client cannot read, its model classes rejecting any field they do not know: `matchResult.mismatches` in
    /// near misses, a truncated response body's `bodyTruncated` and `originalBodyLength` in serve events. Our
    /// own clients (`StubServerClient`, the dashboard) ask for it.
    static func wantsDetail(_ request: StubHTTPRequest) -> Bool {
        request.queryValues("stubserver").contains("true")
    }

    /// An optional non-negative integer query parameter (`limit`, `offset`).
    static func queryInteger(_ request: StubHTTPRequest, _ name: String) throws(AdminError) -> Int? {
        guard let text = request.queryValues(name).first else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid query parameter",
                detail: "\(name): expected a non-negative integer, found \"\(text)\"", pointer: nil)
        }
        return value
    }

    /// An optional ISO 8601 instant query parameter (`since=2026-12-01T00:00:00Z`).
    static func queryDate(_ request: StubHTTPRequest, _ name: String) throws(AdminError) -> Date? {
        guard let text = request.queryValues(name).first else { return nil }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            return date
        }
        throw AdminError(
            status: .unprocessableEntity, code: AdminError.invalidInputCode, title: "Invalid query parameter",
            detail: "\(name): expected an ISO 8601 date-time such as 2026-12-01T10:15:30Z, found \"\(text)\"",
            pointer: nil)
    }
}
