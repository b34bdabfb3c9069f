import StubHTTP
import StubModel
import StubOpenAPI
import Testing

/// Stubs made from a document: one per operation, and one per other response and named example.
@Suite("OpenAPI stubs")
struct OpenAPIStubsTests {
    @Test("Each operation answers its first success response; other responses and examples answer to Prefer")
    func stubs() throws {
        let stubs = try OpenAPIDocumentTests.load().stubs()
        #expect(
            stubs.map { $0.name ?? "" } == [
                "listPets", "listPets (example=two)", "listPets (example=empty)", "createPet",
                "createPet (code=422)", "myPets", "showPet", "showPet (code=404)"
            ])
        #expect(stubs.allSatisfy { $0.priority <= OpenAPIDocument.stubPriority && $0.priority >= 98 })
        let list = stubs[0]
        #expect(list.request.method == .exactly("GET") && list.request.url == .urlPath("/pets"))
        #expect(list.response.status == 200)
        #expect(list.response.headers.first(name: "Content-Type") == "application/json")
        guard case .json(.array(let pets)) = list.response.body else {
            Issue.record("listPets answers \(list.response.body)")
            return
        }
        #expect(pets.count == 2, "the first named example")
        let empty = stubs[2]
        #expect(empty.request.headers.map(\.name) == ["Prefer"])
        #expect(empty.response.body == .json(.array([])))
        let missing = stubs[7]
        #expect(missing.response.status == 404)
        #expect(missing.response.headers.first(name: "Content-Type") == "application/problem+json")
        #expect(missing.request.url == .urlPathTemplate("/pets/{petId}"))
        #expect(stubs[5].response.status == 204 && stubs[5].response.body == .none)
    }

    @Test("Values made from a schema fit it, and are the same for the same seed")
    func generated() throws {
        let document = try OpenAPIDocumentTests.load()
        let first = document.stubs(seed: 7), again = document.stubs(seed: 7), other = document.stubs(seed: 8)
        let created = try #require(first.first { $0.name == "createPet" })
        #expect(created.response.body == again.first { $0.name == "createPet" }?.response.body)
        #expect(created.response.body != other.first { $0.name == "createPet" }?.response.body)
        #expect(first.map(\.id) == other.map(\.id), "ids do not depend on the seed")
        // Every made body fits the operation's schema: the drift check finds nothing in the document's own stubs.
        var own = first
        for index in own.indices { own[index].metadata = nil }
        let report = document.drift(of: own)
        #expect(report.drift.map(\.description) == [])
        #expect(report.fitting == own.count)
    }

    @Test("Prefer matches a whole token anywhere in the field")
    func preferTokens() throws {
        let stubs = try OpenAPIDocumentTests.load().stubs()
        let codeStub = try #require(stubs.first { $0.name == "showPet (code=404)" })
        guard case .single(.matches(let pattern)) = codeStub.request.headers.first?.matcher else {
            Issue.record("no regex on Prefer")
            return
        }
        #expect(pattern.contains("code=404"))
    }
}
