#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Stubs from OpenAPI documents, and requests checked against them.
extension StubServer {
    /// Answers every operation of `document` from it (after every stub from files or Swift: those answer first)
    /// and checks each request against it, until ``reset()``.
    ///
    /// ```swift
    /// let api = try OpenAPIDocument.load(contentsOf: "openapi.yaml")
    /// server.stub(openAPI: api)
    /// server.stub(.get("/pets/1"), .json(["id": 1, "name": "Rex"]))   // wins over the document's answer
    /// ```
    /// A request the document's operation does not allow gets a `400` problem (see
    /// ``Configuration/openAPIValidation``); ``openAPIFindings`` lists them, with the requests for operations the
    /// document does not have, for `expectRequestsFollowOpenAPI` / `XCTAssertRequestsFollowOpenAPI`.
    /// - Parameters:
    ///   - document: the document, from ``OpenAPIDocument/load(contentsOf:)`` or ``OpenAPIDocument/init(parsing:file:directory:)``.
    ///   - seed: the seed of values made from schemas (default: ``Configuration/fakeDataSeed``, else 0).
    @discardableResult
    public func stub(openAPI document: OpenAPIDocument, seed: UInt64? = nil) -> [StubHandle] {
        let mappings = document.stubs(seed: seed ?? openAPISeed)
        store.add(mappings)
        contracts.add(document)
        return mappings.map { StubHandle(id: $0.id, store: store) }
    }

    /// Loads the OpenAPI document at `url` (YAML or JSON) and answers from it as
    /// ``stub(openAPI:seed:)-(OpenAPIDocument,_)`` does.
    /// - Throws: ``OpenAPIError`` naming the file and the place in it.
    @discardableResult
    public func stub(openAPI url: URL, seed: UInt64? = nil) throws(OpenAPIError) -> [StubHandle] {
        stub(openAPI: try OpenAPIDocument.load(contentsOf: url.path), seed: seed)
    }

    /// The requests the server's OpenAPI documents do not allow, oldest first (the newest 256): those that break
    /// their operation, and those for a method and path no document has. Cleared by ``reset()``.
    public var openAPIFindings: [OpenAPIFinding] { contracts.findings.kept }
}
