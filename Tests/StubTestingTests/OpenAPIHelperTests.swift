import Foundation
import StubServerTestSupport
import StubTestSupport
import Testing

@testable import StubTesting

/// `expectRequestsFollowOpenAPI`: a test fails when the app sent a request its OpenAPI document does not allow.
@Suite("OpenAPI test helpers")
struct OpenAPIHelperTests {
    static let pets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/OpenAPI/pets.json")

    @Test("Requests the document allows pass; one that breaks its operation or is not in it fails, naming why")
    func followsTheDocument() async throws {
        var configuration = StubServer.Configuration()
        configuration.log = LogSink(.handler { _ in })
        let server = try StubServer(configuration: configuration)
        try server.start()
        try await shuttingDown(server) {
            server.stub(openAPI: try OpenAPIDocument.load(contentsOf: Self.pets.path))
            #expect(try await HTTP.get(server, "/pets?limit=5").status == 200)
            #expect(expectRequestsFollowOpenAPI(server))
            #expect(try await HTTP.get(server, "/pets?limit=500").status == 400)
            #expect(try await HTTP.get(server, "/pets/1/toys").status == 404)
            withKnownIssue {
                expectRequestsFollowOpenAPI(server)
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined()
                return text.contains("2 requests the OpenAPI documents do not allow:")
                    && text.contains("GET /pets?limit=500 (operation listPets of")
                    && text.contains("/query/limit: 500 is greater than 100 (got 500)")
                    && text.contains(#"GET /pets/1/toys ("#)
                    && text.contains(#"the document has no path "/pets/1/toys""#)
            }
        }
    }
}
