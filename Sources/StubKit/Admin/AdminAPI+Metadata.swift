import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finding and removing stubs and their serve events by the stubs' `metadata`, and the stubs no request has used.
extension AdminAPI {
    /// `POST /__admin/mappings/find-by-metadata` with a content pattern (`{"matchesJsonPath":
    /// {"expression": "$.team", "equalTo": "ios"}}`): the stubs whose metadata matches, in WireMock's order (by
    /// priority, then newest first).
    func findMappingsByMetadata(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let matcher = try metadataMatcher(body)
        let mappings = store.mappings
        return Self.mappingList(Self.wireMockOrder(mappings).map { mappings[$0] }.filter(matcher))
    }

    /// `POST /__admin/mappings/remove-by-metadata` with a content pattern: removes the stubs whose
    /// metadata matches, with one new route table however many they are. `{}`.
    func removeMappingsByMetadata(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let matcher = try metadataMatcher(body)
        remove(store.mappings.filter(matcher))
        return AdminResponse.empty
    }

    /// `GET /__admin/mappings/unmatched` (a stubserver addition): the stubs that answered no request
    /// since the journal was last cleared — dead stubs — in the order they were added.
    func unusedMappings() -> HTTPResponse {
        Self.mappingList(store.unusedMappings)
    }

    /// `DELETE /__admin/mappings/unmatched` (WireMock 3): removes the stubs ``unusedMappings()`` lists. `{}`.
    func removeUnusedMappings() -> HTTPResponse {
        remove(store.unusedMappings)
        return AdminResponse.empty
    }

    /// `POST /__admin/requests/remove-by-metadata` with a content pattern: removes the serve events of the stubs
    /// whose metadata matches and returns them, oldest first: `{"serveEvents": [...]}` (as WireMock). An event
    /// whose stub has been removed since is kept: its metadata is no longer known.
    func removeRequestsByMetadata(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let matcher = try metadataMatcher(body)
        let stubs = stubsByID()
        var removed: [LoggedRequest] = []
        journal.removeEntries { entry in
            guard let stub = entry.matchedStub.flatMap({ stubs[$0.id] }), matcher(stub) else { return false }
            removed.append(entry)
            return true
        }
        return AdminResponse.json([
            "serveEvents": .array(
                removed.map { $0.serveEventJSON(mapping: stubs[$0.matchedStub?.id ?? ""], detail: false) })
        ])
    }

    /// Decodes the body as one body pattern (`equalToJson`, `matchesJsonPath`, `contains`, …) and
    /// returns a test of a stub's metadata against it. Stubs without metadata never match.
    private func metadataMatcher(_ body: [UInt8]) throws(AdminError) -> (StubMapping) -> Bool {
        let json = try Self.parseBody(body)
        let pattern: RequestPattern
        do {
            (pattern, _) = try MappingDecoder().decodeRequestPattern(["bodyPatterns": [json]])
        } catch {
            let detail = error.description.replacing("bodyPatterns[0].", with: "")
                .replacing("bodyPatterns[0]", with: "pattern")
            throw AdminError(
                status: .unprocessableEntity, code: AdminError.invalidInputCode,
                title: "Invalid metadata pattern", detail: detail, pointer: "/")
        }
        let compiled = CompiledRequestPattern(pattern)
        return { mapping in
            guard let metadata = mapping.metadata else { return false }
            let probe = StubHTTPRequest(
                method: StubHTTPMethod("POST"), target: "/", body: Array(metadata.serialized(.compact).utf8))
            return compiled.match(probe).isMatch
        }
    }
}
