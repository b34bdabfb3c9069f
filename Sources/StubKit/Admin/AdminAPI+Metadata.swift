import StubHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finding and removing stubs by their `metadata`, and the stubs no request has used.
extension AdminAPI {
    /// `POST /__admin/mappings/find-by-metadata` with a content pattern (`{"matchesJsonPath":
    /// {"expression": "$.team", "equalTo": "ios"}}`): the stubs whose metadata matches, newest first.
    func findMappingsByMetadata(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let matcher = try metadataMatcher(body)
        return Self.mappingList(store.mappings.reversed().filter(matcher))
    }

    /// `POST /__admin/mappings/remove-by-metadata` with a content pattern: removes the stubs whose
    /// metadata matches, with one new route table however many they are. `{}`.
    func removeMappingsByMetadata(_ body: [UInt8]) throws(AdminError) -> HTTPResponse {
        let matcher = try metadataMatcher(body)
        store.remove(ids: Set(store.mappings.filter(matcher).map(\.id)))
        return AdminResponse.empty
    }

    /// `GET /__admin/mappings/unmatched` (a stubserver addition): the stubs that answered no request
    /// since the journal was last cleared — dead stubs — in the order they were added.
    func unusedMappings() -> HTTPResponse {
        Self.mappingList(store.unusedMappings)
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
